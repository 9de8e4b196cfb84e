/**
 * The checks of d3d12-webgpu/streaming's public calls (TileStreamer, TileRegionCopier), kept apart
 * from what the calls do: each returns nothing or throws a D3D12Error (E_INVALIDARG, or
 * DXGI_ERROR_DEVICE_REMOVED for a removed device) naming the call, the argument and the broken rule,
 * before the call changes anything. A client of the main entry only, so the library's objects are
 * told by what it exports: instanceof its classes, their `released` getters, and the device's own
 * queries (getResourceTiling, getResidencyStatus and getMemoryStats refuse or leave out another
 * device's objects).
 */
import {
  CommandQueue,
  D3D12Error,
  Device,
  GraphicsCommandList,
  Heap,
  Resource,
  TEXTURE_DATA_PLACEMENT_ALIGNMENT,
  TILE_SIZE,
  type ResourceTiling,
} from '../index.js';

/**
 * Most slots a ring may have: 4096 × 64 KiB = 256 MiB, WebGPU's default maxBufferSize. The slots'
 * bookkeeping is allocated at once, so an absurd count (1e9) must be refused before it is tried; a
 * streamer moving a frame's tiles uses tens.
 */
export const MAX_RING_SLOTS = 4096;
export const COPY_PATHS = ['copyTiles', 'copyTextureRegion'] as const;
export const RING_MAPPINGS = ['per-write', 'persistent'] as const;

const U32_MAX = 0xffffffff;

export const invalid = (call: string, argument: string, rule: string): D3D12Error =>
  new D3D12Error('E_INVALIDARG', call, argument, rule);

/** A value as a message shows it: strings quoted, the library's objects by label, short JSON else. */
export function shown(value: unknown): string {
  if (typeof value === 'string') return `'${value.slice(0, 100)}'`;
  if (typeof value === 'function') return `function ${value.name || '(anonymous)'}`;
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value !== 'object' || value === null) return String(value);
  const label = (value as { label?: unknown }).label;
  if (typeof label === 'string') return label;
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${value.byteLength} bytes)`;
  try {
    const json = JSON.stringify(value);
    return json.length > 200 ? `${json.slice(0, 199)}…` : json;
  } catch {
    return Object.prototype.toString.call(value);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const integerIn = (value: unknown, min: number, max: number): value is number =>
  Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;

function checkInteger(
  call: string,
  argument: string,
  value: unknown,
  min: number,
  max = U32_MAX,
): asserts value is number {
  if (!integerIn(value, min, max))
    throw invalid(call, argument, `must be an integer in [${min}, ${max}], got ${shown(value)}`);
}

function checkOneOf(call: string, argument: string, value: unknown, names: readonly string[]): void {
  if (value !== undefined && !names.includes(value as string))
    throw invalid(call, argument, `must be one of ${names.map((n) => `'${n}'`).join(', ')}, got ${shown(value)}`);
}

/** A device the streaming calls can use: one of the library's, not removed. */
export function checkDevice(call: string, device: unknown): asserts device is Device {
  if (!(device instanceof Device))
    throw invalid(call, 'device', `must be a Device of the library, got ${shown(device)}`);
  const reason = device.getDeviceRemovedReason();
  if (reason !== 'S_OK')
    throw new D3D12Error('DXGI_ERROR_DEVICE_REMOVED', call, 'device', `the device was removed (${reason})`);
}

/**
 * A live reserved TEXTURE2D of `device`: tiles are copied and mapped into it, and the
 * copyTextureRegion path places 2D boxes. Returns its tiling.
 */
export function checkReservedTexture(call: string, device: Device, texture: unknown): ResourceTiling {
  if (!(texture instanceof Resource))
    throw invalid(call, 'texture', `must be a Resource of the library, got ${shown(texture)}`);
  if (texture.released) throw invalid(call, 'texture', `${texture.label} was released`);
  let tiling: ResourceTiling;
  try {
    tiling = device.getResourceTiling(texture);
  } catch (error) {
    if (!(error instanceof D3D12Error)) throw error;
    throw invalid(call, 'texture', `must be a resource of the device: ${error.rule}`);
  }
  if (texture.getDesc().dimension !== 'TEXTURE2D')
    throw invalid(call, 'texture', `must be a TEXTURE2D, ${texture.label} is a ${texture.getDesc().dimension}`);
  const stats = device.getMemoryStats().resources.find((r) => r.id === texture.id);
  if (stats?.kind !== 'reserved')
    throw invalid(
      call,
      'texture',
      `must be a reserved resource (createReservedResource), ${texture.label} is ${stats?.kind ?? 'not listed'}`,
    );
  return tiling;
}

/** new TileStreamer(device, queue, texture, options): everything but the queue's device (checkQueueOfDevice). */
export function checkStreamerArguments(
  device: unknown,
  queue: unknown,
  texture: unknown,
  options: unknown,
): ResourceTiling {
  const call = 'new TileStreamer';
  checkDevice(call, device);
  if (!(queue instanceof CommandQueue))
    throw invalid(call, 'queue', `must be a CommandQueue of the library, got ${shown(queue)}`);
  // The streamer records DIRECT command lists, which only a DIRECT queue runs.
  if (queue.getDesc().type !== 'DIRECT')
    throw invalid(
      call,
      'queue',
      `must be a DIRECT queue (the streamer records DIRECT lists), got ${queue.getDesc().type}`,
    );
  const tiling = checkReservedTexture(call, device, texture);
  if (!isObject(options))
    throw invalid(call, 'options', `must be a TileStreamerOptions object {slots, ...}, got ${shown(options)}`);
  checkInteger(call, 'options.slots', options.slots, 1, MAX_RING_SLOTS);
  checkOneOf(call, 'options.mapping', options.mapping, RING_MAPPINGS);
  checkOneOf(call, 'options.copy', options.copy, COPY_PATHS);
  if (options.name !== undefined && typeof options.name !== 'string')
    throw invalid(call, 'options.name', `must be a string, got ${shown(options.name)}`);
  if (options.now !== undefined && typeof options.now !== 'function')
    throw invalid(call, 'options.now', `must be a function returning milliseconds, got ${shown(options.now)}`);
  // The ring is mapped and its copies executed: GPU memory (a CPU-only device keeps bookkeeping only).
  if (device.gpuDevice === undefined)
    throw invalid(call, 'device', 'must have GPU memory: the ring is mapped and copied (created with gpuDevice: null)');
  return tiling;
}

/**
 * The queue is `device`'s: the queue's own check (validateExecuteCommandLists refuses another
 * device's list, executing and changing nothing) on a closed empty list of the device. That list is
 * the one object the check makes; the main entry tells a queue's device no other way.
 */
export function checkQueueOfDevice(call: string, device: Device, queue: CommandQueue): void {
  const probe = device.createCommandList('DIRECT');
  probe.setName('TileStreamer queue check');
  probe.close();
  try {
    queue.validateExecuteCommandLists([probe]);
  } catch (error) {
    if (!(error instanceof D3D12Error)) throw error;
    throw invalid(call, 'queue', `must be a command queue of the device: ${error.rule}`);
  }
}

export function checkCopyPath(call: string, argument: string, value: unknown): void {
  if (value === undefined || !COPY_PATHS.includes(value as never))
    throw invalid(call, argument, `must be one of 'copyTiles', 'copyTextureRegion', got ${shown(value)}`);
}

/** A call on a released streamer. */
export function checkLive(call: string, released: boolean, name: string): void {
  if (released) throw invalid(call, 'this', `${name} was released`);
}

/** A D3D12_TILED_RESOURCE_COORDINATE of the texture (standard tile inside its subresource, or a packed tile). */
export function checkCoordinate(call: string, argument: string, value: unknown, tiling: ResourceTiling): void {
  if (!isObject(value))
    throw invalid(
      call,
      argument,
      `must be a D3D12_TILED_RESOURCE_COORDINATE {x, y, z, subresource}, got ${shown(value)}`,
    );
  // y, z and subresource default to 0, as the library's own coordinate checks take them.
  const [x, y, z, subresource] = [value.x, value.y ?? 0, value.z ?? 0, value.subresource ?? 0];
  checkInteger(call, `${argument}.x`, x, 0);
  checkInteger(call, `${argument}.y`, y, 0);
  checkInteger(call, `${argument}.z`, z, 0);
  checkInteger(call, `${argument}.subresource`, subresource, 0);
  const count = tiling.subresourceTilings.length;
  if (subresource >= count)
    throw invalid(
      call,
      `${argument}.subresource`,
      `must be less than the texture's ${count} subresources, got ${subresource}`,
    );
  const { numStandardMips, numPackedMips, numTilesForPackedMips } = tiling.packedMipDesc;
  const mip = subresource % (numStandardMips + numPackedMips);
  if (mip >= numStandardMips) {
    if (y !== 0 || z !== 0 || x >= numTilesForPackedMips)
      throw invalid(
        call,
        argument,
        `subresource ${subresource} is a packed mip: x indexes its ${numTilesForPackedMips} tail tile(s) and y and z are 0, got ${shown(value)}`,
      );
    return;
  }
  const t = tiling.subresourceTilings[subresource];
  if (t && (x >= t.widthInTiles || y >= t.heightInTiles || z >= t.depthInTiles))
    throw invalid(
      call,
      argument,
      `subresource ${subresource} is ${t.widthInTiles}×${t.heightInTiles}×${t.depthInTiles} tiles, got ${shown(value)}`,
    );
}

/** Heap flags that keep a non-render-target texture's tiles out (D3D12_HEAP_FLAGS). */
const DENY_TEXTURES = ['DENY_NON_RT_DS_TEXTURES', 'ALLOW_ONLY_BUFFERS', 'ALLOW_ONLY_RT_DS_TEXTURES'];

/** upload.mapTo: a live GPU-local heap of the device whose flags allow textures, and a tile inside it. */
export function checkMapTo(call: string, argument: string, value: unknown, device: Device): void {
  if (value === undefined) return;
  if (!isObject(value)) throw invalid(call, argument, `must be {heap, heapTile} or absent, got ${shown(value)}`);
  const heap = value.heap;
  if (!(heap instanceof Heap))
    throw invalid(call, `${argument}.heap`, `must be a Heap of the library, got ${shown(heap)}`);
  if (heap.released) throw invalid(call, `${argument}.heap`, `${heap.label} was released`);
  try {
    device.getResidencyStatus(heap);
  } catch (error) {
    if (!(error instanceof D3D12Error)) throw error;
    throw invalid(call, `${argument}.heap`, `must be a heap of the streamer's device: ${error.rule}`);
  }
  const { sizeInBytes, properties, flags } = heap.getDesc();
  const local =
    properties.type === 'DEFAULT' || (properties.type === 'CUSTOM' && properties.memoryPoolPreference === 'L1');
  if (!local)
    throw invalid(
      call,
      `${argument}.heap`,
      `${heap.label} is in system memory; a reserved texture's tiles live in a DEFAULT heap or a CUSTOM heap in L1`,
    );
  const denying = (flags ?? []).find((flag) => DENY_TEXTURES.includes(flag));
  if (denying)
    throw invalid(call, `${argument}.heap`, `${heap.label} has flag ${denying}, which denies textures' tiles`);
  checkInteger(call, `${argument}.heapTile`, value.heapTile, 0, sizeInBytes / TILE_SIZE - 1);
}

/** One TileRegion: a box inside its subresource (mip size from the texture's desc) and where its rows lie. */
export function checkRegion(
  call: string,
  argument: string,
  value: unknown,
  desc: { width: number; height: number; mipLevels: number },
  subresources: number,
): void {
  if (!isObject(value))
    throw invalid(
      call,
      argument,
      `must be a TileRegion {subresource, left, top, width, height, dataOffset, dataRowPitch}, got ${shown(value)}`,
    );
  checkInteger(call, `${argument}.subresource`, value.subresource, 0, subresources - 1);
  const mip = value.subresource % desc.mipLevels;
  const [mipWidth, mipHeight] = [Math.max(1, desc.width >> mip), Math.max(1, desc.height >> mip)];
  checkInteger(call, `${argument}.left`, value.left, 0, mipWidth - 1);
  checkInteger(call, `${argument}.top`, value.top, 0, mipHeight - 1);
  checkInteger(call, `${argument}.width`, value.width, 1, mipWidth - value.left);
  checkInteger(call, `${argument}.height`, value.height, 1, mipHeight - value.top);
  checkInteger(call, `${argument}.dataOffset`, value.dataOffset, 0, TILE_SIZE - 1);
  checkInteger(call, `${argument}.dataRowPitch`, value.dataRowPitch, 0, TILE_SIZE);
}

export function checkRegions(
  call: string,
  argument: string,
  value: unknown,
  desc: { width: number; height: number; mipLevels: number },
  subresources: number,
): void {
  if (!Array.isArray(value) || value.length === 0)
    throw invalid(call, argument, `must be a non-empty array of TileRegion, got ${shown(value)}`);
  value.forEach((region, i) => checkRegion(call, `${argument}[${i}]`, region, desc, subresources));
}

/** tryWrite/write(upload): the fields the streamer reads, checked against the texture and the device. */
export function checkUpload(
  call: string,
  upload: unknown,
  device: Device,
  texture: Resource,
  tiling: ResourceTiling,
): void {
  if (!isObject(upload))
    throw invalid(call, 'upload', `must be a TileUpload {coordinate, data, requestedAt, key}, got ${shown(upload)}`);
  const data = upload.data;
  if (!(data instanceof Uint8Array)) throw invalid(call, 'upload.data', `must be a Uint8Array, got ${shown(data)}`);
  if (data.byteLength > TILE_SIZE)
    throw invalid(call, 'upload.data', `must be at most ${TILE_SIZE} bytes (one tile), got ${data.byteLength}`);
  if (typeof upload.requestedAt !== 'number' || !Number.isFinite(upload.requestedAt))
    throw invalid(call, 'upload.requestedAt', `must be a finite time in ms, got ${shown(upload.requestedAt)}`);
  checkCoordinate(call, 'upload.coordinate', upload.coordinate, tiling);
  checkMapTo(call, 'upload.mapTo', upload.mapTo, device);
  if (upload.regions !== undefined)
    checkRegions(call, 'upload.regions', upload.regions, texture.getDesc(), tiling.subresourceTilings.length);
}

/** TileRegionCopier.place's scalar arguments. */
export function checkPlacement(call: string, baseOffset: unknown, capacity: unknown, dataBytes: unknown): void {
  checkInteger(call, 'baseOffset', baseOffset, 0, Number.MAX_SAFE_INTEGER);
  if (baseOffset % TEXTURE_DATA_PLACEMENT_ALIGNMENT !== 0)
    throw invalid(call, 'baseOffset', `must be a multiple of ${TEXTURE_DATA_PLACEMENT_ALIGNMENT}, got ${baseOffset}`);
  checkInteger(call, 'capacity', capacity, 0, Number.MAX_SAFE_INTEGER);
  checkInteger(call, 'dataBytes', dataBytes, 0, Number.MAX_SAFE_INTEGER);
}

/** A PlacedRegion array as place() returns it (its footprints, rows and row sizes). */
export function checkPlaced(call: string, value: unknown): void {
  const ok = (p: unknown): boolean =>
    isObject(p) &&
    isObject(p.region) &&
    isObject(p.placedFootprint) &&
    isObject(p.placedFootprint.footprint) &&
    integerIn(p.numRows, 0, U32_MAX) &&
    integerIn(p.rowSizeInBytes, 0, U32_MAX);
  if (!Array.isArray(value))
    throw invalid(call, 'placed', `must be an array of PlacedRegion (from place()), got ${shown(value)}`);
  const bad = value.findIndex((p) => !ok(p));
  if (bad >= 0) throw invalid(call, `placed[${bad}]`, `must be a PlacedRegion from place(), got ${shown(value[bad])}`);
}

/** What writeRows reads of a PlacedRegion (structurally: tile-regions.ts imports this file). */
interface PlacedRows {
  region: { dataOffset: number; dataRowPitch: number };
  placedFootprint: { offset: number; footprint: { rowPitch: number } };
  numRows: number;
  rowSizeInBytes: number;
}

/** writeRows(view, data, placed): every row read lies in `data` and every row written in `view`. */
export function checkWriteRows(call: string, view: unknown, data: unknown, placed: unknown): void {
  if (!(view instanceof Uint8Array))
    throw invalid(call, 'view', `must be a Uint8Array (the mapped ring), got ${shown(view)}`);
  if (!(data instanceof Uint8Array)) throw invalid(call, 'data', `must be a Uint8Array, got ${shown(data)}`);
  checkPlaced(call, placed);
  (placed as PlacedRows[]).forEach((p, i) => {
    if (p.numRows === 0) return;
    const readEnd = p.region.dataOffset + (p.numRows - 1) * p.region.dataRowPitch + p.rowSizeInBytes;
    if (!(readEnd <= data.byteLength))
      throw invalid(call, `placed[${i}]`, `reads data bytes up to ${readEnd}, data has ${data.byteLength}`);
    const writeEnd =
      p.placedFootprint.offset + (p.numRows - 1) * p.placedFootprint.footprint.rowPitch + p.rowSizeInBytes;
    if (!(writeEnd <= view.byteLength))
      throw invalid(call, `placed[${i}]`, `writes view bytes up to ${writeEnd}, the view has ${view.byteLength}`);
  });
}

/** Resources seen to be buffers: a resource's dimension never changes, and getDesc copies the whole description. */
const knownBuffers = new WeakSet<Resource>();

/** record(list, ring, placed): a command list, a live buffer resource, placed regions. */
export function checkRecord(call: string, list: unknown, ring: unknown, placed: unknown): void {
  if (!(list instanceof GraphicsCommandList))
    throw invalid(call, 'list', `must be a GraphicsCommandList of the library, got ${shown(list)}`);
  if (!(ring instanceof Resource)) throw invalid(call, 'ring', `must be a Resource of the library, got ${shown(ring)}`);
  if (ring.released) throw invalid(call, 'ring', `${ring.label} was released`);
  if (!knownBuffers.has(ring)) {
    const { dimension } = ring.getDesc();
    if (dimension !== 'BUFFER') throw invalid(call, 'ring', `must be a buffer, ${ring.label} is a ${dimension}`);
    knownBuffers.add(ring);
  }
  checkPlaced(call, placed);
}
