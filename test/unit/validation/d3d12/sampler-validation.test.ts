/**
 * Sampler descriptions (src/validation/samplers.ts): D3D12_SAMPLER_DESC through createSampler, and
 * D3D12_STATIC_SAMPLER_DESC through a root signature's staticSamplers (createRootSignature), which
 * share every field but the border colour. CTS style: one invalid field at a time next to a valid
 * control; tables over every enum value and both sides of every boundary; a refused createSampler
 * writes no descriptor, a refused root signature takes no object id.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import {
  createDevice,
  FLOAT32_MAX,
  serializeVersionedRootSignature,
  type DescriptorHeap,
  type Device,
  type RootSignature,
} from '../../../../src/index.js';
import type { DescriptorRecord } from '../../../../src/d3d12/descriptor-heap.js';
import {
  COMPARISON_FUNCS,
  FILTERS,
  STATIC_BORDER_COLORS,
  TEXTURE_ADDRESS_MODES,
} from '../../../../src/api/binding-types.js';
import type { SamplerPlan } from '../../../../src/validation/samplers.js';
import { expectD3D12Error, type ExpectedD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { field } from '../../../shared/fuzz/snapshot.js';

const loose = (value: unknown): never => value as never;

let device: Device;
let samplers: DescriptorHeap;

beforeAll(async () => {
  device = await createDevice({ gpuDevice: null });
  samplers = device.createDescriptorHeap({ type: 'SAMPLER', numDescriptors: 4, flags: 'SHADER_VISIBLE' });
});

interface Maker {
  call: string;
  /** Where the sampler's fields are in the call's arguments. */
  at: string;
  /** Makes a sampler of `fields` and answers its plan. */
  make(fields: Record<string, unknown>): SamplerPlan;
  /** Runs `fn`, which must be refused with `expected`, and checks nothing changed. */
  refused(fn: () => unknown, expected: ExpectedD3D12Error): void;
}

const descriptor = (): DescriptorRecord | undefined => field<(DescriptorRecord | undefined)[]>(samplers, 'records')[1];

const createSampler: Maker = {
  call: 'createSampler',
  at: 'desc',
  make(fields) {
    const handle = {
      ptr: samplers.getCPUDescriptorHandleForHeapStart().ptr + device.getDescriptorHandleIncrementSize('SAMPLER'),
    };
    device.createSampler(loose(fields), handle);
    const written = descriptor();
    if (written?.kind !== 'SAMPLER') throw new Error('no sampler written');
    return written.plan;
  },
  refused(fn, expected) {
    const words = field<Uint32Array>(samplers, 'words').join();
    const records = [...field<unknown[]>(samplers, 'records')];
    expectD3D12Error(fn, expected);
    // Descriptors are replaced, never changed in place: the words as text and the records by identity.
    expect(field<Uint32Array>(samplers, 'words').join() === words, 'words unchanged').toBe(true);
    expect(field<unknown[]>(samplers, 'records').every((record, i) => record === records[i])).toBe(true);
  },
};

const staticSampler: Maker = {
  call: 'createRootSignature',
  at: 'desc.desc_1_1.staticSamplers[0]',
  make(fields) {
    const signature = device.createRootSignature(0, {
      version: '1_1',
      desc_1_1: { staticSamplers: [loose({ shaderRegister: 0, ...fields })] },
    });
    return field<RootSignature['layout']>(signature, 'layout').staticSamplers[0]?.plan as SamplerPlan;
  },
  refused(fn, expected) {
    const before = device.createRootSignature(0, { version: '1_0', desc_1_0: {} }).label;
    expectD3D12Error(fn, expected);
    const after = device.createRootSignature(0, { version: '1_0', desc_1_0: {} }).label;
    // The refused call took no id: the next root signature's is one more than the one before it.
    expect(Number(/#(\d+)/.exec(after)?.[1])).toBe(Number(/#(\d+)/.exec(before)?.[1]) + 1);
  },
};

const MAKERS = { createSampler, 'a static sampler': staticSampler };

describe('createSampler: desc', () => {
  test.each([null, undefined, 'MIN_MAG_MIP_POINT', 0, []])('%j (not an object) is rejected', (desc) => {
    createSampler.refused(() => createSampler.make(loose(desc)), {
      call: 'createSampler',
      argument: 'desc',
      message: /must be a D3D12_SAMPLER_DESC object/,
    });
  });

  test('defaults: CLAMP, bias 0, anisotropy 1, NEVER, border 0, LODs 0 to FLOAT32_MAX', () => {
    expect(createSampler.make({ filter: 'MIN_MAG_MIP_LINEAR' })).toEqual({
      filter: 'MIN_MAG_MIP_LINEAR',
      address: ['CLAMP', 'CLAMP', 'CLAMP'],
      mipLODBias: 0,
      maxAnisotropy: 1,
      comparison: 'NEVER',
      border: [0, 0, 0, 0],
      minLOD: 0,
      maxLOD: FLOAT32_MAX,
    });
  });

  test('the destination must be a SAMPLER descriptor', () => {
    const views = device.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 1 });
    expectD3D12Error(
      () => device.createSampler({ filter: 'MIN_MAG_MIP_POINT' }, views.getCPUDescriptorHandleForHeapStart()),
      {
        call: 'createSampler',
        argument: 'destDescriptor',
        message: /this call writes SAMPLER descriptors/,
      },
    );
  });
});

describe('static samplers: desc', () => {
  test.each([null, 'MIN_MAG_MIP_POINT', 0, []])('%j (not an object) is rejected', (sampler) => {
    staticSampler.refused(
      () => device.createRootSignature(0, { version: '1_1', desc_1_1: { staticSamplers: [loose(sampler)] } }),
      {
        call: 'createRootSignature',
        argument: 'desc.desc_1_1.staticSamplers[0]',
        message: /must be a D3D12_STATIC_SAMPLER_DESC object/,
      },
    );
  });

  test('defaults as createSampler, border TRANSPARENT_BLACK', () => {
    expect(staticSampler.make({ filter: 'MIN_MAG_MIP_LINEAR' })).toEqual(
      createSampler.make({ filter: 'MIN_MAG_MIP_LINEAR' }),
    );
  });
});

describe.each(Object.entries(MAKERS))('%s: the fields samplers share', (_, maker) => {
  const { call, at } = maker;
  const sampler = (fields: Record<string, unknown>) => ({ filter: 'MIN_MAG_MIP_POINT', ...fields });

  test('null fields are left out (their defaults), as undefined ones', () => {
    const nulls = {
      addressU: null,
      mipLODBias: null,
      maxAnisotropy: null,
      comparisonFunc: null,
      minLOD: null,
      maxLOD: null,
    };
    expect(maker.make(sampler(nulls))).toEqual(maker.make(sampler({})));
  });

  describe('filter', () => {
    test.each(FILTERS)('%s is accepted', (filter) => {
      expect(maker.make(sampler({ filter })).filter).toBe(filter);
    });

    test.each(['POINT', 'MIN_MAG_MIP_NEAREST', 'MINIMUM_MIN_MAG_MIP_POINT', 'min_mag_mip_point', 0, undefined])(
      '%j is rejected',
      (filter) => {
        maker.refused(() => maker.make(sampler({ filter })), {
          call,
          argument: `${at}.filter`,
          message: /must be one of MIN_MAG_MIP_POINT, .*COMPARISON_ANISOTROPIC/,
        });
      },
    );
  });

  describe.each(['addressU', 'addressV', 'addressW'] as const)('%s', (axis) => {
    const index = ['addressU', 'addressV', 'addressW'].indexOf(axis);

    test.each(TEXTURE_ADDRESS_MODES)('%s is accepted', (mode) => {
      const plan = maker.make(sampler({ [axis]: mode }));
      expect(plan.address[index]).toBe(mode);
      // The other axes keep their default.
      expect(plan.address.filter((_, i) => i !== index)).toEqual(['CLAMP', 'CLAMP']);
    });

    test.each(['CLAMP_TO_EDGE', 'REPEAT', 'wrap', 3, false])('%j is rejected', (mode) => {
      maker.refused(() => maker.make(sampler({ [axis]: mode })), {
        call,
        argument: `${at}.${axis}`,
        message: /must be one of WRAP, MIRROR, CLAMP, BORDER, MIRROR_ONCE/,
      });
    });
  });

  describe('mipLODBias: [-16, 15.99] (D3D12_MIP_LOD_BIAS_MIN / MAX)', () => {
    test.each([-16, -15.99, -0.5, 0, 1, 15, 15.99])('%s is accepted', (bias) => {
      expect(maker.make(sampler({ mipLODBias: bias })).mipLODBias).toBe(bias);
    });

    test.each([-16.01, -17, 15.995, 16, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
      '%s is rejected',
      (bias) => {
        maker.refused(() => maker.make(sampler({ mipLODBias: bias })), {
          call,
          argument: `${at}.mipLODBias`,
          message: /must be within \[-16, 15.99\]/,
        });
      },
    );

    test.each([Number.NaN, '0', true])('%j (not a number) is rejected', (bias) => {
      maker.refused(() => maker.make(sampler({ mipLODBias: bias })), {
        call,
        argument: `${at}.mipLODBias`,
        message: /must be a number/,
      });
    });
  });

  describe('maxAnisotropy: 0 to 16 (D3D12_MAX_MAXANISOTROPY)', () => {
    test.each(Array.from({ length: 17 }, (_, i) => i))('%i is accepted', (anisotropy) => {
      expect(maker.make(sampler({ filter: 'ANISOTROPIC', maxAnisotropy: anisotropy })).maxAnisotropy).toBe(anisotropy);
    });

    test.each([
      [17, /at most 16/],
      [64, /at most 16/],
      [-1, /at least 0/],
      [1.5, /integer/],
      ['16', /integer/],
    ] as const)('%s is rejected', (anisotropy, message) => {
      maker.refused(() => maker.make(sampler({ maxAnisotropy: anisotropy })), {
        call,
        argument: `${at}.maxAnisotropy`,
        message,
      });
    });
  });

  describe('comparisonFunc', () => {
    const cases = COMPARISON_FUNCS.flatMap((comparison) =>
      ['MIN_MAG_MIP_LINEAR', 'COMPARISON_MIN_MAG_MIP_LINEAR'].map((filter) => [comparison, filter] as const),
    );
    test.each(cases)('%s with filter %s', (comparison, filter) => {
      const make = () => maker.make(sampler({ filter, comparisonFunc: comparison }));
      if (comparison === 'NONE' && filter.startsWith('COMPARISON_'))
        maker.refused(make, {
          call,
          argument: `${at}.comparisonFunc`,
          message: new RegExp(`${filter} compares: it needs a comparison function other than NONE`),
        });
      else expect(make().comparison).toBe(comparison);
    });

    test.each(FILTERS.filter((filter) => filter.startsWith('COMPARISON_')))(
      '%s with NONE is rejected; left out, NEVER is its comparison',
      (filter) => {
        maker.refused(() => maker.make(sampler({ filter, comparisonFunc: 'NONE' })), {
          argument: `${at}.comparisonFunc`,
          message: /needs a comparison function other than NONE/,
        });
        expect(maker.make(sampler({ filter })).comparison).toBe('NEVER');
      },
    );

    test.each(['LESS_THAN', 'never', 1, false])('%j is rejected', (comparison) => {
      maker.refused(() => maker.make(sampler({ comparisonFunc: comparison })), {
        call,
        argument: `${at}.comparisonFunc`,
        message: /must be one of NONE, NEVER, LESS, EQUAL, LESS_EQUAL, GREATER, NOT_EQUAL, GREATER_EQUAL, ALWAYS/,
      });
    });
  });

  describe('minLOD and maxLOD', () => {
    test.each([
      [0, 0],
      [0, 1],
      [2.5, 2.5],
      [-5, -1],
      [0, FLOAT32_MAX],
      [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY],
    ])('[%s, %s] is accepted', (minLOD, maxLOD) => {
      expect(maker.make(sampler({ minLOD, maxLOD }))).toMatchObject({ minLOD, maxLOD });
    });

    test.each([
      [1, 0],
      [0.5, 0.25],
      [3, -1],
    ])('[%s, %s]: minLOD above maxLOD is rejected', (minLOD, maxLOD) => {
      maker.refused(() => maker.make(sampler({ minLOD, maxLOD })), {
        call,
        argument: `${at}.minLOD`,
        message: new RegExp(`must be at most maxLOD \\(${maxLOD}\\), got ${minLOD}`),
      });
    });

    test('left out, maxLOD is FLOAT32_MAX: any minLOD up to it is accepted', () => {
      expect(maker.make(sampler({ minLOD: 1000 }))).toMatchObject({ minLOD: 1000, maxLOD: FLOAT32_MAX });
    });

    test('left out, minLOD is 0: a negative maxLOD is rejected at minLOD', () => {
      maker.refused(() => maker.make(sampler({ maxLOD: -1 })), {
        argument: `${at}.minLOD`,
        message: /must be at most maxLOD \(-1\), got 0/,
      });
    });

    test.each(['minLOD', 'maxLOD'] as const)('%s NaN or a string is rejected', (name) => {
      for (const value of [Number.NaN, '1', false])
        maker.refused(() => maker.make(sampler({ [name]: value })), {
          call,
          argument: `${at}.${name}`,
          message: /must be a number/,
        });
    });
  });
});

describe('createSampler: borderColor (four numbers)', () => {
  test.each([[[0, 0, 0, 0]], [[1, 0.5, 0.25, 1]], [[-1, 2, 1e9, 0]]])('%j is accepted', (borderColor) => {
    expect(createSampler.make({ filter: 'MIN_MAG_MIP_POINT', addressU: 'BORDER', borderColor }).border).toEqual(
      borderColor,
    );
  });

  test('the plan keeps a copy of the colour', () => {
    const borderColor = [1, 1, 1, 1];
    const plan = createSampler.make({ filter: 'MIN_MAG_MIP_POINT', borderColor });
    borderColor[0] = 0;
    expect(plan.border).toEqual([1, 1, 1, 1]);
  });

  test.each([
    ['three numbers', [0, 0, 0]],
    ['five numbers', [0, 0, 0, 0, 0]],
    ['a NaN', [0, Number.NaN, 0, 1]],
    ['a string', [0, 0, '0', 1]],
    ['a name', 'OPAQUE_WHITE'],
    ['an object', { r: 0, g: 0, b: 0, a: 0 }],
    ['false', false],
  ])('%s is rejected', (_, borderColor) => {
    createSampler.refused(() => createSampler.make({ filter: 'MIN_MAG_MIP_POINT', borderColor }), {
      call: 'createSampler',
      argument: 'desc.borderColor',
      message: /must be 4 numbers \(RGBA\)/,
    });
  });

  test('the border colour is checked before the other fields', () => {
    createSampler.refused(() => createSampler.make({ filter: 'BOGUS', borderColor: [0] }), {
      argument: 'desc.borderColor',
    });
  });
});

describe('static samplers: borderColor (D3D12_STATIC_BORDER_COLOR)', () => {
  const RGBA: Record<string, number[]> = {
    TRANSPARENT_BLACK: [0, 0, 0, 0],
    OPAQUE_BLACK: [0, 0, 0, 1],
    OPAQUE_WHITE: [1, 1, 1, 1],
    OPAQUE_BLACK_UINT: [0, 0, 0, 1],
    OPAQUE_WHITE_UINT: [1, 1, 1, 1],
  };

  test.each(STATIC_BORDER_COLORS)('%s is accepted', (borderColor) => {
    expect(staticSampler.make({ filter: 'MIN_MAG_MIP_POINT', borderColor }).border).toEqual(RGBA[borderColor]);
  });

  test.each([[[0, 0, 0, 0]], ['WHITE'], ['opaque_white'], [0], [false]])('%j is rejected', (borderColor) => {
    staticSampler.refused(() => staticSampler.make({ filter: 'MIN_MAG_MIP_POINT', borderColor }), {
      call: 'createRootSignature',
      argument: 'desc.desc_1_1.staticSamplers[0].borderColor',
      message: /must be one of TRANSPARENT_BLACK, OPAQUE_BLACK, OPAQUE_WHITE, OPAQUE_BLACK_UINT, OPAQUE_WHITE_UINT/,
    });
  });

  test('serializeVersionedRootSignature checks static samplers too, naming its own call', () => {
    expectD3D12Error(
      () =>
        serializeVersionedRootSignature(
          loose({ version: '1_0', desc_1_0: { staticSamplers: [{ filter: 'X', shaderRegister: 0 }] } }),
        ),
      {
        call: 'serializeVersionedRootSignature',
        argument: 'desc.desc_1_0.staticSamplers[0].filter',
        message: /must be one of MIN_MAG_MIP_POINT/,
      },
    );
  });
});
