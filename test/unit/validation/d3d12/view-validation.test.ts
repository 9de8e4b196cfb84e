/**
 * The calls that write one view descriptor, and descriptor copies: createShaderResourceView and
 * createUnorderedAccessView (D3D12_SHADER_RESOURCE_VIEW_DESC / D3D12_UNORDERED_ACCESS_VIEW_DESC:
 * src/validation/views.ts), createConstantBufferView (the same file), createRenderTargetView and
 * createDepthStencilView (src/emulator/descriptor-views.ts), copyDescriptors and
 * copyDescriptorsSimple (src/emulator/descriptor-heaps.ts). CTS style: one invalid field at a time
 * next to a valid control; tables over every enum value and both sides of every boundary; every
 * refused call leaves the destination heap's descriptors (words and records) as they were.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import {
  createDevice,
  DEFAULT_SHADER_4_COMPONENT_MAPPING,
  FORMAT_NAMES,
  SwapChain,
  VIEW_FORMAT_NAMES,
  VIRTUAL_ADDRESS_BITS,
  type CpuDescriptorHandle,
  type DescriptorHeap,
  type DescriptorHeapType,
  type Device,
  type Resource,
  type ResourceDesc,
} from '../../../../src/index.js';
import type { DescriptorRecord } from '../../../../src/d3d12/descriptor-heap.js';
import { expectD3D12Error, type ExpectedD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { field } from '../../../shared/fuzz/snapshot.js';

const loose = (value: unknown): never => value as never;

let device: Device;
let other: Device;
/** The CBV_SRV_UAV heap views are written to (not shader-visible), and one of each other type. */
let heap: DescriptorHeap;
let visible: DescriptorHeap;
let samplerHeap: DescriptorHeap;
let rtvHeap: DescriptorHeap;
let dsvHeap: DescriptorHeap;

/** A 1024-byte buffer with ALLOW_UNORDERED_ACCESS, and one without. */
let buffer: Resource;
let plainBuffer: Resource;
/** 64×64, 3 mips, 4 slices, R8G8B8A8_TYPELESS, ALLOW_UNORDERED_ACCESS. */
let texture: Resource;
/** 32×32, 2 mips, 3 slices, R8G8B8A8_UNORM, ALLOW_UNORDERED_ACCESS. */
let unorm: Resource;
/** 16×16 D32_FLOAT with ALLOW_DEPTH_STENCIL: readable, and one with DENY_SHADER_RESOURCE. */
let depth: Resource;
let deniedDepth: Resource;
/** 16×16 R32_TYPELESS with ALLOW_DEPTH_STENCIL. */
let depthTypeless: Resource;
let texture3d: Resource;
let texture1d: Resource;
let bc1: Resource;
let released: Resource;
let foreign: Resource;

const committed = (on: Device, desc: ResourceDesc, state: 'COMMON' | 'DEPTH_WRITE' = 'COMMON'): Resource =>
  on.createCommittedResource({ type: 'DEFAULT' }, [], desc, state);

beforeAll(async () => {
  device = await createDevice({ gpuDevice: null });
  other = await createDevice({ gpuDevice: null });
  heap = device.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 16 });
  visible = device.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 16, flags: ['SHADER_VISIBLE'] });
  samplerHeap = device.createDescriptorHeap({ type: 'SAMPLER', numDescriptors: 4 });
  rtvHeap = device.createDescriptorHeap({ type: 'RTV', numDescriptors: 4 });
  dsvHeap = device.createDescriptorHeap({ type: 'DSV', numDescriptors: 4 });
  buffer = committed(device, { dimension: 'BUFFER', width: 1024, flags: ['ALLOW_UNORDERED_ACCESS'] });
  plainBuffer = committed(device, { dimension: 'BUFFER', width: 1024 });
  const tex2d = { dimension: 'TEXTURE2D' as const, flags: ['ALLOW_UNORDERED_ACCESS' as const] };
  texture = committed(device, {
    ...tex2d,
    width: 64,
    height: 64,
    depthOrArraySize: 4,
    mipLevels: 3,
    format: 'R8G8B8A8_TYPELESS',
  });
  unorm = committed(device, {
    ...tex2d,
    width: 32,
    height: 32,
    depthOrArraySize: 3,
    mipLevels: 2,
    format: 'R8G8B8A8_UNORM',
  });
  const depthDesc = { dimension: 'TEXTURE2D', width: 16, height: 16, format: 'D32_FLOAT' } as const;
  depth = committed(device, { ...depthDesc, flags: ['ALLOW_DEPTH_STENCIL'] }, 'DEPTH_WRITE');
  deniedDepth = committed(
    device,
    { ...depthDesc, flags: ['ALLOW_DEPTH_STENCIL', 'DENY_SHADER_RESOURCE'] },
    'DEPTH_WRITE',
  );
  depthTypeless = committed(
    device,
    { ...depthDesc, format: 'R32_TYPELESS', flags: ['ALLOW_DEPTH_STENCIL'] },
    'DEPTH_WRITE',
  );
  texture3d = committed(device, {
    flags: ['ALLOW_UNORDERED_ACCESS'],
    dimension: 'TEXTURE3D',
    width: 16,
    height: 16,
    depthOrArraySize: 4,
    format: 'R8G8B8A8_UNORM',
  });
  texture1d = committed(device, {
    dimension: 'TEXTURE1D',
    width: 16,
    format: 'R8G8B8A8_UNORM',
    flags: ['ALLOW_UNORDERED_ACCESS'],
  });
  bc1 = committed(device, { dimension: 'TEXTURE2D', width: 16, height: 16, format: 'BC1_UNORM' });
  released = committed(device, { dimension: 'BUFFER', width: 1024, flags: ['ALLOW_UNORDERED_ACCESS'] });
  released.release();
  foreign = committed(other, { dimension: 'BUFFER', width: 1024, flags: ['ALLOW_UNORDERED_ACCESS'] });
});

const handle = (of: DescriptorHeap, index = 0): CpuDescriptorHandle => {
  const type = of.getDesc().type;
  return { ptr: of.getCPUDescriptorHandleForHeapStart().ptr + index * device.getDescriptorHandleIncrementSize(type) };
};
const records = (of: DescriptorHeap): (DescriptorRecord | undefined)[] => field(of, 'records');
const record = (index = 0, of: DescriptorHeap = heap): DescriptorRecord | undefined => records(of)[index];

/** Runs a call that must be refused with `expected`, and checks it changed no descriptor of `heaps`. */
function refused(fn: () => unknown, expected: ExpectedD3D12Error, heaps: DescriptorHeap[] = [heap]): void {
  // Descriptors are replaced, never changed in place: the words as text and the records by identity.
  const before = heaps.map((h) => ({ words: field<Uint32Array>(h, 'words').join(), records: [...records(h)] }));
  expectD3D12Error(fn, expected);
  heaps.forEach((h, i) => {
    expect(field<Uint32Array>(h, 'words').join() === before[i]?.words, `${h.label}: words unchanged`).toBe(true);
    const changed = records(h).findIndex((record, j) => record !== before[i]?.records[j]);
    expect(changed, `${h.label}: the first record changed`).toBe(-1);
  });
}

type View = 'SRV' | 'UAV';
const CALL: Record<View, string> = { SRV: 'createShaderResourceView', UAV: 'createUnorderedAccessView' };
const DESC_NAME: Record<View, string> = { SRV: 'SHADER_RESOURCE', UAV: 'UNORDERED_ACCESS' };

/** Writes view `view` of `resource` to descriptor `index` of `dest`. */
function write(view: View, resource: unknown, desc: unknown, index = 0, dest: DescriptorHeap = heap): void {
  if (view === 'SRV') device.createShaderResourceView(loose(resource), loose(desc), handle(dest, index));
  else device.createUnorderedAccessView(loose(resource), null, loose(desc), handle(dest, index));
}

const bufferDesc = (buffer: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  format: 'R32_UINT',
  viewDimension: 'BUFFER',
  buffer: { firstElement: 0, numElements: 4, ...buffer },
  ...extra,
});
const texture2D = (fields: Record<string, unknown> = {}, format: unknown = 'R8G8B8A8_UNORM') => ({
  format,
  viewDimension: 'TEXTURE2D',
  texture2D: fields,
});
const texture2DArray = (fields: Record<string, unknown> = {}, format: unknown = 'R8G8B8A8_UNORM') => ({
  format,
  viewDimension: 'TEXTURE2DARRAY',
  texture2DArray: fields,
});

describe.each(['SRV', 'UAV'] as const)('%s: the resource', (view) => {
  const call = CALL[view];

  test('control: a buffer with a description', () => {
    write(view, buffer, bufferDesc(), 1);
    expect(record(1)).toMatchObject({ kind: view, resource: buffer, plan: { shape: 'buffer', isNull: false } });
  });

  test.each([
    ['undefined', () => undefined],
    ['a plain object', () => ({ label: 'resource' })],
    ['a descriptor heap', () => heap],
    ["another device's resource", () => foreign],
  ])('%s is rejected', (_, resource) => {
    refused(() => write(view, resource(), bufferDesc()), {
      call,
      argument: 'resource',
      message: /must be a resource created by this device, or null/,
    });
  });

  test('a released resource is rejected', () => {
    refused(() => write(view, released, bufferDesc()), { call, argument: 'resource', message: /was released/ });
  });

  test('null with a description is a NULL view', () => {
    write(view, null, bufferDesc({ numElements: 1_000_000 }), 2);
    expect(record(2)).toMatchObject({ kind: view, resource: null, plan: { isNull: true, numElements: 1_000_000 } });
  });
});

describe('SRV: DENY_SHADER_RESOURCE', () => {
  test('a resource created with DENY_SHADER_RESOURCE is rejected', () => {
    refused(() => write('SRV', deniedDepth, texture2D({}, 'R32_FLOAT')), {
      call: 'createShaderResourceView',
      argument: 'resource',
      message: /was created with DENY_SHADER_RESOURCE/,
    });
  });

  test('control: the same texture without it', () => {
    write('SRV', depth, texture2D({}, 'R32_FLOAT'));
    expect(record()).toMatchObject({ kind: 'SRV', resource: depth, plan: { format: 'R32_FLOAT' } });
  });
});

describe('UAV: ALLOW_UNORDERED_ACCESS and counters', () => {
  test('a resource without ALLOW_UNORDERED_ACCESS is rejected', () => {
    refused(() => write('UAV', plainBuffer, bufferDesc()), {
      call: 'createUnorderedAccessView',
      argument: 'resource',
      message: /was not created with ALLOW_UNORDERED_ACCESS/,
    });
  });

  test('control: an SRV of that buffer', () => {
    write('SRV', plainBuffer, bufferDesc());
    expect(record()).toMatchObject({ kind: 'SRV', resource: plainBuffer });
  });

  test.each([null, undefined])('counterResource %s is accepted', (counter) => {
    device.createUnorderedAccessView(buffer, loose(counter), loose(bufferDesc()), handle(heap, 3));
    expect(record(3)).toMatchObject({ kind: 'UAV', resource: buffer });
  });

  test.each([
    ['a buffer', () => buffer],
    ['a plain object', () => ({})],
    ['0', () => 0],
  ])('counterResource %s: UAV counters are not emulated', (_, counter) => {
    refused(() => device.createUnorderedAccessView(buffer, loose(counter()), loose(bufferDesc()), handle(heap)), {
      hresult: 'DXGI_ERROR_UNSUPPORTED',
      call: 'createUnorderedAccessView',
      argument: 'counterResource',
      message: /UAV counters are not emulated: pass null/,
    });
  });
});

describe.each(['SRV', 'UAV'] as const)('%s: no description (the whole resource in its own format)', (view) => {
  const call = CALL[view];

  test('control: a 2D array texture gives a TEXTURE2DARRAY view of every slice', () => {
    write(view, unorm, null, 4);
    expect(record(4)?.kind).toBe(view);
    expect((record(4) as { plan: unknown }).plan).toMatchObject({
      shape: 'texture2darray',
      format: 'R8G8B8A8_UNORM',
      firstMip: 0,
      // An SRV sees every mip; a UAV one mip.
      mipCount: view === 'SRV' ? 2 : 1,
      firstSlice: 0,
      sliceCount: 3,
      mapping: DEFAULT_SHADER_4_COMPONENT_MAPPING & 0xfff,
    });
  });

  test('control: a single-slice texture gives a TEXTURE2D view', () => {
    write('SRV', depth, texture2D({}, 'R32_FLOAT'));
    const single = committed(device, {
      dimension: 'TEXTURE2D',
      width: 8,
      height: 8,
      format: 'R32_FLOAT',
      flags: ['ALLOW_UNORDERED_ACCESS'],
    });
    write(view, single, undefined, 5);
    expect((record(5) as { plan: unknown }).plan).toMatchObject({ shape: 'texture2d', sliceCount: 1 });
  });

  test('a NULL view needs a description', () => {
    refused(() => write(view, null, null), {
      call,
      argument: 'desc',
      message: /must be given for a NULL view \(no resource\)/,
    });
  });

  test('a buffer needs a description (its format is UNKNOWN)', () => {
    refused(() => write(view, buffer, null), { call, argument: 'desc', message: /must be given for a buffer/ });
  });

  test.each([
    ['TEXTURE3D', () => texture3d],
    ['TEXTURE1D', () => texture1d],
  ])('a %s resource: views of it are not emulated', (dimension, resource) => {
    refused(() => write(view, resource(), null), {
      hresult: 'DXGI_ERROR_UNSUPPORTED',
      call,
      argument: 'resource',
      message: new RegExp(`views of ${dimension} resources are not emulated`),
    });
  });

  test('a TYPELESS texture has no format of its own to view', () => {
    refused(() => write(view, texture, null), {
      call,
      argument: 'desc',
      message: /null takes committed resource #\d+'s own format, R8G8B8A8_TYPELESS: R8G8B8A8_TYPELESS has no type/,
    });
  });

  test('a texture whose format shaders do not read: DXGI_ERROR_UNSUPPORTED, as with a description', () => {
    if (view === 'UAV') return; // BC1 textures cannot have ALLOW_UNORDERED_ACCESS (resource creation refuses it).
    refused(() => write(view, bc1, null), {
      hresult: 'DXGI_ERROR_UNSUPPORTED',
      call,
      argument: 'desc',
      message: /null takes .*BC1_UNORM: shaders read BC1_UNORM through no prelude function/,
    });
    refused(() => write(view, bc1, texture2D({}, 'BC1_UNORM')), {
      hresult: 'DXGI_ERROR_UNSUPPORTED',
      call,
      argument: 'desc.format',
    });
  });
});

describe.each(['SRV', 'UAV'] as const)('%s: the description', (view) => {
  const call = CALL[view];

  test.each([5, 'desc', [], true])('%j (not an object) is rejected', (desc) => {
    refused(() => write(view, buffer, desc), {
      call,
      argument: 'desc',
      message: new RegExp(`must be a D3D12_${DESC_NAME[view]}_VIEW_DESC object or null`),
    });
  });

  test.each(['TEXTURE3D', 'TEXTURE1D', 'TEXTURECUBE', 'UNKNOWN', 'buffer', '', undefined, 1])(
    'viewDimension %j is rejected',
    (viewDimension) => {
      refused(() => write(view, buffer, bufferDesc({}, { viewDimension })), {
        call,
        argument: 'desc.viewDimension',
        message: /must be one of BUFFER, TEXTURE2D, TEXTURE2DARRAY/,
      });
    },
  );

  test.each([
    ['BUFFER', () => buffer, bufferDesc()],
    ['TEXTURE2D', () => unorm, texture2D()],
    ['TEXTURE2DARRAY', () => unorm, texture2DArray()],
  ] as const)('control: viewDimension %s', (_, resource, desc) => {
    write(view, resource(), desc, 6);
    expect(record(6)?.kind).toBe(view);
  });

  test.each([
    ['BUFFER of a texture', () => unorm, bufferDesc(), /BUFFER views a buffer; .* is a TEXTURE2D/],
    ['TEXTURE2D of a buffer', () => buffer, texture2D(), /TEXTURE2D views a 2D texture; .* is a BUFFER/],
    [
      'TEXTURE2DARRAY of a 3D texture',
      () => texture3d,
      texture2DArray(),
      /TEXTURE2DARRAY views a 2D texture; .* is a TEXTURE3D/,
    ],
    ['TEXTURE2D of a 1D texture', () => texture1d, texture2D(), /TEXTURE2D views a 2D texture; .* is a TEXTURE1D/],
  ] as const)("a %s: the dimension must be the resource's", (_, resource, desc, message) => {
    refused(() => write(view, resource(), desc), { call, argument: 'desc.viewDimension', message });
  });
});

describe('SRV: shader4ComponentMapping', () => {
  /** D3D12_ENCODE_SHADER_4_COMPONENT_MAPPING. */
  const encode = (a: number, b: number, c: number, d: number): number => a | (b << 3) | (c << 6) | (d << 9) | 0x1000;
  const srv = (mapping: unknown) => write('SRV', buffer, bufferDesc({}, { shader4ComponentMapping: mapping }), 7);
  const call = 'createShaderResourceView';
  const argument = 'desc.shader4ComponentMapping';

  test.each([
    ['D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING', DEFAULT_SHADER_4_COMPONENT_MAPPING],
    ['every component from red', encode(0, 0, 0, 0)],
    ['constants 0 and 1', encode(4, 5, 4, 5)],
    ['reversed', encode(3, 2, 1, 0)],
  ])('control: %s', (_, mapping) => {
    srv(mapping);
    expect((record(7) as { plan: { mapping: number } }).plan.mapping).toBe(mapping & 0xfff);
  });

  test('left out: the default mapping', () => {
    write('SRV', buffer, bufferDesc(), 7);
    expect((record(7) as { plan: { mapping: number } }).plan.mapping).toBe(DEFAULT_SHADER_4_COMPONENT_MAPPING & 0xfff);
  });

  const cases = [0, 1, 2, 3].flatMap((component) => [0, 1, 2, 3, 4, 5, 6, 7].map((source) => [component, source]));
  test.each(cases)('component %i from source %i', (component, source) => {
    const fields = [0, 1, 2, 3];
    fields[component] = source;
    const mapping = encode(fields[0] ?? 0, fields[1] ?? 0, fields[2] ?? 0, fields[3] ?? 0);
    if (source <= 5) {
      srv(mapping);
      expect((record(7) as { plan: { mapping: number } }).plan.mapping).toBe(mapping & 0xfff);
    } else {
      refused(() => srv(mapping), {
        call,
        argument,
        message: new RegExp(
          `component ${component} maps from ${source}; each takes 0-3 \\(a component\\), 4 \\(0\\) or 5 \\(1\\)`,
        ),
      });
    }
  });

  test.each([0x688, 0, 0x0fff])('0x%s without the always-set bit 0x1000 is rejected', (mapping) => {
    refused(() => srv(mapping), { call, argument, message: /bit 0x1000 set/ });
  });

  test.each([
    [0x2000, /at most 8191/],
    [0xffffffff, /at most 8191/],
    [-1, /at least 0/],
    [0x1688 + 0.5, /integer/],
    ['0x1688', /integer/],
    [null, /integer/],
  ] as const)('%s is rejected', (mapping, message) => {
    refused(() => srv(mapping), { call, argument, message });
  });

  test('a UAV description has no mapping: the field is not read', () => {
    write('UAV', buffer, bufferDesc({}, { shader4ComponentMapping: 7 }), 7);
    expect(record(7)?.kind).toBe('UAV');
  });
});

describe.each(['SRV', 'UAV'] as const)('%s: BUFFER views', (view) => {
  const call = CALL[view];
  const plan = (index: number) => (record(index) as { plan: Record<string, unknown> }).plan;

  test.each([undefined, null, 5, 'buffer', []])('desc.buffer %j (not an object) is rejected', (member) => {
    refused(() => write(view, buffer, { format: 'R32_UINT', viewDimension: 'BUFFER', buffer: member }), {
      call,
      argument: 'desc.buffer',
      message: new RegExp(`must be an object \\(D3D12_BUFFER_${view}\\)`),
    });
  });

  describe('typed views', () => {
    const formats = VIEW_FORMAT_NAMES.filter((format) => view === 'SRV' || !format.endsWith('_SRGB'));
    test.each(formats)('%s is accepted', (format) => {
      write(view, buffer, bufferDesc({ numElements: 1 }, { format }), 8);
      expect(plan(8)).toMatchObject({ kind: 'typed', format });
    });

    test.each([
      ['undefined', undefined, 'E_INVALIDARG', /must be a DXGI format name/],
      ['a number', 28, 'E_INVALIDARG', /must be a DXGI format name/],
      ['an unknown name', 'R32_UIN', 'E_INVALIDARG', /'R32_UIN' is not a DXGI format a view can have/],
      ['UNKNOWN without a stride', 'UNKNOWN', 'E_INVALIDARG', /'UNKNOWN' is not a DXGI format a view can have/],
      ['R32_TYPELESS without RAW', 'R32_TYPELESS', 'E_INVALIDARG', /R32_TYPELESS has no type/],
      ['a TYPELESS format', 'R8G8B8A8_TYPELESS', 'E_INVALIDARG', /has no type/],
      ['a format shaders do not read', 'R16_UINT', 'DXGI_ERROR_UNSUPPORTED', /R16_UINT through no prelude function/],
      ['a depth format', 'D32_FLOAT', 'DXGI_ERROR_UNSUPPORTED', /through no prelude function/],
    ] as const)('%s is rejected', (_, format, hresult, message) => {
      refused(() => write(view, buffer, bufferDesc({}, { format })), {
        hresult,
        call,
        argument: 'desc.format',
        message,
      });
    });

    test.each(VIEW_FORMAT_NAMES.filter((format) => format.endsWith('_SRGB')))('sRGB %s', (format) => {
      if (view === 'SRV') {
        write(view, buffer, bufferDesc({}, { format }), 8);
        expect(plan(8)).toMatchObject({ format });
      } else
        refused(() => write(view, buffer, bufferDesc({}, { format })), {
          call,
          argument: 'desc.format',
          message: new RegExp(`${format} is not a UAV format \\(sRGB formats are not, in D3D12\\)`),
        });
    });
  });

  describe('raw views (flags RAW, R32_TYPELESS)', () => {
    const raw = (fields: Record<string, unknown> = {}, format: unknown = 'R32_TYPELESS') =>
      bufferDesc({ flags: 'RAW', ...fields }, { format });

    test('control: 4-byte elements', () => {
      write(view, buffer, raw({ firstElement: 2, numElements: 254 }), 8);
      expect(plan(8)).toMatchObject({ kind: 'raw', elementBytes: 4, firstElement: 2, numElements: 254 });
    });

    test.each(['R32_UINT', 'UNKNOWN', 'R8G8B8A8_TYPELESS', null])('format %j is rejected', (format) => {
      refused(() => write(view, buffer, raw({}, format)), {
        call,
        argument: 'desc.format',
        message: /a RAW view's format is R32_TYPELESS/,
      });
    });

    test.each([4, 16])('a stride (%i) is rejected', (stride) => {
      refused(() => write(view, buffer, raw({ structureByteStride: stride })), {
        call,
        argument: 'desc.buffer.structureByteStride',
        message: new RegExp(`a RAW view has no stride, got ${stride}`),
      });
    });
  });

  describe('structured views (format UNKNOWN, a stride)', () => {
    const structured = (stride: unknown, fields: Record<string, unknown> = {}, format = 'UNKNOWN') =>
      bufferDesc({ structureByteStride: stride, ...fields }, { format });

    test.each([4, 8, 12, 16, 2044, 2048])('stride %i is accepted', (stride) => {
      // A NULL view: no buffer to hold the element (1024-byte buffers hold none of the largest).
      write(view, null, structured(stride, { numElements: 3 }), 8);
      expect(plan(8)).toMatchObject({ kind: 'structured', elementBytes: stride, isNull: true });
      if (stride > 1024) return;
      write(view, buffer, structured(stride, { numElements: Math.floor(1024 / stride) }), 8);
      expect(plan(8)).toMatchObject({ kind: 'structured', elementBytes: stride, isNull: false });
    });

    test.each([1, 2, 6, 10, 2046])('stride %i (not a multiple of 4) is rejected', (stride) => {
      refused(() => write(view, buffer, structured(stride, { numElements: 1 })), {
        call,
        argument: 'desc.buffer.structureByteStride',
        message: /must be a multiple of 4/,
      });
    });

    test.each([
      [2052, /at most 2048/],
      [4096, /at most 2048/],
      [-4, /at least 0/],
      [4.5, /integer/],
      ['16', /integer/],
    ] as const)('stride %s is rejected', (stride, message) => {
      refused(() => write(view, buffer, structured(stride)), {
        call,
        argument: 'desc.buffer.structureByteStride',
        message,
      });
    });

    test.each(['R32_UINT', 'R32_TYPELESS'])('format %s with a stride is rejected', (format) => {
      refused(() => write(view, buffer, structured(16, {}, format)), {
        call,
        argument: 'desc.format',
        message: /a structured view's format is UNKNOWN/,
      });
    });
  });

  test.each(['raw', 'NONE ', 1, ['RAW'], false])('flags %j are rejected', (flags) => {
    refused(() => write(view, buffer, bufferDesc({ flags })), {
      call,
      argument: 'desc.buffer.flags',
      message: /must be one of NONE, RAW/,
    });
  });

  test('flags NONE is a typed view', () => {
    write(view, buffer, bufferDesc({ flags: 'NONE' }), 8);
    expect(plan(8)).toMatchObject({ kind: 'typed' });
  });

  test.each([
    ['firstElement', -1, /at least 0/],
    ['firstElement', 1.5, /integer/],
    ['firstElement', undefined, /integer/],
    ['numElements', 0, /at least 1/],
    ['numElements', -4, /at least 1/],
    ['numElements', undefined, /integer/],
    ['numElements', '4', /integer/],
  ] as const)('%s %s is rejected', (name, value, message) => {
    refused(() => write(view, buffer, bufferDesc({ [name]: value })), {
      call,
      argument: `desc.buffer.${name}`,
      message,
    });
  });

  describe('every element inside the buffer (1024 bytes)', () => {
    const layouts = [
      ['typed R32_UINT', bufferDesc({}, { format: 'R32_UINT' }), 4],
      ['typed R32G32B32A32_FLOAT', bufferDesc({}, { format: 'R32G32B32A32_FLOAT' }), 16],
      ['raw', bufferDesc({ flags: 'RAW' }, { format: 'R32_TYPELESS' }), 4],
      ['structured, stride 12', bufferDesc({ structureByteStride: 12 }, { format: 'UNKNOWN' }), 12],
    ] as const;
    const at = (desc: (typeof layouts)[number][1], firstElement: number, numElements: number) => ({
      ...desc,
      buffer: { ...desc.buffer, firstElement, numElements },
    });

    test.each(layouts)('%s: the last element that fits is accepted', (_, desc, bytes) => {
      const count = Math.floor(1024 / bytes);
      write(view, buffer, at(desc, 0, count), 9);
      write(view, buffer, at(desc, count - 1, 1), 9);
      expect(plan(9)).toMatchObject({ firstElement: count - 1, numElements: 1, elementBytes: bytes });
    });

    test.each(layouts)('%s: one element more is rejected', (_, desc, bytes) => {
      const count = Math.floor(1024 / bytes);
      for (const [first, n] of [
        [0, count + 1],
        [count, 1],
        [1, count],
      ] as const)
        refused(() => write(view, buffer, at(desc, first, n)), {
          call,
          argument: 'desc.buffer',
          message: new RegExp(
            `elements \\[${first}, ${first + n}\\) of ${bytes} bytes end at byte ${(first + n) * bytes}, past the end of .* \\(1024 bytes\\)`,
          ),
        });
    });
  });

  if (view === 'UAV') {
    test.each([undefined, 0])('control: counterOffsetInBytes %s', (counterOffsetInBytes) => {
      write(view, buffer, bufferDesc({ counterOffsetInBytes }), 8);
      expect(plan(8)).toMatchObject({ kind: 'typed' });
    });

    test.each([4, 256, -1, 1.5, '0'])('counterOffsetInBytes %j: UAV counters are not emulated', (offset) => {
      refused(() => write(view, buffer, bufferDesc({ counterOffsetInBytes: offset })), {
        hresult: 'DXGI_ERROR_UNSUPPORTED',
        call,
        argument: 'desc.buffer.counterOffsetInBytes',
        message: /UAV counters are not emulated: it must be 0/,
      });
    });
  } else {
    test('an SRV does not read counterOffsetInBytes', () => {
      write(view, buffer, bufferDesc({ counterOffsetInBytes: 4 }), 8);
      expect(plan(8)).toMatchObject({ kind: 'typed' });
    });
  }
});

describe.each(['SRV', 'UAV'] as const)('%s: TEXTURE2D and TEXTURE2DARRAY views', (view) => {
  const call = CALL[view];
  const plan = (index: number) => (record(index) as { plan: Record<string, unknown> }).plan;

  test.each([
    ['texture2D', 5],
    ['texture2D', 'mip'],
    ['texture2D', []],
    ['texture2DArray', true],
  ] as const)('desc.%s %j (not an object) is rejected', (member, value) => {
    const dimension = member === 'texture2D' ? 'TEXTURE2D' : 'TEXTURE2DARRAY';
    refused(() => write(view, texture, { format: 'R8G8B8A8_UNORM', viewDimension: dimension, [member]: value }), {
      call,
      argument: `desc.${member}`,
      message: /must be an object/,
    });
  });

  test.each([undefined, null])('desc.texture2D %s: every field left out', (value) => {
    write(view, texture, { format: 'R8G8B8A8_UNORM', viewDimension: 'TEXTURE2D', texture2D: value }, 10);
    expect(plan(10)).toMatchObject({ shape: 'texture2d', firstMip: 0, firstSlice: 0, sliceCount: 1 });
  });

  describe("the format: a typed member of the resource's family that shaders read", () => {
    const members = ['R8G8B8A8_UNORM', 'R8G8B8A8_UINT', ...(view === 'SRV' ? ['R8G8B8A8_UNORM_SRGB'] : [])];
    test.each(members)('%s is accepted', (format) => {
      write(view, texture, texture2D({}, format), 10);
      expect(plan(10)).toMatchObject({ format });
    });

    test.each([
      ['another family', 'R32_FLOAT', 'E_INVALIDARG', /R32_FLOAT is not of .* format family \(R8G8B8A8_TYPELESS\)/],
      ['another family of the same size', 'B8G8R8A8_UNORM', 'E_INVALIDARG', /is not of .* format family/],
      ['the family itself', 'R8G8B8A8_TYPELESS', 'E_INVALIDARG', /R8G8B8A8_TYPELESS has no type/],
      ['an unknown name', 'R8G8B8A8', 'E_INVALIDARG', /is not a DXGI format a view can have/],
      ['not a string', null, 'E_INVALIDARG', /must be a DXGI format name/],
      ['a member shaders do not read', 'R8G8B8A8_SNORM', 'DXGI_ERROR_UNSUPPORTED', /through no prelude function/],
      ['a member shaders do not read', 'R8G8B8A8_SINT', 'DXGI_ERROR_UNSUPPORTED', /through no prelude function/],
      ...(view === 'UAV' ? ([['sRGB', 'R8G8B8A8_UNORM_SRGB', 'E_INVALIDARG', /is not a UAV format/]] as const) : []),
    ] as const)('%s (%s) is rejected', (_, format, hresult, message) => {
      refused(() => write(view, texture, texture2D({}, loose(format))), {
        hresult,
        call,
        argument: 'desc.format',
        message,
      });
    });
  });

  test.each([
    ['texture2D', texture2D],
    ['texture2DArray', texture2DArray],
  ] as const)('desc.%s.planeSlice: 0 is accepted, 1 and -1 are not (one plane)', (member, make) => {
    write(view, texture, make({ planeSlice: 0 }), 10);
    for (const [planeSlice, message] of [
      [1, /must be at most 0/],
      [-1, /must be at least 0/],
      [0.5, /integer/],
    ] as const)
      refused(() => write(view, texture, make({ planeSlice })), {
        call,
        argument: `desc.${member}.planeSlice`,
        message,
      });
  });

  describe('array slices (the texture has 4)', () => {
    const ok = [0, 1, 2, 3].flatMap((first) => [
      ...Array.from({ length: 4 - first }, (_, i) => [first, i + 1, i + 1] as const),
      [first, -1, 4 - first] as const,
      [first, 0xffffffff, 4 - first] as const,
    ]);
    test.each(ok)('firstArraySlice %i, arraySize %i: %i slices', (firstArraySlice, arraySize, count) => {
      write(view, texture, texture2DArray({ firstArraySlice, arraySize }), 11);
      expect(plan(11)).toMatchObject({ shape: 'texture2darray', firstSlice: firstArraySlice, sliceCount: count });
    });

    test('arraySize left out: every slice from the first', () => {
      write(view, texture, texture2DArray({ firstArraySlice: 1 }), 11);
      expect(plan(11)).toMatchObject({ firstSlice: 1, sliceCount: 3 });
    });

    test.each([
      ['firstArraySlice', { firstArraySlice: 4 }, /must be at most 3/],
      ['firstArraySlice', { firstArraySlice: -1 }, /must be at least 0/],
      ['firstArraySlice', { firstArraySlice: 0.5 }, /integer/],
      ['arraySize', { firstArraySlice: 0, arraySize: 5 }, /must be at most 4/],
      ['arraySize', { firstArraySlice: 3, arraySize: 2 }, /must be at most 1/],
      ['arraySize', { arraySize: 0 }, /must be at least 1/],
      ['arraySize', { arraySize: -2 }, /must be at least 1/],
      ['arraySize', { arraySize: '2' }, /integer/],
    ] as const)('%s %j is rejected', (name, fields, message) => {
      refused(() => write(view, texture, texture2DArray(fields)), {
        call,
        argument: `desc.texture2DArray.${name}`,
        message,
      });
    });
  });

  if (view === 'SRV') {
    describe('mips (the texture has 3)', () => {
      const ok = [0, 1, 2].flatMap((first) => [
        ...Array.from({ length: 3 - first }, (_, i) => [first, i + 1, i + 1] as const),
        [first, -1, 3 - first] as const,
        [first, 0xffffffff, 3 - first] as const,
      ]);
      test.each(ok)('mostDetailedMip %i, mipLevels %i: %i mips', (mostDetailedMip, mipLevels, count) => {
        write(view, texture, texture2D({ mostDetailedMip, mipLevels }), 12);
        expect(plan(12)).toMatchObject({ firstMip: mostDetailedMip, mipCount: count });
        write(view, texture, texture2DArray({ mostDetailedMip, mipLevels }), 12);
        expect(plan(12)).toMatchObject({ firstMip: mostDetailedMip, mipCount: count });
      });

      test.each([
        ['mostDetailedMip', { mostDetailedMip: 3 }, /must be at most 2/],
        ['mostDetailedMip', { mostDetailedMip: -1 }, /must be at least 0/],
        ['mostDetailedMip', { mostDetailedMip: 1.5 }, /integer/],
        ['mipLevels', { mipLevels: 4 }, /must be at most 3/],
        ['mipLevels', { mostDetailedMip: 2, mipLevels: 2 }, /must be at most 1/],
        ['mipLevels', { mipLevels: 0 }, /must be at least 1/],
        ['mipLevels', { mipLevels: -2 }, /must be at least 1/],
        ['mipLevels', { mipLevels: '2' }, /integer/],
      ] as const)('%s %j is rejected', (name, fields, message) => {
        refused(() => write(view, texture, texture2D(fields)), { call, argument: `desc.texture2D.${name}`, message });
      });

      test.each([0, 0.5, 2, 100, Number.POSITIVE_INFINITY])('resourceMinLODClamp %s is accepted', (clamp) => {
        write(view, texture, texture2D({ resourceMinLODClamp: clamp }), 12);
        expect(plan(12)).toMatchObject({ minLodClamp: clamp });
      });

      test.each([-0.5, -1, Number.NaN, '1', true])('resourceMinLODClamp %j is rejected', (clamp) => {
        refused(() => write(view, texture, texture2D({ resourceMinLODClamp: clamp })), {
          call,
          argument: 'desc.texture2D.resourceMinLODClamp',
          message: /must be a number at least 0/,
        });
      });
    });
  } else {
    describe('mipSlice (the texture has 3 mips)', () => {
      test.each([0, 1, 2])('mipSlice %i: that one mip', (mipSlice) => {
        write(view, texture, texture2D({ mipSlice }), 12);
        expect(plan(12)).toMatchObject({ firstMip: mipSlice, mipCount: 1 });
        write(view, texture, texture2DArray({ mipSlice }), 12);
        expect(plan(12)).toMatchObject({ firstMip: mipSlice, mipCount: 1 });
      });

      test.each([
        [3, /must be at most 2/],
        [-1, /must be at least 0/],
        [0.5, /integer/],
      ] as const)('mipSlice %s is rejected', (mipSlice, message) => {
        refused(() => write(view, texture, texture2D({ mipSlice })), {
          call,
          argument: 'desc.texture2D.mipSlice',
          message,
        });
      });

      test("a UAV does not read an SRV's fields (mostDetailedMip, mipLevels, resourceMinLODClamp)", () => {
        write(view, texture, texture2D({ mostDetailedMip: 9, mipLevels: 0, resourceMinLODClamp: -1 }), 12);
        expect(plan(12)).toMatchObject({ firstMip: 0, mipCount: 1 });
      });
    });
  }

  describe('NULL views: no resource to bound the fields (16 mips, 2048 slices)', () => {
    const first = view === 'SRV' ? 'mostDetailedMip' : 'mipSlice';

    test('control: the largest first mip and slice', () => {
      write(view, null, texture2DArray({ [first]: 15, firstArraySlice: 2047 }, 'R32_FLOAT'), 13);
      expect(plan(13)).toMatchObject({ isNull: true, firstMip: 15, firstSlice: 2047, sliceCount: 1 });
    });

    test.each([
      [{ [first]: 16 }, `desc.texture2DArray.${first}`],
      [{ firstArraySlice: 2048 }, 'desc.texture2DArray.firstArraySlice'],
    ])('%j is rejected', (fields, argument) => {
      refused(() => write(view, null, texture2DArray(fields)), { call, argument, message: /must be at most/ });
    });

    test('any format shaders read is accepted; a TYPELESS one is not', () => {
      write(view, null, texture2D({}, 'R32G32B32A32_SINT'), 13);
      expect(plan(13)).toMatchObject({ isNull: true, format: 'R32G32B32A32_SINT' });
      refused(() => write(view, null, texture2D({}, 'R32_TYPELESS')), {
        call,
        argument: 'desc.format',
        message: /has no type/,
      });
    });
  });
});

describe.each(['SRV', 'UAV'] as const)('%s: the destination', (view) => {
  const call = CALL[view];

  test.each([
    ['SAMPLER', () => samplerHeap],
    ['RTV', () => rtvHeap],
    ['DSV', () => dsvHeap],
  ])('a descriptor of a %s heap is rejected', (type, dest) => {
    refused(
      () => write(view, buffer, bufferDesc(), 0, dest()),
      {
        call,
        argument: 'destDescriptor',
        message: new RegExp(
          `names a descriptor of descriptor heap #\\d+ \\(${type}\\); this call writes CBV_SRV_UAV descriptors`,
        ),
      },
      [heap, dest()],
    );
  });

  test('control: a shader-visible heap takes views', () => {
    write(view, buffer, bufferDesc(), 3, visible);
    expect(record(3, visible)?.kind).toBe(view);
  });

  test('the description is checked before the destination', () => {
    refused(() => write(view, buffer, bufferDesc({ numElements: 0 }), 0, samplerHeap), {
      argument: 'desc.buffer.numElements',
    });
  });
});

describe('createConstantBufferView', () => {
  const call = 'createConstantBufferView';
  const cbv = (desc: unknown, index = 0, dest: DescriptorHeap = heap) =>
    device.createConstantBufferView(loose(desc), handle(dest, index));
  const limit = 1n << BigInt(VIRTUAL_ADDRESS_BITS);

  test("control: 256 bytes of a buffer's memory", () => {
    const address = buffer.getGPUVirtualAddress();
    cbv({ bufferLocation: address, sizeInBytes: 256 }, 14);
    expect(record(14)).toEqual({ kind: 'CBV', plan: { isNull: false, address, size: 256 } });
  });

  test.each([null, undefined])('desc %s is a NULL view', (desc) => {
    cbv(desc, 14);
    expect(record(14)).toEqual({ kind: 'CBV', plan: { isNull: true, address: 0n, size: 0 } });
  });

  test.each([
    [0n, 0],
    [0n, 256],
  ])('bufferLocation %s with size %i is a NULL view', (bufferLocation, sizeInBytes) => {
    cbv({ bufferLocation, sizeInBytes }, 14);
    expect(record(14)).toMatchObject({ kind: 'CBV', plan: { isNull: true } });
  });

  test.each([5, 'cbv', [], true])('desc %j (not an object) is rejected', (desc) => {
    refused(() => cbv(desc), {
      call,
      argument: 'desc',
      message: /must be a D3D12_CONSTANT_BUFFER_VIEW_DESC object or null/,
    });
  });

  test.each([
    ['a number', 256],
    ['a string', '256'],
    ['undefined', undefined],
    ['negative', -256n],
    ['2^VIRTUAL_ADDRESS_BITS', limit],
    ['2^64', 1n << 64n],
  ])('bufferLocation %s is rejected', (_, bufferLocation) => {
    refused(() => cbv({ bufferLocation, sizeInBytes: 256 }), {
      call,
      argument: 'desc.bufferLocation',
      message: new RegExp(`must be a GPU virtual address \\(a bigint below 2\\^${VIRTUAL_ADDRESS_BITS}\\)`),
    });
  });

  test('bufferLocation: the last 256-byte aligned address is accepted', () => {
    cbv({ bufferLocation: limit - 256n, sizeInBytes: 256 }, 14);
    expect(record(14)).toMatchObject({ plan: { isNull: false, address: limit - 256n } });
  });

  test.each([1n, 4n, 128n, 255n, 257n, 0x10080n])(
    'bufferLocation 0x%s (not 256-byte aligned) is rejected',
    (offset) => {
      refused(() => cbv({ bufferLocation: offset, sizeInBytes: 256 }), {
        call,
        argument: 'desc.bufferLocation',
        message: /must be a multiple of 256 \(D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT\)/,
      });
    },
  );

  test.each([256, 512, 4096, 65280, 65536])('sizeInBytes %i is accepted', (sizeInBytes) => {
    cbv({ bufferLocation: 0x10000n, sizeInBytes }, 14);
    expect(record(14)).toMatchObject({ plan: { size: sizeInBytes } });
  });

  test.each([
    [65792, /at most 65536/],
    [131072, /at most 65536/],
    [-256, /at least 0/],
    [100, /must be a multiple of 256, got 100/],
    [257, /must be a multiple of 256/],
    [65535, /must be a multiple of 256/],
    [0, /must be at least 256 for a view of memory/],
    [256.5, /integer/],
    ['256', /integer/],
    [undefined, /integer/],
  ] as const)('sizeInBytes %s is rejected', (sizeInBytes, message) => {
    refused(() => cbv({ bufferLocation: 0x10000n, sizeInBytes }), { call, argument: 'desc.sizeInBytes', message });
  });

  test.each(['SAMPLER', 'RTV', 'DSV'] as const)('a descriptor of a %s heap is rejected', (type) => {
    const dest = { SAMPLER: samplerHeap, RTV: rtvHeap, DSV: dsvHeap }[type];
    refused(
      () => cbv(null, 0, dest),
      {
        call,
        argument: 'destDescriptor',
        message: /this call writes CBV_SRV_UAV descriptors/,
      },
      [dest],
    );
  });
});

describe('createRenderTargetView: back buffers', () => {
  const call = 'createRenderTargetView';
  /** A swap chain whose surface nothing reads on the CPU: back buffers as createRenderTargetView takes them. */
  const swapChain = new SwapChain(loose({ width: 64, height: 32 }), 'B8G8R8A8_UNORM', 2);
  const rtv = (target: unknown, desc: unknown, index = 0, dest: DescriptorHeap = rtvHeap) =>
    device.createRenderTargetView(loose(target), loose(desc), handle(dest, index));
  const target = () => swapChain.getBuffer(1);

  test.each([
    ['no description', null],
    ['its own format', { format: 'B8G8R8A8_UNORM', viewDimension: 'TEXTURE2D' }],
    ['mip 0', { format: 'B8G8R8A8_UNORM', viewDimension: 'TEXTURE2D', texture2D: { mipSlice: 0, planeSlice: 0 } }],
  ])('control: %s', (_, desc) => {
    rtv(target(), desc, 1);
    expect(record(1, rtvHeap)).toEqual({ kind: 'RTV', target: target(), format: 'B8G8R8A8_UNORM' });
  });

  test.each([5, 'rtv', []])('desc %j (not an object) is rejected', (desc) => {
    refused(
      () => rtv(target(), desc),
      { call, argument: 'desc', message: /must be a view description object or null/ },
      [rtvHeap],
    );
  });

  test.each(['TEXTURE2DARRAY', 'BUFFER', 'TEXTURE2DMS', undefined])('viewDimension %j is rejected', (viewDimension) => {
    refused(
      () => rtv(target(), { format: 'B8G8R8A8_UNORM', viewDimension }),
      {
        call,
        argument: 'desc.viewDimension',
        message: /must be TEXTURE2D/,
      },
      [rtvHeap],
    );
  });

  test.each([1, -1, '0'])('mipSlice %j is rejected (the target has one mip)', (mipSlice) => {
    refused(
      () => rtv(target(), { format: 'B8G8R8A8_UNORM', viewDimension: 'TEXTURE2D', texture2D: { mipSlice } }),
      { call, argument: 'desc.texture2D.mipSlice', message: /must be 0 \(the target has one mip\)/ },
      [rtvHeap],
    );
  });

  test.each(['R8G8B8A8_UNORM', 'B8G8R8A8_TYPELESS', 'UNKNOWN', undefined])('format %j is rejected', (format) => {
    refused(
      () => rtv(target(), { format, viewDimension: 'TEXTURE2D' }),
      {
        call,
        argument: 'desc.format',
        message: /must be B8G8R8A8_UNORM, the target's format/,
      },
      [rtvHeap],
    );
  });

  describe('NULL views', () => {
    test.each(['R8G8B8A8_UNORM', 'R16G16B16A16_FLOAT', 'B8G8R8A8_UNORM_SRGB'])('format %s is accepted', (format) => {
      rtv(null, { format, viewDimension: 'TEXTURE2D' }, 2);
      expect(record(2, rtvHeap)).toEqual({ kind: 'RTV', target: null, format });
    });

    test.each([null, undefined, 5])('desc %j: a NULL view needs a description', (desc) => {
      refused(() => rtv(null, desc), { call, argument: 'desc', message: /must be given for a NULL view/ }, [rtvHeap]);
    });

    test.each(['R8G8B8A8_TYPELESS', 'R8G8B8A8', 7])('format %j is rejected', (format) => {
      refused(() => rtv(null, { format, viewDimension: 'TEXTURE2D' }), { call, argument: 'desc.format' }, [rtvHeap]);
    });
  });

  test('a resource in heap memory: render targets there are not emulated', () => {
    refused(
      () => rtv(unorm, null),
      {
        hresult: 'DXGI_ERROR_UNSUPPORTED',
        call,
        argument: 'resource',
        message: /render targets in heap memory are not emulated/,
      },
      [rtvHeap],
    );
  });

  test.each([
    ['undefined', undefined],
    ['a plain object', { format: 'B8G8R8A8_UNORM' }],
    ['the swap chain', swapChain],
    ["another device's resource", 'foreign'],
  ])('%s is not a render target', (_, value) => {
    refused(
      () => rtv(value === 'foreign' ? foreign : value, null),
      {
        call,
        argument: 'resource',
        message: /must be a back buffer of a swap chain \(SwapChain.getBuffer\), or null/,
      },
      [rtvHeap],
    );
  });

  test.each([
    ['CBV_SRV_UAV', () => heap],
    ['DSV', () => dsvHeap],
  ])('a descriptor of a %s heap is rejected', (type, dest) => {
    refused(
      () => rtv(target(), null, 0, dest()),
      {
        call,
        argument: 'destDescriptor',
        message: new RegExp(`\\(${type}\\); this call writes RTV descriptors`),
      },
      [dest()],
    );
  });
});

describe('createDepthStencilView', () => {
  const call = 'createDepthStencilView';
  const dsv = (resource: unknown, desc: unknown, index = 0, dest: DescriptorHeap = dsvHeap) =>
    device.createDepthStencilView(loose(resource), loose(desc), handle(dest, index));
  const d32 = (extra: Record<string, unknown> = {}) => ({ format: 'D32_FLOAT', viewDimension: 'TEXTURE2D', ...extra });

  test.each([
    ['a D32_FLOAT texture, no description', () => depth, null],
    ['a D32_FLOAT texture, its format', () => depth, d32()],
    ['an R32_TYPELESS texture as D32_FLOAT', () => depthTypeless, d32()],
    ['mip 0', () => depth, d32({ texture2D: { mipSlice: 0 } })],
  ] as const)('control: %s', (_, resource, desc) => {
    dsv(resource(), desc, 1);
    expect(record(1, dsvHeap)).toEqual({ kind: 'DSV', resource: resource(), format: 'D32_FLOAT' });
  });

  test.each([
    [['NONE']],
    [['READ_ONLY_DEPTH']],
    [['READ_ONLY_STENCIL']],
    [['READ_ONLY_DEPTH', 'READ_ONLY_STENCIL']],
    [[]],
  ])('flags %j are accepted', (flags) => {
    dsv(depth, d32({ flags }), 1);
    expect(record(1, dsvHeap)).toMatchObject({ kind: 'DSV' });
  });

  test.each([
    [['READ_ONLY'], 'desc.flags[0]', /must be one of NONE, READ_ONLY_DEPTH, READ_ONLY_STENCIL/],
    [['READ_ONLY_DEPTH', 'DEPTH'], 'desc.flags[1]', /must be one of/],
    ['READ_ONLY_DEPTH', 'desc.flags', /must be an array of flag names/],
    [null, 'desc.flags', /must be an array of flag names/],
  ] as const)('flags %j are rejected', (flags, argument, message) => {
    refused(() => dsv(depth, d32({ flags })), { call, argument, message }, [dsvHeap]);
  });

  test.each([
    ['R32_FLOAT (a color member of the family)', 'R32_FLOAT', /must be D32_FLOAT, the target's format/],
    ['another depth format', 'D16_UNORM', /must be D32_FLOAT/],
    ['R32_TYPELESS', 'R32_TYPELESS', /must be D32_FLOAT/],
    ['not a string', 5, /must be D32_FLOAT/],
  ] as const)('format %s is rejected', (_, format, message) => {
    refused(() => dsv(depth, d32({ format })), { call, argument: 'desc.format', message }, [dsvHeap]);
  });

  test('a TYPELESS texture with no description: its format is not a depth format', () => {
    refused(
      () => dsv(depthTypeless, null),
      {
        call,
        argument: 'desc',
        message: /null takes .*'s own format, R32_TYPELESS, which is not a depth format/,
      },
      [dsvHeap],
    );
  });

  test.each(['TEXTURE2DARRAY', 'TEXTURE1D', undefined])('viewDimension %j is rejected', (viewDimension) => {
    refused(
      () => dsv(depth, d32({ viewDimension })),
      { call, argument: 'desc.viewDimension', message: /must be TEXTURE2D/ },
      [dsvHeap],
    );
  });

  test('mipSlice 1 is rejected', () => {
    refused(
      () => dsv(depth, d32({ texture2D: { mipSlice: 1 } })),
      {
        call,
        argument: 'desc.texture2D.mipSlice',
        message: /must be 0/,
      },
      [dsvHeap],
    );
  });

  test.each([
    ['undefined', () => undefined, /must be a resource created by this device, or null/],
    ['a plain object', () => ({}), /must be a resource created by this device, or null/],
    ["another device's resource", () => foreign, /must be a resource created by this device, or null/],
    ['a released resource', () => released, /was released/],
    ['a buffer', () => buffer, /is not a 2D texture created with ALLOW_DEPTH_STENCIL/],
    ['a color texture', () => unorm, /is not a 2D texture created with ALLOW_DEPTH_STENCIL/],
  ])('%s is rejected', (_, resource, message) => {
    refused(() => dsv(resource(), d32()), { call, argument: 'resource', message }, [dsvHeap]);
  });

  describe('NULL views', () => {
    test('a depth format is accepted', () => {
      dsv(null, d32(), 2);
      expect(record(2, dsvHeap)).toEqual({ kind: 'DSV', resource: null, format: 'D32_FLOAT' });
    });

    test.each([null, undefined])('desc %s: a NULL view needs a description', (desc) => {
      refused(() => dsv(null, desc), { call, argument: 'desc', message: /must be given for a NULL view/ }, [dsvHeap]);
    });

    test.each(['R32_FLOAT', 'R8G8B8A8_UNORM', 'R32_TYPELESS'])('format %s is rejected', (format) => {
      refused(() => dsv(null, d32({ format })), { call, argument: 'desc.format' }, [dsvHeap]);
    });
  });

  test.each([
    ['CBV_SRV_UAV', () => heap],
    ['RTV', () => rtvHeap],
  ])('a descriptor of a %s heap is rejected', (type, dest) => {
    refused(
      () => dsv(depth, null, 0, dest()),
      {
        call,
        argument: 'destDescriptor',
        message: new RegExp(`\\(${type}\\); this call writes DSV descriptors`),
      },
      [dest()],
    );
  });
});

describe('copyDescriptors and copyDescriptorsSimple', () => {
  let source: DescriptorHeap;
  let dest: DescriptorHeap;
  let samplerSource: DescriptorHeap;
  const words = (of: DescriptorHeap, from: number, count: number): Uint32Array => {
    const per = device.getDescriptorHandleIncrementSize(of.getDesc().type) / 4;
    return field<Uint32Array>(of, 'words').slice(from * per, (from + count) * per);
  };

  beforeAll(() => {
    // Eight distinct descriptors: CBVs of addresses 0x10000 + i * 0x100.
    source = device.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 8 });
    for (let i = 0; i < 8; i++)
      device.createConstantBufferView(
        { bufferLocation: 0x10000n + BigInt(i) * 0x100n, sizeInBytes: 256 },
        handle(source, i),
      );
    samplerSource = device.createDescriptorHeap({ type: 'SAMPLER', numDescriptors: 4 });
  });

  const freshDest = () => {
    dest = device.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 8, flags: 'SHADER_VISIBLE' });
    return dest;
  };

  test('control: ranges of several sizes, into a shader-visible heap', () => {
    freshDest();
    device.copyDescriptors([handle(dest, 0), handle(dest, 5)], [2, 3], [handle(source, 1)], [5], 'CBV_SRV_UAV');
    expect(words(dest, 0, 2)).toEqual(words(source, 1, 2));
    expect(words(dest, 5, 3)).toEqual(words(source, 3, 3));
    expect(records(dest).slice(5, 8)).toEqual(records(source).slice(3, 6));
    expect(records(dest)[2]).toBeUndefined();
  });

  test('control: null sizes are one descriptor per range; zero-sized ranges copy nothing', () => {
    freshDest();
    device.copyDescriptors(
      [handle(dest, 3), handle(dest, 1)],
      null,
      [handle(source, 6), handle(source, 7)],
      null,
      'CBV_SRV_UAV',
    );
    expect(words(dest, 3, 1)).toEqual(words(source, 6, 1));
    expect(words(dest, 1, 1)).toEqual(words(source, 7, 1));
    device.copyDescriptors([handle(dest, 0)], [0], [handle(source, 0)], [0], 'CBV_SRV_UAV');
    device.copyDescriptorsSimple(0, handle(dest, 0), handle(source, 0), 'CBV_SRV_UAV');
    expect(records(dest)[0]).toBeUndefined();
  });

  test('control: an overlapping copy within one heap reads every source first', () => {
    const shifted = device.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 8 });
    device.copyDescriptorsSimple(8, handle(shifted, 0), handle(source, 0), 'CBV_SRV_UAV');
    device.copyDescriptorsSimple(4, handle(shifted, 1), handle(shifted, 0), 'CBV_SRV_UAV');
    expect(words(shifted, 1, 4)).toEqual(words(source, 0, 4));
    expect(words(shifted, 5, 3)).toEqual(words(source, 5, 3));
  });

  test('control: the descriptors of every type copy', () => {
    for (const type of ['SAMPLER', 'RTV', 'DSV'] as DescriptorHeapType[]) {
      const a = device.createDescriptorHeap({ type, numDescriptors: 2 });
      const b = device.createDescriptorHeap({ type, numDescriptors: 2 });
      device.copyDescriptorsSimple(2, handle(b, 0), handle(a, 0), type);
    }
  });

  describe('copyDescriptors: one invalid argument at a time', () => {
    const call = 'copyDescriptors';
    const valid = () => [[handle(dest, 0)], [2], [handle(source, 0)], [2], 'CBV_SRV_UAV'] as unknown[];
    const copy = (args: unknown[]) =>
      device.copyDescriptors(loose(args[0]), loose(args[1]), loose(args[2]), loose(args[3]), loose(args[4]));
    const cases: [string, (args: unknown[]) => void, string, RegExp][] = [
      [
        'descriptorHeapsType unknown',
        (a) => (a[4] = 'CBV'),
        'descriptorHeapsType',
        /must be one of CBV_SRV_UAV, SAMPLER, RTV, DSV/,
      ],
      [
        'dest starts not an array',
        (a) => (a[0] = handle(dest, 0)),
        'destDescriptorRangeStarts',
        /must be an array of CPU descriptor handles/,
      ],
      [
        'src starts null',
        (a) => (a[2] = null),
        'srcDescriptorRangeStarts',
        /must be an array of CPU descriptor handles/,
      ],
      [
        'dest sizes not an array',
        (a) => (a[1] = 2),
        'destDescriptorRangeSizes',
        /must be null \(one descriptor each\) or an array of 1 counts/,
      ],
      [
        'dest sizes of another length',
        (a) => (a[1] = [1, 1]),
        'destDescriptorRangeSizes',
        /or an array of 1 counts, got \[1,1\]/,
      ],
      ['src sizes of another length', (a) => (a[3] = []), 'srcDescriptorRangeSizes', /or an array of 1 counts/],
      ['a negative size', (a) => (a[1] = [-1]), 'destDescriptorRangeSizes[0]', /must be a count \(a UINT\), got -1/],
      ['a fractional size', (a) => (a[3] = [1.5]), 'srcDescriptorRangeSizes[0]', /must be a count/],
      ['a size of 2^32', (a) => (a[1] = [2 ** 32]), 'destDescriptorRangeSizes[0]', /must be a count/],
      ['a string size', (a) => (a[1] = ['2']), 'destDescriptorRangeSizes[0]', /must be a count/],
      [
        'a dest start not a handle',
        (a) => (a[0] = [{ ptr: 'x' }]),
        'destDescriptorRangeStarts[0]',
        /must be a D3D12_CPU_DESCRIPTOR_HANDLE/,
      ],
      [
        'a src start in no heap',
        (a) => (a[2] = [{ ptr: 0 }]),
        'srcDescriptorRangeStarts[0]',
        /is in no live descriptor heap/,
      ],
      [
        'a misaligned src start',
        (a) => (a[2] = [{ ptr: handle(source, 0).ptr + 4 }]),
        'srcDescriptorRangeStarts[0]',
        /not a multiple of its increment/,
      ],
      [
        'a dest range past the end',
        (a) => ((a[0] = [handle(dest, 7)]), (a[2] = [handle(source, 0)])),
        'destDescriptorRangeStarts[0]',
        /descriptors \[7, 9\) run past the end of .* \(8 descriptors\)/,
      ],
      [
        'a src range past the end',
        (a) => (a[2] = [handle(source, 7)]),
        'srcDescriptorRangeStarts[0]',
        /descriptors \[7, 9\) run past the end/,
      ],
      [
        'a src range in a SAMPLER heap',
        (a) => (a[2] = [handle(samplerSource, 0)]),
        'srcDescriptorRangeStarts[0]',
        /\(SAMPLER\); this call writes CBV_SRV_UAV descriptors/,
      ],
      [
        'a dest range of another type than named',
        (a) => (a[4] = 'SAMPLER'),
        'destDescriptorRangeStarts[0]',
        /this call writes SAMPLER descriptors/,
      ],
      [
        'more source descriptors than destination ones',
        (a) => (a[3] = [3]),
        'srcDescriptorRangeSizes',
        /the source ranges hold 3 descriptors, the destination ranges 2: they must match/,
      ],
      [
        'fewer source descriptors',
        (a) => (a[1] = [3]),
        'srcDescriptorRangeSizes',
        /the source ranges hold 2 descriptors, the destination ranges 3/,
      ],
      [
        'a shader-visible source',
        (a) => (a[2] = [handle(visible, 0)]),
        'srcDescriptorRangeStarts[0]',
        /copies read non-shader-visible heaps only/,
      ],
    ];

    test('control: the valid arguments', () => {
      freshDest();
      copy(valid());
      expect(words(dest, 0, 2)).toEqual(words(source, 0, 2));
    });

    test.each(cases)('%s', (_, spoil, argument, message) => {
      freshDest();
      device.copyDescriptorsSimple(1, handle(dest, 0), handle(source, 5), 'CBV_SRV_UAV');
      const args = valid();
      spoil(args);
      refused(() => copy(args), { call, argument, message }, [dest, source]);
    });
  });

  describe('copyDescriptorsSimple: one invalid argument at a time', () => {
    const call = 'copyDescriptorsSimple';
    const copy = (n: unknown, to: unknown, from: unknown, type: unknown = 'CBV_SRV_UAV') =>
      device.copyDescriptorsSimple(loose(n), loose(to), loose(from), loose(type));

    test('control: 8 descriptors, the whole heap', () => {
      freshDest();
      copy(8, handle(dest, 0), handle(source, 0));
      expect(words(dest, 0, 8)).toEqual(words(source, 0, 8));
    });

    test.each([
      ['numDescriptors -1', () => copy(-1, handle(dest, 0), handle(source, 0)), 'numDescriptors', /must be a count/],
      ['numDescriptors 1.5', () => copy(1.5, handle(dest, 0), handle(source, 0)), 'numDescriptors', /must be a count/],
      [
        'numDescriptors undefined',
        () => copy(undefined, handle(dest, 0), handle(source, 0)),
        'numDescriptors',
        /must be a count/,
      ],
      [
        'a dest range past the end',
        () => copy(2, handle(dest, 7), handle(source, 0)),
        'destDescriptorRangeStart',
        /descriptors \[7, 9\) run past the end/,
      ],
      [
        'a src range past the end',
        () => copy(9, handle(dest, 0), handle(source, 0)),
        'destDescriptorRangeStart',
        /run past the end/,
      ],
      [
        'a src range past its end',
        () => copy(2, handle(dest, 0), handle(source, 7)),
        'srcDescriptorRangeStart',
        /descriptors \[7, 9\) run past the end/,
      ],
      [
        'a dest handle that is not one',
        () => copy(1, null, handle(source, 0)),
        'destDescriptorRangeStart',
        /must be a D3D12_CPU_DESCRIPTOR_HANDLE/,
      ],
      [
        'a src handle in a SAMPLER heap',
        () => copy(1, handle(dest, 0), handle(samplerSource, 0)),
        'srcDescriptorRangeStart',
        /this call writes CBV_SRV_UAV descriptors/,
      ],
      [
        'a shader-visible source',
        () => copy(1, handle(dest, 0), handle(visible, 0)),
        'srcDescriptorRangeStart',
        /copies read non-shader-visible heaps only/,
      ],
      [
        'descriptorHeapsType unknown',
        () => copy(1, handle(dest, 0), handle(source, 0), 'SRV'),
        'descriptorHeapsType',
        /must be one of/,
      ],
    ] as const)('%s is rejected', (_, fn, argument, message) => {
      freshDest();
      refused(fn, { call, argument, message }, [dest, source]);
    });
  });
});

describe('every view format name the library knows is a DXGI format', () => {
  test('VIEW_FORMAT_NAMES ⊂ FORMAT_NAMES', () => {
    for (const format of VIEW_FORMAT_NAMES) expect(FORMAT_NAMES).toContain(format);
  });
});
