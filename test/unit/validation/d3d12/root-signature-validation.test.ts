/**
 * Root signatures (D3D12_VERSIONED_ROOT_SIGNATURE_DESC 1.0 and 1.1: src/validation/root-signature.ts)
 * through createRootSignature and serializeVersionedRootSignature, and their serialized form
 * (src/memory/root-signature-blob.ts): the blob's layout, the round trip blob → root signature →
 * blob, and malformed blobs. CTS style: one invalid field at a time next to a valid control, in both
 * versions; tables over every enum value, flag combination and visibility pair; both sides of every
 * boundary. Every refused description is refused by both calls with the same argument and rule, and
 * takes no object id.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import {
  createDevice,
  RootSignature,
  serializeRootSignature,
  serializeVersionedRootSignature,
  type Device,
  type RootSignatureVersion,
  type VersionedRootSignatureDesc,
} from '../../../../src/index.js';
import {
  DESCRIPTOR_RANGE_FLAGS,
  DESCRIPTOR_RANGE_TYPES,
  ROOT_DESCRIPTOR_FLAGS,
  ROOT_PARAMETER_TYPES,
  ROOT_SIGNATURE_FLAGS,
  SHADER_VISIBILITIES,
} from '../../../../src/api/binding-types.js';
import type { CheckedRootSignature } from '../../../../src/validation/root-signature.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { field } from '../../../shared/fuzz/snapshot.js';

const loose = (value: unknown): never => value as never;
type Fields = Record<string, unknown>;

const VERSIONS: RootSignatureVersion[] = ['1_0', '1_1'];
const member = (version: RootSignatureVersion) => (version === '1_0' ? 'desc_1_0' : 'desc_1_1');
/** The versioned description of `body`. */
const versioned = (version: RootSignatureVersion, body: unknown): VersionedRootSignatureDesc =>
  loose({ version, [member(version)]: body });

const table = (...ranges: Fields[]) => ({
  parameterType: 'DESCRIPTOR_TABLE',
  descriptorTable: { descriptorRanges: ranges },
});
const range = (rangeType: string, numDescriptors: number, baseShaderRegister: number, extra: Fields = {}) => ({
  rangeType,
  numDescriptors,
  baseShaderRegister,
  ...extra,
});
const constants = (shaderRegister: number, num32BitValues: number, extra: Fields = {}) => ({
  parameterType: '32BIT_CONSTANTS',
  constants: { shaderRegister, num32BitValues, ...extra },
});
const rootView = (parameterType: string, shaderRegister: number, extra: Fields = {}, parameter: Fields = {}) => ({
  parameterType,
  descriptor: { shaderRegister, ...extra },
  ...parameter,
});
const sampler = (shaderRegister: number, extra: Fields = {}) => ({
  filter: 'MIN_MAG_MIP_POINT',
  shaderRegister,
  ...extra,
});

let device: Device;
beforeAll(async () => {
  device = await createDevice({ gpuDevice: null });
});

const idOf = (signature: RootSignature): number => Number(/#(\d+)/.exec(signature.label)?.[1]);
const layout = (signature: RootSignature): CheckedRootSignature => field(signature, 'layout');
const blobOf = (signature: RootSignature): Uint8Array => field(signature, 'blob');

/**
 * A description both calls accept: its root signature, made from the description and from its blob,
 * which must hold the same description (the same canonical blob).
 */
function accepted(desc: unknown): CheckedRootSignature {
  const signature = device.createRootSignature(0, loose(desc));
  const blob = serializeVersionedRootSignature(loose(desc));
  const fromBlob = device.createRootSignature(0, blob);
  // Byte for byte (Buffer.equals: toEqual walks a typed array element by element, slowly).
  expect(Buffer.from(blobOf(signature)).equals(Buffer.from(blob)), 'the blob of the description').toBe(true);
  expect(Buffer.from(blobOf(fromBlob)).equals(Buffer.from(blob)), 'the blob of the blob').toBe(true);
  return layout(signature);
}

/** A description both calls refuse at `argument`; the refusals take no object id. */
function refused(desc: unknown, argument: string, message: RegExp): void {
  const before = idOf(device.createRootSignature(0, { version: '1_0', desc_1_0: {} }));
  expectD3D12Error(() => device.createRootSignature(0, loose(desc)), {
    call: 'createRootSignature',
    argument,
    message,
  });
  expectD3D12Error(() => serializeVersionedRootSignature(loose(desc)), {
    call: 'serializeVersionedRootSignature',
    argument,
    message,
  });
  expect(idOf(device.createRootSignature(0, { version: '1_0', desc_1_0: {} }))).toBe(before + 1);
}

describe('the description and its version', () => {
  test.each([null, undefined, 1, 'desc', []])('desc %j (not an object): serialize refuses it', (desc) => {
    expectD3D12Error(() => serializeVersionedRootSignature(loose(desc)), {
      call: 'serializeVersionedRootSignature',
      argument: 'desc',
      message: /must be a D3D12_VERSIONED_ROOT_SIGNATURE_DESC object/,
    });
  });

  test.each(VERSIONS)('control: version %s with an empty description', (version) => {
    expect(accepted(versioned(version, {}))).toEqual({
      version,
      flags: [],
      parameters: [],
      staticSamplers: [],
      words: 0,
    });
  });

  test.each(['1_2', '1.0', '1_0 ', 'v1_1', 1, 2, null, undefined])('version %j is rejected', (version) => {
    refused({ version, desc_1_0: {}, desc_1_1: {} }, 'desc.version', /must be one of 1_0, 1_1/);
  });

  test.each(VERSIONS)('version %s reads its own member only', (version) => {
    const other = version === '1_0' ? 'desc_1_1' : 'desc_1_0';
    refused(
      { version, [other]: {} },
      `desc.${member(version)}`,
      new RegExp(`must be the version ${version} description, got undefined`),
    );
  });

  test.each([null, 'body', 5, []])('a body of %j is rejected', (body) => {
    refused(versioned('1_1', body), 'desc.desc_1_1', /must be the version 1_1 description/);
  });
});

describe.each(VERSIONS)('version %s', (version) => {
  const at = `desc.${member(version)}`;
  const make = (body: Fields) => versioned(version, body);

  describe('flags (D3D12_ROOT_SIGNATURE_FLAGS)', () => {
    test.each(ROOT_SIGNATURE_FLAGS)('%s is accepted, as a name and in an array', (flag) => {
      const expected = flag === 'NONE' ? [] : [flag];
      expect(accepted(make({ flags: flag })).flags).toEqual(expected);
      expect(accepted(make({ flags: [flag] })).flags).toEqual(expected);
    });

    test('every flag at once is accepted', () => {
      expect(accepted(make({ flags: [...ROOT_SIGNATURE_FLAGS] })).flags).toEqual(
        ROOT_SIGNATURE_FLAGS.filter((flag) => flag !== 'NONE'),
      );
    });

    test.each([
      ['ALLOW_INPUT_LAYOUT', `${at}.flags`],
      ['none', `${at}.flags`],
      [0, `${at}.flags`],
      [['NONE', 'DENY_ALL'], `${at}.flags[1]`],
      [[null], `${at}.flags[0]`],
    ] as const)('%j is rejected at %s', (flags, argument) => {
      refused(make({ flags }), argument, /must be one of NONE, ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT/);
    });
  });

  describe('parameters', () => {
    test.each(['CBV', 5, { 0: table() }])('%j (not an array) is rejected', (parameters) => {
      refused(make({ parameters }), `${at}.parameters`, /must be an array of root parameters/);
    });

    test.each([null, 5, 'CBV', []])('a parameter %j (not an object) is rejected', (parameter) => {
      refused(make({ parameters: [loose(parameter)] }), `${at}.parameters[0]`, /must be a D3D12_ROOT_PARAMETER object/);
    });

    test.each(['DESCRIPTOR_TABLE1', 'CONSTANTS', 'SAMPLER', 'cbv', 0, undefined])(
      'parameterType %j is rejected',
      (parameterType) => {
        refused(
          make({ parameters: [{ ...rootView('CBV', 0), parameterType }] }),
          `${at}.parameters[0].parameterType`,
          /must be one of DESCRIPTOR_TABLE, 32BIT_CONSTANTS, CBV, SRV, UAV/,
        );
      },
    );

    const OF_TYPE: Record<string, Fields> = {
      DESCRIPTOR_TABLE: table(range('SRV', 1, 0)),
      '32BIT_CONSTANTS': constants(0, 1),
      CBV: rootView('CBV', 0),
      SRV: rootView('SRV', 0),
      UAV: rootView('UAV', 0),
    };
    test.each(ROOT_PARAMETER_TYPES.flatMap((type) => SHADER_VISIBILITIES.map((visibility) => [type, visibility])))(
      '%s with shaderVisibility %s is accepted',
      (type, visibility) => {
        const parameters = accepted(
          make({ parameters: [{ ...OF_TYPE[type], shaderVisibility: visibility }] }),
        ).parameters;
        expect(parameters[0]).toMatchObject({ type, visibility });
      },
    );

    test.each(['PIXEL_SHADER', 'all', 'COMPUTE', 0, false])('shaderVisibility %j is rejected', (shaderVisibility) => {
      refused(
        make({ parameters: [{ ...rootView('SRV', 0), shaderVisibility }] }),
        `${at}.parameters[0].shaderVisibility`,
        /must be one of ALL, VERTEX, HULL, DOMAIN, GEOMETRY, PIXEL, AMPLIFICATION, MESH/,
      );
    });

    test('shaderVisibility left out is ALL', () => {
      expect(accepted(make({ parameters: [rootView('SRV', 0)] })).parameters[0]?.visibility).toBe('ALL');
    });
  });

  describe('descriptor tables', () => {
    const p = `${at}.parameters[0].descriptorTable`;
    const one = (extra: Fields) => make({ parameters: [table({ ...range('SRV', 4, 0), ...extra })] });

    test.each([
      ['left out', undefined],
      ['null', null],
      ['no ranges', {}],
      ['ranges not an array', { descriptorRanges: range('SRV', 1, 0) }],
      ['an array', [range('SRV', 1, 0)]],
    ])('descriptorTable %s is rejected', (_, descriptorTable) => {
      refused(
        make({ parameters: [{ parameterType: 'DESCRIPTOR_TABLE', descriptorTable }] }),
        p,
        /must be \{ descriptorRanges: \[...\] \} \(D3D12_ROOT_DESCRIPTOR_TABLE\)/,
      );
    });

    test('a table of no ranges is rejected', () => {
      refused(make({ parameters: [table()] }), `${p}.descriptorRanges`, /a table holds at least one range/);
    });

    test.each([null, 'SRV', 4])('a range %j (not an object) is rejected', (value) => {
      refused(make({ parameters: [table(loose(value))] }), `${p}.descriptorRanges[0]`, /D3D12_DESCRIPTOR_RANGE object/);
    });

    test.each(DESCRIPTOR_RANGE_TYPES)('rangeType %s is accepted', (rangeType) => {
      expect(accepted(one({ rangeType })).parameters[0]?.ranges[0]).toMatchObject({ type: rangeType, count: 4 });
    });

    test.each(['TEXTURE', 'srv', 'STATIC_SAMPLER', 0, undefined])('rangeType %j is rejected', (rangeType) => {
      refused(one({ rangeType }), `${p}.descriptorRanges[0].rangeType`, /must be one of SRV, UAV, CBV, SAMPLER/);
    });

    test.each(DESCRIPTOR_RANGE_TYPES.flatMap((a) => DESCRIPTOR_RANGE_TYPES.map((b) => [a, b])))(
      'a %s range then a %s range',
      (a, b) => {
        const desc = make({ parameters: [table(range(a, 1, 0), range(b, 1, 1))] });
        if ((a === 'SAMPLER') === (b === 'SAMPLER')) expect(accepted(desc).parameters[0]?.ranges).toHaveLength(2);
        else
          refused(
            desc,
            `${p}.descriptorRanges[1].rangeType`,
            /a table holds SAMPLER ranges only, or CBV, SRV and UAV ranges only/,
          );
      },
    );

    test.each([1, 2, 1000, 0xfffffffe, 0xffffffff])('numDescriptors %i is accepted (0xffffffff: unbounded)', (n) => {
      expect(accepted(one({ numDescriptors: n })).parameters[0]?.ranges[0]?.count).toBe(n);
    });

    test.each([
      [0, /at least 1/],
      [-1, /at least 1/],
      [2 ** 32, /at most 4294967295/],
      [1.5, /integer/],
      ['4', /integer/],
      [undefined, /integer/],
    ] as const)('numDescriptors %s is rejected', (n, message) => {
      refused(one({ numDescriptors: n }), `${p}.descriptorRanges[0].numDescriptors`, message);
    });

    test.each([
      ['baseShaderRegister', 0],
      ['baseShaderRegister', 0xfffffffc],
      ['registerSpace', 0],
      ['registerSpace', 0xffffffef],
    ])('%s %i is accepted', (name, value) => {
      expect(accepted(one({ [name]: value })).parameters[0]?.ranges[0]).toMatchObject({
        [name === 'registerSpace' ? 'space' : 'register']: value,
      });
    });

    test.each([
      ['baseShaderRegister', -1, /at least 0/],
      ['baseShaderRegister', 2 ** 32, /at most 4294967295/],
      ['baseShaderRegister', 0.5, /integer/],
      ['baseShaderRegister', undefined, /integer/],
      ['registerSpace', 0xfffffff0, /at most 4294967279/],
      ['registerSpace', 0xffffffff, /at most 4294967279/],
      ['registerSpace', -1, /at least 0/],
      ['registerSpace', '0', /integer/],
    ] as const)('%s %s is rejected', (name, value, message) => {
      refused(one({ [name]: value }), `${p}.descriptorRanges[0].${name}`, message);
    });

    test.each([
      [0xffffffff, 1, true],
      [0xffffffff, 2, false],
      [0xfffffff0, 16, true],
      [0xfffffff0, 17, false],
      [0xffffffff, 0xffffffff, true],
    ])('registers from %i, %i of them: past 2^32?', (base, n, ok) => {
      const desc = make({ parameters: [table(range('UAV', n, base))] });
      if (ok) accepted(desc);
      else
        refused(
          desc,
          `${p}.descriptorRanges[0].numDescriptors`,
          new RegExp(`registers ${base} \\+ ${n} run past 2\\^32`),
        );
    });

    test('offsets: APPEND follows the range before, an explicit offset is kept', () => {
      const ranges = accepted(
        make({
          parameters: [
            table(
              range('SRV', 2, 0),
              range('UAV', 3, 0),
              range('CBV', 1, 0, { offsetInDescriptorsFromTableStart: 10 }),
              range('SRV', 1, 5, { offsetInDescriptorsFromTableStart: 0xffffffff }),
              range('SRV', 1, 6, { offsetInDescriptorsFromTableStart: 0 }),
            ),
          ],
        }),
      ).parameters[0]?.ranges;
      expect(ranges?.map((r) => r.offset)).toEqual([0, 2, 10, 11, 0]);
    });

    test.each([
      [-1, /at least 0/],
      [2 ** 32, /at most 4294967295/],
      [0.5, /integer/],
      ['0', /integer/],
    ] as const)('offsetInDescriptorsFromTableStart %s is rejected', (offset, message) => {
      refused(
        one({ offsetInDescriptorsFromTableStart: offset }),
        `${p}.descriptorRanges[0].offsetInDescriptorsFromTableStart`,
        message,
      );
    });

    test('after an unbounded range, APPEND is rejected and an explicit offset accepted', () => {
      const unbounded = range('SRV', 0xffffffff, 0);
      refused(
        make({ parameters: [table(unbounded, range('UAV', 1, 0))] }),
        `${p}.descriptorRanges[1].offsetInDescriptorsFromTableStart`,
        /a range after an unbounded one needs an explicit offset/,
      );
      refused(
        make({ parameters: [table(unbounded, range('UAV', 1, 0, { offsetInDescriptorsFromTableStart: 0xffffffff }))] }),
        `${p}.descriptorRanges[1].offsetInDescriptorsFromTableStart`,
        /needs an explicit offset/,
      );
      const ranges = accepted(
        make({
          parameters: [
            table(
              range('UAV', 2, 0),
              unbounded,
              range('CBV', 1, 0, { offsetInDescriptorsFromTableStart: 100 }),
              range('CBV', 1, 1, { offsetInDescriptorsFromTableStart: 101 }),
            ),
          ],
        }),
      ).parameters[0]?.ranges;
      expect(ranges?.map((r) => r.offset)).toEqual([0, 2, 100, 101]);
    });
  });

  describe('root constants', () => {
    const p = `${at}.parameters[0].constants`;

    test.each([
      [1, 1],
      [64, 64],
    ])('%i values are accepted (%i root argument words)', (n, words) => {
      const signature = accepted(make({ parameters: [constants(3, n, { registerSpace: 2 })] }));
      expect(signature.parameters[0]).toMatchObject({ register: 3, space: 2, values: n, words });
      expect(signature.words).toBe(words);
    });

    test.each([undefined, null, 5, []])('constants %j are rejected', (value) => {
      refused(
        make({ parameters: [{ parameterType: '32BIT_CONSTANTS', constants: value }] }),
        p,
        /must be a D3D12_ROOT_CONSTANTS object/,
      );
    });

    test.each([
      ['num32BitValues', { num32BitValues: 0 }, /at least 1/],
      ['num32BitValues', { num32BitValues: 65 }, /at most 64/],
      ['num32BitValues', { num32BitValues: 1.5 }, /integer/],
      ['shaderRegister', { shaderRegister: -1 }, /at least 0/],
      ['shaderRegister', { shaderRegister: 2 ** 32 }, /at most 4294967295/],
      ['registerSpace', { registerSpace: 0xfffffff0 }, /at most 4294967279/],
    ] as const)('%s %j is rejected', (name, fields, message) => {
      refused(
        make({
          parameters: [{ parameterType: '32BIT_CONSTANTS', constants: { ...constants(0, 4).constants, ...fields } }],
        }),
        `${p}.${name}`,
        message,
      );
    });
  });

  describe.each(['CBV', 'SRV', 'UAV'] as const)('root %s descriptors', (type) => {
    const p = `${at}.parameters[0].descriptor`;

    test('control: a register, a space, two root argument words', () => {
      expect(accepted(make({ parameters: [rootView(type, 7, { registerSpace: 3 })] })).parameters[0]).toMatchObject({
        type,
        register: 7,
        space: 3,
        words: 2,
        flags: [],
      });
    });

    test.each([undefined, null, 'b0', []])('descriptor %j is rejected', (descriptor) => {
      refused(make({ parameters: [{ parameterType: type, descriptor }] }), p, /must be a D3D12_ROOT_DESCRIPTOR object/);
    });

    test.each([
      ['shaderRegister', { shaderRegister: undefined }, /integer/],
      ['shaderRegister', { shaderRegister: -1 }, /at least 0/],
      ['registerSpace', { registerSpace: 0xfffffff0 }, /at most 4294967279/],
      ['registerSpace', { registerSpace: 1.5 }, /integer/],
    ] as const)('%s %j is rejected', (name, fields, message) => {
      refused(make({ parameters: [rootView(type, 0, fields)] }), `${p}.${name}`, message);
    });

    if (version === '1_0') {
      test.each([['NONE'], [[]], ['DATA_STATIC']])('flags %j: version 1_0 has none', (flags) => {
        refused(
          make({ parameters: [rootView(type, 0, { flags })] }),
          `${p}.flags`,
          /root descriptor flags are version 1_1; a 1_0 root signature has none/,
        );
      });
    } else {
      test.each(ROOT_DESCRIPTOR_FLAGS)('flag %s is accepted', (flag) => {
        expect(accepted(make({ parameters: [rootView(type, 0, { flags: [flag] })] })).parameters[0]?.flags).toEqual(
          flag === 'NONE' ? [] : [flag],
        );
      });

      const DATA = ROOT_DESCRIPTOR_FLAGS.filter((flag) => flag !== 'NONE');
      test.each(DATA.flatMap((a, i) => DATA.slice(i + 1).map((b) => [a, b])))('flags %s | %s are rejected', (a, b) => {
        refused(
          make({ parameters: [rootView(type, 0, { flags: [a, b] })] }),
          `${p}.flags`,
          new RegExp(`takes one DATA_ flag at most, got ${a} \\| ${b}`),
        );
      });

      test.each([
        [['DESCRIPTORS_VOLATILE'], `${p}.flags[0]`],
        [['NONE', 'VOLATILE'], `${p}.flags[1]`],
        ['STATIC', `${p}.flags`],
      ] as const)('flags %j are rejected at %s', (flags, argument) => {
        refused(
          make({ parameters: [rootView(type, 0, { flags })] }),
          argument,
          /must be one of NONE, DATA_VOLATILE, DATA_STATIC_WHILE_SET_AT_EXECUTE, DATA_STATIC/,
        );
      });
    }
  });

  describe('descriptor range flags', () => {
    const p = `${at}.parameters[0].descriptorTable.descriptorRanges[0].flags`;
    const withFlags = (rangeType: string, flags: unknown) =>
      make({ parameters: [table(range(rangeType, 2, 0, { flags }))] });

    if (version === '1_0') {
      test.each([['NONE'], [[]], ['DESCRIPTORS_VOLATILE']])('flags %j: version 1_0 has none', (flags) => {
        refused(withFlags('SRV', flags), p, /range flags are version 1_1; a 1_0 root signature has none/);
      });
      return;
    }

    test.each(
      ['SRV', 'UAV', 'CBV', 'SAMPLER'].flatMap((type) => DESCRIPTOR_RANGE_FLAGS.map((flag) => [type, flag] as const)),
    )('a %s range with flag %s', (type, flag) => {
      const desc = withFlags(type, [flag]);
      if (type === 'SAMPLER' && flag !== 'NONE' && flag !== 'DESCRIPTORS_VOLATILE')
        refused(desc, p, new RegExp(`a SAMPLER range takes NONE or DESCRIPTORS_VOLATILE only, got ${flag}`));
      else expect(accepted(desc).parameters[0]?.ranges[0]?.flags).toEqual(flag === 'NONE' ? [] : [flag]);
    });

    const SET = DESCRIPTOR_RANGE_FLAGS.filter((flag) => flag !== 'NONE');
    const pairs = SET.flatMap((a, i) => SET.slice(i + 1).map((b) => [a, b] as const));
    const problem = (a: string, b: string): RegExp | undefined => {
      const has = (flag: string) => a === flag || b === flag;
      if (a.startsWith('DATA_') && b.startsWith('DATA_')) return /takes one DATA_ flag at most/;
      if (has('DESCRIPTORS_VOLATILE') && has('DATA_STATIC')) return /DATA_STATIC cannot go with DESCRIPTORS_VOLATILE/;
      if (has('DESCRIPTORS_VOLATILE') && has('DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS'))
        return /DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS cannot go with DESCRIPTORS_VOLATILE/;
      return undefined;
    };
    test.each(pairs)('an SRV range with flags %s | %s', (a, b) => {
      const message = problem(a, b);
      if (message) refused(withFlags('SRV', [a, b]), p, message);
      else expect(accepted(withFlags('SRV', [a, b])).parameters[0]?.ranges[0]?.flags).toEqual([a, b]);
    });

    test.each([
      [['VOLATILE'], `${p}[0]`],
      [['NONE', 'DATA_STATIC', 'STATIC'], `${p}[2]`],
      ['descriptors_volatile', p],
      [[0], `${p}[0]`],
    ] as const)('flags %j are rejected at %s', (flags, argument) => {
      refused(withFlags('SRV', flags), argument, /must be one of NONE, DESCRIPTORS_VOLATILE, DATA_VOLATILE/);
    });

    test('a single name is a flag set of one', () => {
      expect(accepted(withFlags('UAV', 'DATA_VOLATILE')).parameters[0]?.ranges[0]?.flags).toEqual(['DATA_VOLATILE']);
    });
  });

  describe('the 64-DWORD limit (a table 1, a constant 1, a root descriptor 2)', () => {
    const tables = (n: number) => Array.from({ length: n }, (_, i) => table(range('SRV', 1, i)));
    const views = (n: number) => Array.from({ length: n }, (_, i) => rootView('CBV', i));
    const cases: [string, Fields[], number][] = [
      ['64 tables: 64 DWORDs', tables(64), 64],
      ['32 root descriptors: 64 DWORDs', views(32), 64],
      ['64 constants: 64 DWORDs', [constants(0, 64)], 64],
      [
        'a table, a root descriptor and 61 constants: 64 DWORDs',
        [...tables(1), rootView('UAV', 0), constants(0, 61)],
        64,
      ],
      ['65 tables: 65 DWORDs', tables(65), 65],
      ['33 root descriptors: 66 DWORDs', views(33), 66],
      ['64 constants and a table: 65 DWORDs', [constants(0, 64), ...tables(1)], 65],
      [
        'a root descriptor, 32 constants and 31 tables: 65 DWORDs',
        [rootView('SRV', 100), constants(0, 32), ...tables(31)],
        65,
      ],
    ];

    test.each(cases)('%s', (_, parameters, cost) => {
      const desc = make({ parameters });
      if (cost <= 64) {
        const signature = accepted(desc);
        // Root argument words: 2 per table and root descriptor, 1 per constant.
        const words = parameters.reduce(
          (sum, p) =>
            sum +
            (p.parameterType === '32BIT_CONSTANTS' ? (p.constants as { num32BitValues: number }).num32BitValues : 2),
          0,
        );
        expect(signature.words).toBe(words);
        expect(signature.parameters.map((p) => p.word)).toEqual(
          signature.parameters.map((_, i) => signature.parameters.slice(0, i).reduce((sum, q) => sum + q.words, 0)),
        );
      } else
        refused(
          desc,
          `${at}.parameters`,
          new RegExp(`cost ${cost} DWORDs, over D3D12's 64 \\(a table 1, a constant 1, a root descriptor 2\\)`),
        );
    });
  });

  describe('static samplers', () => {
    const p = `${at}.staticSamplers`;

    test.each(['sampler', 5, { 0: sampler(0) }])('%j (not an array) is rejected', (staticSamplers) => {
      refused(make({ staticSamplers }), p, /must be an array of static samplers/);
    });

    test('control: a register, a space, a visibility', () => {
      expect(
        accepted(make({ staticSamplers: [sampler(4, { registerSpace: 2, shaderVisibility: 'PIXEL' })] }))
          .staticSamplers[0],
      ).toMatchObject({ register: 4, space: 2, visibility: 'PIXEL', borderColor: 'TRANSPARENT_BLACK' });
    });

    test.each(SHADER_VISIBILITIES)('shaderVisibility %s is accepted', (visibility) => {
      expect(
        accepted(make({ staticSamplers: [sampler(0, { shaderVisibility: visibility })] })).staticSamplers[0]
          ?.visibility,
      ).toBe(visibility);
    });

    test.each([
      ['shaderRegister', { shaderRegister: undefined }, /integer/],
      ['shaderRegister', { shaderRegister: 2 ** 32 }, /at most 4294967295/],
      ['registerSpace', { registerSpace: 0xfffffff0 }, /at most 4294967279/],
      ['shaderVisibility', { shaderVisibility: 'COMPUTE' }, /must be one of ALL, VERTEX/],
      ['filter', { filter: 'LINEAR' }, /must be one of MIN_MAG_MIP_POINT/],
      ['borderColor', { borderColor: [1, 1, 1, 1] }, /must be one of TRANSPARENT_BLACK/],
    ] as const)('%s %j is rejected', (name, fields, message) => {
      refused(make({ staticSamplers: [sampler(0, fields)] }), `${p}[0].${name}`, message);
    });

    test.each([null, 'MIN_MAG_MIP_POINT'])('a sampler %j (not an object) is rejected', (value) => {
      refused(make({ staticSamplers: [value] }), `${p}[0]`, /must be a D3D12_STATIC_SAMPLER_DESC object/);
    });

    test('2032 static samplers are accepted; 2033 are not', () => {
      const many = (n: number) => Array.from({ length: n }, (_, i) => sampler(i));
      expect(device.createRootSignature(0, make({ staticSamplers: many(2032) }))).toBeInstanceOf(RootSignature);
      refused(make({ staticSamplers: many(2033) }), p, /holds 2033, over the 2032 a root signature may/);
    });
  });

  describe('registers bound twice where visibilities meet', () => {
    test.each(SHADER_VISIBILITIES.flatMap((a) => SHADER_VISIBILITIES.map((b) => [a, b] as const)))(
      't0 at visibilities %s and %s',
      (a, b) => {
        const desc = make({
          parameters: [
            rootView('SRV', 0, {}, { shaderVisibility: a }),
            rootView('SRV', 0, {}, { shaderVisibility: b }),
          ],
        });
        if (a === 'ALL' || b === 'ALL' || a === b)
          refused(
            desc,
            `${at}.parameters[1].descriptor`,
            new RegExp(
              `binds t0 in space 0, which ${at}.parameters\\[0\\].descriptor binds too \\(visibilities ${a} and ${b} meet\\)`,
            ),
          );
        else accepted(desc);
      },
    );

    const clashes: [string, Fields, string, string][] = [
      [
        'a root CBV and root constants at b0',
        { parameters: [rootView('CBV', 0), constants(0, 1)] },
        'parameters[1].constants',
        'b0',
      ],
      [
        'a table t0-t3 and a root SRV at t3',
        { parameters: [table(range('SRV', 4, 0)), rootView('SRV', 3)] },
        'parameters[1].descriptor',
        't3',
      ],
      [
        'an unbounded table from t2 and a root SRV at t1000',
        { parameters: [table(range('SRV', 0xffffffff, 2)), rootView('SRV', 1000)] },
        'parameters[1].descriptor',
        't1000',
      ],
      [
        'two ranges of one table',
        { parameters: [table(range('UAV', 4, 0), range('UAV', 2, 3))] },
        'parameters[0].descriptorTable.descriptorRanges[1]',
        'u3',
      ],
      [
        'a sampler table and a static sampler at s0',
        { parameters: [table(range('SAMPLER', 1, 0))], staticSamplers: [sampler(0)] },
        'staticSamplers[0]',
        's0',
      ],
      ['two static samplers at s5', { staticSamplers: [sampler(5), sampler(5)] }, 'staticSamplers[1]', 's5'],
      [
        'a root UAV then a table over it',
        { parameters: [rootView('UAV', 7), table(range('UAV', 8, 0))] },
        'parameters[1].descriptorTable.descriptorRanges[0]',
        'u7',
      ],
    ];
    test.each(clashes)('%s is rejected', (_, body, argument, register) => {
      refused(make(body), `${at}.${argument}`, new RegExp(`binds ${register} in space 0, which .* binds too`));
    });

    const apart: [string, Fields][] = [
      ['t0 in spaces 0 and 1', { parameters: [rootView('SRV', 0), rootView('SRV', 0, { registerSpace: 1 })] }],
      ['t0 and u0', { parameters: [rootView('SRV', 0), rootView('UAV', 0)] }],
      ['t0 and s0', { parameters: [rootView('SRV', 0)], staticSamplers: [sampler(0)] }],
      ['a table t0-t3 and a root SRV at t4', { parameters: [table(range('SRV', 4, 0)), rootView('SRV', 4)] }],
      [
        'an unbounded table from t2 and a root SRV at t1',
        { parameters: [table(range('SRV', 0xffffffff, 2)), rootView('SRV', 1)] },
      ],
      [
        'static samplers at s0 for VERTEX and for PIXEL',
        { staticSamplers: [sampler(0, { shaderVisibility: 'VERTEX' }), sampler(0, { shaderVisibility: 'PIXEL' })] },
      ],
      [
        'two tables in different spaces',
        { parameters: [table(range('CBV', 8, 0)), table(range('CBV', 8, 0, { registerSpace: 9 }))] },
      ],
    ];
    test.each(apart)('control: %s', (_, body) => {
      accepted(make(body));
    });
  });
});

describe('createRootSignature: nodeMask and the blob argument', () => {
  const desc: VersionedRootSignatureDesc = { version: '1_1', desc_1_1: { parameters: [loose(constants(0, 4))] } };

  test.each([0, 1])('nodeMask %i is accepted', (nodeMask) => {
    expect(device.createRootSignature(nodeMask, desc)).toBeInstanceOf(RootSignature);
  });

  test.each([
    [2, /at most 1/],
    [-1, /at least 0/],
    [0.5, /integer/],
    ['0', /integer/],
    [undefined, /integer/],
  ] as const)('nodeMask %s is rejected', (nodeMask, message) => {
    expectD3D12Error(() => device.createRootSignature(loose(nodeMask), desc), {
      call: 'createRootSignature',
      argument: 'nodeMask',
      message,
    });
  });

  test.each([null, undefined, 5, 'blob', [], true])('blobWithRootSignature %j is rejected', (blob) => {
    expectD3D12Error(() => device.createRootSignature(0, loose(blob)), {
      call: 'createRootSignature',
      argument: 'blobWithRootSignature',
      message:
        /must be a serialized root signature \(serializeVersionedRootSignature's Uint8Array\) or its description/,
    });
  });

  test('the blob as a Uint8Array, an ArrayBuffer, a Uint32Array and a view at an offset', () => {
    const blob = serializeVersionedRootSignature(desc);
    const shifted = new Uint8Array(blob.byteLength + 8);
    shifted.set(blob, 4);
    const forms: unknown[] = [
      blob,
      blob.slice().buffer,
      new Uint32Array(blob.slice().buffer),
      shifted.subarray(4, 4 + blob.byteLength),
      new DataView(shifted.buffer, 4, blob.byteLength),
    ];
    for (const form of forms) expect(blobOf(device.createRootSignature(0, loose(form)))).toEqual(blob);
  });
});

describe('serializeRootSignature (D3D12SerializeRootSignature: version 1.0)', () => {
  const body = { parameters: [loose(table(range('SRV', 2, 0)))], staticSamplers: [loose(sampler(0))] };

  test.each([[[]], [['1_0']]])('control: version %j gives the versioned 1_0 blob', (args) => {
    expect(serializeRootSignature(body, ...(args as []))).toEqual(
      serializeVersionedRootSignature({ version: '1_0', desc_1_0: body }),
    );
  });

  test.each(['1_1', '1.0', 1, null])('version %j is rejected', (version) => {
    expectD3D12Error(() => serializeRootSignature(body, version), {
      call: 'serializeRootSignature',
      argument: 'version',
      message: /must be '1_0'/,
    });
  });

  test("a description's errors name this call and its desc", () => {
    expectD3D12Error(() => serializeRootSignature(loose({ parameters: [constants(0, 65)] })), {
      call: 'serializeRootSignature',
      argument: 'desc.parameters[0].constants.num32BitValues',
      message: /at most 64/,
    });
    expectD3D12Error(() => serializeRootSignature(loose(null)), {
      call: 'serializeRootSignature',
      argument: 'desc',
      message: /must be the version 1_0 description/,
    });
    expectD3D12Error(
      () => serializeRootSignature(loose({ parameters: [rootView('CBV', 0, { flags: 'DATA_STATIC' })] })),
      {
        call: 'serializeRootSignature',
        argument: 'desc.parameters[0].descriptor.flags',
        message: /version 1_1/,
      },
    );
  });
});

describe('serialized root signatures', () => {
  /** A description that uses every part of the layout. */
  const rich = (version: RootSignatureVersion): VersionedRootSignatureDesc => {
    const flags = version === '1_1' ? { flags: ['DATA_STATIC'] } : {};
    return versioned(version, {
      flags: ['ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT', 'DENY_PIXEL_SHADER_ROOT_ACCESS'],
      parameters: [
        table(range('SRV', 2, 0, flags), range('UAV', 0xffffffff, 1, { registerSpace: 3 })),
        table(range('SAMPLER', 4, 1, { offsetInDescriptorsFromTableStart: 8 })),
        { ...constants(0, 16, { registerSpace: 1 }), shaderVisibility: 'VERTEX' },
        rootView('CBV', 1, version === '1_1' ? { flags: 'DATA_VOLATILE' } : {}),
        rootView('SRV', 9),
        rootView('UAV', 2, {}, { shaderVisibility: 'PIXEL' }),
      ],
      staticSamplers: [
        sampler(10, {
          filter: 'COMPARISON_MIN_MAG_MIP_LINEAR',
          addressU: 'BORDER',
          addressV: 'MIRROR_ONCE',
          mipLODBias: -2.5,
          maxAnisotropy: 8,
          comparisonFunc: 'LESS_EQUAL',
          borderColor: 'OPAQUE_WHITE_UINT',
          minLOD: 1,
          maxLOD: 6,
          registerSpace: 2,
          shaderVisibility: 'PIXEL',
        }),
        sampler(11, { filter: 'ANISOTROPIC' }),
      ],
    });
  };
  /** The RTS0 part's words (the container's header is 11 words: DXBC, hash, version, size, count, offset, fourcc, size). */
  const rts0 = (blob: Uint8Array): Uint32Array => new Uint32Array(blob.slice().buffer).subarray(11);

  test.each(VERSIONS)('version %s: a DXBC container with one RTS0 part, as D3D12 lays it out', (version) => {
    const blob = serializeVersionedRootSignature(rich(version));
    const words = new Uint32Array(blob.slice().buffer);
    expect(words[0]).toBe(0x43425844); // 'DXBC'
    expect([...words.subarray(1, 5)]).toEqual([0, 0, 0, 0]); // the hash: zero
    expect(words[5]).toBe(1);
    expect(words[6]).toBe(blob.byteLength);
    expect(words[7]).toBe(1);
    expect(words[8]).toBe(36);
    expect(words[9]).toBe(0x30535452); // 'RTS0'
    expect(words[10]).toBe(blob.byteLength - 44);
    const part = rts0(blob);
    // Version (1: 1_0, 2: 1_1), 6 parameters from byte 24, 2 static samplers, their offset, the flags.
    expect([part[0], part[1], part[2], part[3]]).toEqual([version === '1_0' ? 1 : 2, 6, 24, 2]);
    expect(part[5]).toBe(0x1 | 0x20);
    // Parameter 0: DESCRIPTOR_TABLE (0), visible to ALL (0); parameter 2: constants (1), VERTEX (1).
    expect([part[6], part[7]]).toEqual([0, 0]);
    expect([part[12], part[13]]).toEqual([1, 1]);
    // The static samplers' table: 13 words each, from the offset given.
    const samplers = (part[4] ?? 0) / 4;
    expect(part.length).toBe(samplers + 2 * 13);
    expect(part[samplers]).toBe(0x80 | 0x15); // COMPARISON_MIN_MAG_MIP_LINEAR
    expect(part[samplers + 13]).toBe(0x55); // ANISOTROPIC
  });

  test.each(VERSIONS)('version %s: blob → root signature → blob is the same blob', (version) => {
    const blob = serializeVersionedRootSignature(rich(version));
    const fromBlob = device.createRootSignature(0, blob);
    const fromDesc = device.createRootSignature(0, rich(version));
    expect(blobOf(fromBlob)).toEqual(blob);
    expect(blobOf(fromDesc)).toEqual(blob);
    expect(fromBlob.matches(fromDesc)).toBe(true);
    expect(layout(fromBlob).parameters).toEqual(layout(fromDesc).parameters);
    expect(layout(fromBlob).flags).toEqual(layout(fromDesc).flags);
    expect(layout(fromBlob).words).toBe(layout(fromDesc).words);
    // The static samplers' floats went through 32 bits: the same values here (all exact in f32).
    expect(layout(fromBlob).staticSamplers[0]).toEqual(layout(fromDesc).staticSamplers[0]);
  });

  test('defaults written out give the same blob as defaults left out', () => {
    const short = versioned('1_1', {
      parameters: [table(range('SRV', 1, 0)), rootView('CBV', 0)],
      staticSamplers: [sampler(0)],
    });
    const long = versioned('1_1', {
      flags: ['NONE'],
      parameters: [
        {
          ...table(
            range('SRV', 1, 0, { registerSpace: 0, offsetInDescriptorsFromTableStart: 0xffffffff, flags: 'NONE' }),
          ),
          shaderVisibility: 'ALL',
        },
        rootView('CBV', 0, { registerSpace: 0, flags: [] }, { shaderVisibility: 'ALL' }),
      ],
      staticSamplers: [
        sampler(0, {
          addressU: 'CLAMP',
          addressV: 'CLAMP',
          addressW: 'CLAMP',
          mipLODBias: 0,
          maxAnisotropy: 1,
          comparisonFunc: 'NEVER',
          borderColor: 'TRANSPARENT_BLACK',
          minLOD: 0,
          registerSpace: 0,
          shaderVisibility: 'ALL',
        }),
      ],
    });
    expect(serializeVersionedRootSignature(long)).toEqual(serializeVersionedRootSignature(short));
  });

  test('versions 1_0 and 1_1 of the same parameters are different blobs, and different root signatures', () => {
    const body = { parameters: [table(range('SRV', 1, 0))] };
    const a = device.createRootSignature(0, versioned('1_0', body));
    const b = device.createRootSignature(0, versioned('1_1', body));
    expect(a.matches(b)).toBe(false);
  });

  describe('malformed blobs are refused, naming blobWithRootSignature', () => {
    /** The rich 1_1 blob with `edit` applied to its words (word 11 on is the RTS0 part). */
    const edited = (edit: (words: Uint32Array, part: Uint32Array) => void, version: RootSignatureVersion = '1_1') => {
      const blob = serializeVersionedRootSignature(rich(version)).slice();
      const words = new Uint32Array(blob.buffer);
      edit(words, words.subarray(11));
      return blob;
    };
    /** Parameter i's header is RTS0 words 6 + 3i (type, visibility, payload offset in bytes). */
    const paramPayload = (part: Uint32Array, i: number) => (part[8 + 3 * i] ?? 0) / 4;

    const cases: [string, () => Uint8Array, RegExp][] = [
      ['an empty blob', () => new Uint8Array(0), /is 0 bytes: too short, or not whole DWORDs/],
      ['40 bytes', () => new Uint8Array(40), /is 40 bytes: too short/],
      [
        'a length that is not whole DWORDs',
        () => new Uint8Array(serializeVersionedRootSignature(rich('1_0')).byteLength + 1),
        /not whole DWORDs/,
      ],
      ['no DXBC magic', () => edited((w) => (w[0] = 0x12345678)), /is not a DXBC container \(no DXBC magic\)/],
      ['a wrong total size', () => edited((w) => (w[6] = (w[6] ?? 0) + 4)), /says it is \d+ bytes long, but holds \d+/],
      ['no RTS0 fourcc', () => edited((w) => (w[9] = 0x4e475349)), /holds no RTS0 \(root signature\) part/],
      ['no parts', () => edited((w) => (w[7] = 0)), /holds no RTS0/],
      [
        'a part that runs past the end',
        () => edited((w) => (w[10] = (w[10] ?? 0) + 4)),
        /has an RTS0 part that runs past its end/,
      ],
      [
        'root signature version 3',
        () => edited((_, p) => (p[0] = 3)),
        /holds root signature version 3; 1 \(1_0\) and 2 \(1_1\) are known/,
      ],
      ['root signature version 0', () => edited((_, p) => (p[0] = 0)), /holds root signature version 0/],
      [
        'an unknown parameter type',
        () => edited((_, p) => (p[6] = 5)),
        /parameter 0 has an unknown type or visibility/,
      ],
      [
        'an unknown visibility',
        () => edited((_, p) => (p[6 + 3 + 1] = 8)),
        /parameter 1 has an unknown type or visibility/,
      ],
      [
        'an unknown range type',
        () => edited((_, p) => (p[(p[paramPayload(p, 0) + 1] ?? 0) / 4] = 4)),
        /parameter 0 range 0 has an unknown type/,
      ],
      [
        'an unknown static sampler filter',
        () => edited((_, p) => (p[(p[4] ?? 0) / 4] = 0x2)),
        /static sampler 0 has an unknown filter, address mode, comparison, border color or visibility/,
      ],
      [
        'address mode 0 (none)',
        () => edited((_, p) => (p[(p[4] ?? 0) / 4 + 13 + 1] = 0)),
        /static sampler 1 has an unknown/,
      ],
      [
        'an unknown border color',
        () => edited((_, p) => (p[(p[4] ?? 0) / 4 + 7] = 5)),
        /static sampler 0 has an unknown/,
      ],
      [
        'more parameters than headers: the 7th header is payload words',
        () => edited((_, p) => (p[1] = 1000)),
        /parameter 6 has an unknown type or visibility/,
      ],
      [
        'more static samplers than the part holds',
        () => edited((_, p) => (p[3] = 3)),
        /has an offset outside its RTS0 part/,
      ],
      [
        'a payload offset outside the part',
        () => edited((_, p) => (p[8] = 0x10000)),
        /has an offset outside its RTS0 part/,
      ],
      [
        'a payload offset that is not a whole DWORD',
        () => edited((_, p) => (p[8] = (p[8] ?? 0) + 2)),
        /has an offset outside its RTS0 part/,
      ],
      [
        'a description that breaks a rule (65 root constants)',
        () => edited((_, p) => (p[paramPayload(p, 2) + 2] = 65)),
        /holds a description that desc.desc_1_1.parameters\[2\].constants.num32BitValues breaks: must be at most 64/,
      ],
      [
        'range flags D3D12 refuses together (DESCRIPTORS_VOLATILE | DATA_STATIC)',
        () => edited((_, p) => (p[(p[paramPayload(p, 0) + 1] ?? 0) / 4 + 4] = 0x9)),
        /holds a description that desc.desc_1_1.parameters\[0\].descriptorTable.descriptorRanges\[0\].flags breaks: DATA_STATIC cannot go with DESCRIPTORS_VOLATILE/,
      ],
      [
        'a register bound twice',
        () => edited((_, p) => (p[paramPayload(p, 4)] = 0)),
        /holds a description that desc.desc_1_1.parameters\[4\].descriptor breaks: binds t0 in space 0/,
      ],
    ];

    test('control: the unedited blob', () => {
      expect(
        device.createRootSignature(
          0,
          edited(() => undefined),
        ),
      ).toBeInstanceOf(RootSignature);
    });

    test.each(cases)('%s', (_, blob, message) => {
      const before = idOf(device.createRootSignature(0, { version: '1_0', desc_1_0: {} }));
      expectD3D12Error(() => device.createRootSignature(0, blob()), {
        call: 'createRootSignature',
        argument: 'blobWithRootSignature',
        message,
      });
      expect(idOf(device.createRootSignature(0, { version: '1_0', desc_1_0: {} }))).toBe(before + 1);
    });
  });
});
