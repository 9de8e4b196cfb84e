/**
 * clearUnorderedAccessViewUint / Float's argument rules, CTS style: each case changes ONE field of a
 * valid call (the control, which must record), both sides of every boundary are tried, and every
 * failure is checked for its HRESULT, call, argument and rule AND for having changed nothing: the
 * list holds only what it had, still executes, and the resource's bytes are untouched.
 */
import { describe, expect } from 'vitest';
import {
  createDevice,
  type Device,
  type GraphicsCommandList,
  type Rect,
  type Resource,
  type ResourceDesc,
  type UavClearView,
} from '../../../../src/index.js';
import { d3dTest } from '../../../harness/d3d-test.js';
import { flush, readBuffer, runList } from '../../../shared/d3d12-helpers.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';

const test = d3dTest({ localMemoryBytes: 8 << 20, nonLocalMemoryBytes: 8 << 20, tiledResourcesTier: 3 });

type Kind = 'Uint' | 'Float';
const CALL = { Uint: 'clearUnorderedAccessViewUint', Float: 'clearUnorderedAccessViewFloat' } as const;

function uavBuffer(d3d: Device, width = 256, flags: ResourceDesc['flags'] = ['ALLOW_UNORDERED_ACCESS']): Resource {
  return d3d.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width, flags }, 'COMMON');
}

function uavTexture(d3d: Device, desc: Partial<ResourceDesc> = {}): Resource {
  return d3d.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    {
      dimension: 'TEXTURE2D',
      width: 64,
      height: 32,
      depthOrArraySize: 3,
      mipLevels: 4,
      format: 'R8G8B8A8_UNORM',
      flags: ['ALLOW_UNORDERED_ACCESS'],
      ...desc,
    },
    'UNORDERED_ACCESS',
  );
}

interface Call {
  kind: Kind;
  resource: unknown;
  values: unknown;
  rects?: unknown;
  view?: unknown;
}

function clear(list: GraphicsCommandList, c: Call): void {
  const args = [
    c.resource as Resource,
    c.values as [number, number, number, number],
    c.rects as Rect[],
    c.view as UavClearView,
  ] as const;
  if (c.kind === 'Uint') list.clearUnorderedAccessViewUint(...args);
  else list.clearUnorderedAccessViewFloat(...args);
}

/** The commands a list recorded (internal, read for the "nothing changed" check). */
const recorded = (list: GraphicsCommandList): number => (list as unknown as { commands: unknown[] }).commands.length;

/** `bad` must throw naming `argument` and matching `message`, and leave the list as it was; `good` (the control) must record. */
function expectRefused(
  list: GraphicsCommandList,
  good: Call,
  bad: Partial<Call>,
  argument: string,
  message: RegExp,
): void {
  const before = recorded(list);
  const c = { ...good, ...bad };
  expectD3D12Error(() => clear(list, c), { call: CALL[c.kind], argument, message });
  expect(recorded(list), `the refused call recorded nothing (${argument})`).toBe(before);
  clear(list, good);
  expect(recorded(list)).toBe(before + 1);
}

describe('clearUnorderedAccessView*: the list and the resource', () => {
  test('a COPY list, a closed list; a resource of another device, released, not a resource, without ALLOW_UNORDERED_ACCESS', async ({
    d3d,
  }) => {
    const buffer = uavBuffer(d3d);
    for (const kind of ['Uint', 'Float'] as const) {
      const good: Call = { kind, resource: buffer, values: [1, 2, 3, 4], view: { format: 'R32_FLOAT' } };
      const copy = d3d.createCommandList('COPY');
      expectD3D12Error(() => clear(copy, good), {
        call: CALL[kind],
        argument: 'this',
        message: /is a COPY list; UAV clears run on DIRECT and COMPUTE lists/,
      });
      const closed = d3d.createCommandList('COMPUTE');
      closed.close();
      expectD3D12Error(() => clear(closed, good), {
        call: `GraphicsCommandList.${CALL[kind]}`,
        argument: 'this',
        message: /is closed; reset\(\) it before recording/,
      });
      const list = d3d.createCommandList('COMPUTE');
      const other = await createDevice({ gpuDevice: d3d.gpuDevice });
      try {
        expectRefused(
          list,
          good,
          { resource: uavBuffer(other) },
          'resource',
          /must be a resource created by this device/,
        );
      } finally {
        other.destroy();
      }
      const released = uavBuffer(d3d);
      released.release();
      expectRefused(list, good, { resource: released }, 'resource', /was released/);
      for (const notOne of [null, undefined, {}, 5, 'buffer'])
        expectRefused(list, good, { resource: notOne }, 'resource', /must be a resource created by this device/);
      expectRefused(list, good, { resource: uavBuffer(d3d, 256, []) }, 'resource', /without ALLOW_UNORDERED_ACCESS/);
    }
  });
});

describe('clearUnorderedAccessView*: values and rectangles', () => {
  test('values: 4 of them; Uint takes 32-bit integers (both sides of 0 and 2^32), Float any number (NaN and INF are values)', ({
    d3d,
  }) => {
    const list = d3d.createCommandList('DIRECT');
    const buffer = uavBuffer(d3d);
    const uint: Call = { kind: 'Uint', resource: buffer, values: [0, 0, 0, 0] };
    for (const values of ['1234', null, { 0: 1 }, 7])
      expectRefused(list, uint, { values }, 'values', /must be an array of 4 32-bit integers/);
    for (const values of [[1, 2, 3], [1, 2, 3, 4, 5], []])
      expectRefused(list, uint, { values }, 'values', /must hold 4 values/);
    for (const [i, bad] of [
      [0, 2 ** 32],
      [1, -(2 ** 31) - 1],
      [2, 1.5],
      [3, NaN],
      [0, Infinity],
      [1, '1'],
      [2, null],
      [3, 1n],
    ] as const) {
      const values = [0, 0, 0, 0] as unknown[];
      values[i] = bad;
      expectRefused(list, uint, { values }, `values[${i}]`, /must be a 32-bit integer/);
    }
    // The boundaries that are fine.
    for (const values of [[2 ** 32 - 1, -(2 ** 31), -1, 0], Uint32Array.of(1, 2, 3, 4)])
      clear(list, { ...uint, values });
    const float: Call = { kind: 'Float', resource: buffer, values: [0, 0, 0, 0], view: { format: 'R32_FLOAT' } };
    for (const [i, bad] of [
      [0, '1'],
      [1, null],
      [2, undefined],
      [3, 2n],
    ] as const) {
      const values = [0, 0, 0, 0] as unknown[];
      values[i] = bad;
      expectRefused(list, float, { values }, `values[${i}]`, /must be a number/);
    }
    for (const values of [[NaN, Infinity, -Infinity, -0], Float32Array.of(1, 2, 3, 4)])
      clear(list, { ...float, values });
  });

  test('rects: an array of D3D12_RECTs of 32-bit LONGs, or null (both sides of ±2^31); empty and out-of-view rectangles record', ({
    d3d,
  }) => {
    const list = d3d.createCommandList('DIRECT');
    const good: Call = {
      kind: 'Uint',
      resource: uavTexture(d3d),
      values: [1, 2, 3, 4],
      rects: [{ left: 0, top: 0, right: 4, bottom: 4 }],
    };
    for (const rects of [{}, 5, 'all']) expectRefused(list, good, { rects }, 'rects', /must be an array of D3D12_RECT/);
    for (const rect of [5, null, [0, 0, 1, 1]])
      expectRefused(list, good, { rects: [rect] }, 'rects[0]', /must be a D3D12_RECT/);
    for (const side of ['left', 'top', 'right', 'bottom'] as const) {
      for (const bad of [2 ** 31, -(2 ** 31) - 1, 0.5, NaN, '1', undefined]) {
        expectRefused(
          list,
          good,
          {
            rects: [
              { left: 0, top: 0, right: 1, bottom: 1 },
              { left: 0, top: 0, right: 1, bottom: 1, [side]: bad },
            ],
          },
          `rects[1].${side}`,
          /must be a 32-bit integer \(a LONG\)/,
        );
      }
    }
    for (const rects of [
      null,
      undefined,
      [],
      [{ left: -(2 ** 31), top: -(2 ** 31), right: 2 ** 31 - 1, bottom: 2 ** 31 - 1 }],
      [{ left: 9, top: 9, right: 3, bottom: 3 }],
      [{ left: 100, top: 0, right: 200, bottom: 5 }],
    ])
      clear(list, { ...good, rects });
  });
});

describe('clearUnorderedAccessView*: buffer views', () => {
  test('fields, flags, formats, strides and element ranges (both sides of each bound)', ({ d3d }) => {
    const list = d3d.createCommandList('DIRECT');
    const buffer = uavBuffer(d3d, 256);
    const typed: Call = {
      kind: 'Uint',
      resource: buffer,
      values: [1, 2, 3, 4],
      view: { format: 'R32_UINT', firstElement: 0, numElements: 64 },
    };
    const view = (fields: Record<string, unknown>): Partial<Call> => ({
      view: { ...(typed.view as object), ...fields },
    });
    for (const bad of [5, 'R32_UINT', [1]])
      expectRefused(list, typed, { view: bad }, 'view', /must be a D3D12_UNORDERED_ACCESS_VIEW_DESC subset/);
    expectRefused(list, typed, view({ mipslice: 0 }), 'view.mipslice', /is not a field of the view/);
    for (const field of ['mipSlice', 'firstArraySlice', 'arraySize'])
      expectRefused(list, typed, view({ [field]: 0 }), `view.${field}`, /is a field of texture views/);
    expectRefused(list, typed, view({ format: 5 }), 'view.format', /must be a DXGI format name/);
    expectRefused(list, typed, view({ format: 'R32_UNKNOWN' }), 'view.format', /is not a DXGI format/);
    for (const format of [
      'R32_TYPELESS',
      'BC1_UNORM',
      'R8G8B8A8_UNORM_SRGB',
      'D32_FLOAT',
      'R32G32B32_FLOAT',
      'R9G9B9E5_SHAREDEXP',
    ])
      expectRefused(
        list,
        typed,
        view({ format, numElements: 1 }),
        'view.format',
        /is not a format an unordered access view clears/,
      );
    expectRefused(list, typed, view({ format: 'UNKNOWN' }), 'view.format', /a typed buffer view needs a format/);
    expectRefused(list, typed, view({ flags: 'COUNTER' }), 'view.flags', /must be 'NONE' or 'RAW'/);
    expectRefused(list, typed, view({ flags: 'RAW' }), 'view.format', /a RAW view's format must be R32_TYPELESS/);
    expectRefused(
      list,
      typed,
      { view: { format: 'R32_TYPELESS', flags: 'RAW', structureByteStride: 4 } },
      'view.structureByteStride',
      /must be 0 for a RAW view/,
    );
    expectRefused(
      list,
      typed,
      view({ structureByteStride: 8 }),
      'view.format',
      /a structured view's format must be UNKNOWN/,
    );
    for (const stride of [6, 2])
      expectRefused(
        list,
        typed,
        { view: { structureByteStride: stride } },
        'view.structureByteStride',
        /must be a multiple of 4/,
      );
    for (const stride of [2052, -4, 1.5])
      expectRefused(list, typed, { view: { structureByteStride: stride } }, 'view.structureByteStride', /must be/);
    // Elements: firstElement below the element count, numElements at least 1 and within the buffer.
    expectRefused(list, typed, view({ firstElement: 64, numElements: 1 }), 'view.firstElement', /must be at most 63/);
    expectRefused(list, typed, view({ firstElement: 1, numElements: 64 }), 'view.numElements', /must be at most 63/);
    expectRefused(list, typed, view({ numElements: 0 }), 'view.numElements', /must be at least 1/);
    for (const bad of [-1, 1.5, '0'])
      expectRefused(list, typed, view({ firstElement: bad }), 'view.firstElement', /must be/);
    expectRefused(
      list,
      { ...typed, view: { format: 'R32_UINT' } },
      { resource: uavBuffer(d3d, 3) },
      'resource',
      /holds no whole 4-byte element/,
    );
    // Float clears convert to FLOAT, UNORM and SNORM typed views only.
    for (const [fields, argument] of [
      [{ format: 'R32_UINT' }, 'view.format'],
      [{ format: 'R8G8B8A8_SINT' }, 'view.format'],
      [{ format: 'R32_TYPELESS', flags: 'RAW' }, 'view.flags'],
      [{ structureByteStride: 16 }, 'view.structureByteStride'],
    ] as const) {
      expectRefused(
        list,
        { ...typed, kind: 'Float', view: { format: 'R16G16_UNORM' } },
        { view: fields },
        argument,
        /a Float clear converts to/,
      );
    }
    // The controls: every view kind at its bounds.
    for (const ok of [
      null,
      undefined,
      {},
      { flags: 'RAW' },
      { format: 'R32_TYPELESS', flags: 'RAW', firstElement: 63, numElements: 1 },
      { structureByteStride: 128, firstElement: 1 },
      { format: 'R8_UINT', firstElement: 255 },
      { format: 'R32G32B32A32_UINT', numElements: 16 },
    ]) {
      clear(list, { ...typed, view: ok });
    }
    clear(list, { ...typed, resource: uavBuffer(d3d, 4096), view: { structureByteStride: 2048, firstElement: 1 } });
  });
});

describe('clearUnorderedAccessView*: texture views', () => {
  test('fields, formats (family, TYPELESS resources), mips and slices (both sides of each bound)', ({ d3d }) => {
    const list = d3d.createCommandList('DIRECT');
    const texture = uavTexture(d3d);
    const good: Call = {
      kind: 'Float',
      resource: texture,
      values: [0, 0.5, 1, 1],
      view: { mipSlice: 3, firstArraySlice: 1, arraySize: 2 },
    };
    const view = (fields: Record<string, unknown>): Partial<Call> => ({
      view: { ...(good.view as object), ...fields },
    });
    for (const field of ['firstElement', 'numElements', 'structureByteStride', 'flags'])
      expectRefused(
        list,
        good,
        view({ [field]: field === 'flags' ? 'NONE' : 1 }),
        `view.${field}`,
        /is a field of buffer views/,
      );
    expectRefused(list, good, view({ mipSlice: 4 }), 'view.mipSlice', /must be at most 3/);
    expectRefused(list, good, view({ firstArraySlice: 3, arraySize: 1 }), 'view.firstArraySlice', /must be at most 2/);
    expectRefused(list, good, view({ arraySize: 3 }), 'view.arraySize', /must be at most 2/);
    expectRefused(list, good, view({ arraySize: 0 }), 'view.arraySize', /must be at least 1/);
    expectRefused(
      list,
      good,
      view({ format: 'R32_FLOAT' }),
      'view.format',
      /not of the family of the resource's format R8G8B8A8_UNORM/,
    );
    expectRefused(
      list,
      good,
      view({ format: 'R8G8B8A8_TYPELESS' }),
      'view.format',
      /is not a format an unordered access view clears/,
    );
    expectRefused(
      list,
      good,
      view({ format: 'R8G8B8A8_UINT' }),
      'view.format',
      /a Float clear converts to FLOAT, UNORM and SNORM formats only/,
    );
    const typeless = uavTexture(d3d, { format: 'R8G8B8A8_TYPELESS' });
    expectRefused(
      list,
      { ...good, resource: typeless, view: { format: 'R8G8B8A8_SNORM' } },
      { view: {} },
      'view.format',
      /a view of a TYPELESS resource names its format/,
    );
    const srgb = uavTexture(d3d, { format: 'R8G8B8A8_UNORM_SRGB' });
    expectRefused(
      list,
      { ...good, resource: srgb, view: { format: 'R8G8B8A8_UNORM' } },
      { view: {} },
      'view.format',
      /R8G8B8A8_UNORM_SRGB is not a format an unordered access view clears/,
    );
    // The controls: the defaults, the last mip and slice, another format of the family (Uint).
    for (const ok of [null, {}, { mipSlice: 3, firstArraySlice: 2 }, { firstArraySlice: 0, arraySize: 3 }])
      clear(list, { ...good, view: ok });
    clear(list, { kind: 'Uint', resource: texture, values: [1, 2, 3, 4], view: { format: 'R8G8B8A8_UINT' } });
    const oneD = d3d.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      {
        dimension: 'TEXTURE1D',
        width: 100,
        depthOrArraySize: 2,
        format: 'R16_FLOAT',
        flags: ['ALLOW_UNORDERED_ACCESS'],
      },
      'UNORDERED_ACCESS',
    );
    clear(list, {
      kind: 'Float',
      resource: oneD,
      values: [1, 0, 0, 0],
      rects: [{ left: 3, top: 0, right: 50, bottom: 9 }],
      view: { firstArraySlice: 1 },
    });
  });
});

describe('clearUnorderedAccessView*: Texture3D views (D3D12_TEX3D_UAV)', () => {
  test("mipSlice, firstWSlice and wSize (-1: every depth slice from firstWSlice on) within the mip's depth; array fields on 3D views and W fields on 2D views are refused", ({
    d3d,
  }) => {
    const list = d3d.createCommandList('DIRECT');
    // 32×16×8, 3 mips: depths 8, 4, 2.
    const volume = uavTexture(d3d, {
      dimension: 'TEXTURE3D',
      width: 32,
      height: 16,
      depthOrArraySize: 8,
      mipLevels: 3,
    });
    const good: Call = {
      kind: 'Uint',
      resource: volume,
      values: [1, 2, 3, 4],
      view: { mipSlice: 1, firstWSlice: 1, wSize: 3 },
    };
    const view = (fields: Record<string, unknown>): Partial<Call> => ({
      view: { ...(good.view as object), ...fields },
    });
    expectRefused(list, good, view({ mipSlice: 3 }), 'view.mipSlice', /must be at most 2/);
    expectRefused(list, good, view({ firstWSlice: 4, wSize: 1 }), 'view.firstWSlice', /must be at most 3, got 4/);
    expectRefused(list, good, view({ wSize: 4 }), 'view.wSize', /must be at most 3, got 4/);
    expectRefused(list, good, view({ wSize: 0 }), 'view.wSize', /must be at least 1, got 0/);
    for (const bad of [-2, 1.5, '1', NaN, 2 ** 32])
      expectRefused(list, good, view({ wSize: bad }), 'view.wSize', /must be/);
    for (const bad of [-1, 0.5, '0'])
      expectRefused(list, good, view({ firstWSlice: bad }), 'view.firstWSlice', /must be/);
    for (const field of ['firstArraySlice', 'arraySize'])
      expectRefused(
        list,
        good,
        view({ [field]: 0 }),
        `view.${field}`,
        /is a field of 1D and 2D texture views; .* is a TEXTURE3D, whose view \(D3D12_TEX3D_UAV\) takes firstWSlice and wSize/,
      );
    for (const field of ['firstElement', 'numElements'])
      expectRefused(list, good, view({ [field]: 1 }), `view.${field}`, /is a field of buffer views/);
    expectRefused(
      list,
      good,
      view({ format: 'R32_UINT' }),
      'view.format',
      /not of the family of the resource's format R8G8B8A8_UNORM/,
    );
    // The controls: the defaults (mip 0, every depth slice), wSize -1 as JS writes it and as the UINT, the last depth slice of the last mip.
    for (const ok of [
      null,
      {},
      { wSize: -1 },
      { mipSlice: 1, firstWSlice: 3, wSize: 0xffffffff },
      { mipSlice: 2, firstWSlice: 1, wSize: 1 },
      { firstWSlice: 7 },
      { format: 'R8G8B8A8_UINT', mipSlice: 0, firstWSlice: 0, wSize: 8 },
    ]) {
      clear(list, { ...good, view: ok });
    }
    const flat: Call = { kind: 'Uint', resource: uavTexture(d3d), values: [1, 2, 3, 4], view: { mipSlice: 0 } };
    for (const field of ['firstWSlice', 'wSize'])
      expectRefused(
        list,
        flat,
        { view: { mipSlice: 0, [field]: 0 } },
        `view.${field}`,
        /is a field of Texture3D views \(D3D12_TEX3D_UAV\); .* is a TEXTURE2D, whose view takes firstArraySlice and arraySize/,
      );
  });
});

describe('clearUnorderedAccessView*: states, and a refused call changes no memory', () => {
  test('textures must be in UNORDERED_ACCESS (no promotion from COMMON); buffers are promoted; a list that knows the state refuses at once', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const common = d3d.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'TEXTURE2D', width: 16, height: 16, format: 'R32_FLOAT', flags: ['ALLOW_UNORDERED_ACCESS'] },
      'COMMON',
    );
    const list = d3d.createCommandList('DIRECT');
    list.clearUnorderedAccessViewFloat(common, [1, 0, 0, 0]);
    list.close();
    expectD3D12Error(() => queue.executeCommandLists([list]), {
      call: 'executeCommandLists',
      argument: 'commandLists[0]',
      message: /subresource 0 is in COMMON/,
    });
    const known = d3d.createCommandList('DIRECT');
    known.resourceBarrier([
      { type: 'TRANSITION', transition: { resource: common, stateBefore: 'COMMON', stateAfter: 'COPY_DEST' } },
    ]);
    expectD3D12Error(() => known.clearUnorderedAccessViewFloat(common, [1, 0, 0, 0]), {
      call: 'clearUnorderedAccessViewFloat',
      argument: 'resource',
      message: /COPY_DEST/,
    });
    expect(recorded(known)).toBe(1);
    // A buffer in COMMON is promoted to UNORDERED_ACCESS; refused calls around it wrote nothing.
    const buffer = uavBuffer(d3d, 64);
    await runList(d3d, queue, (l) => {
      l.clearUnorderedAccessViewUint(buffer, [7, 0, 0, 0]);
      expect(() => l.clearUnorderedAccessViewUint(buffer, [8, 0, 0, 0], null, { format: 'BC1_UNORM' })).toThrow();
      expect(() =>
        l.clearUnorderedAccessViewUint(buffer, [9, 0, 0, 0], [{ left: 0.5, top: 0, right: 1, bottom: 1 }]),
      ).toThrow();
    });
    await flush(d3d, queue);
    expect(new Uint32Array((await readBuffer(d3d, queue, buffer, 0, 64)).buffer)).toEqual(new Uint32Array(16).fill(7));
  });
});
