/**
 * The texture cache never shows a stale texel (docs/texture-cache.md). Textures the cache serves
 * (R8G8B8A8_UNORM and B8G8R8A8_UNORM, standard mips) are sampled until their pages are cached (a
 * check fails if they are not: the reads after a write could not be stale otherwise), then written
 * through each path that changes what a texel reads, then sampled right after the write and again
 * after the refill: loads of every texel exact, a bilinear (lod 0) or trilinear (lod 0.5) sample at
 * a sub-texel offset in every 2 × 2 quad within 2/255 of the CPU's filter, and CheckAccessFullyMapped
 * of each, against the CPU model (texture-cache-model.ts); memory, read back by copies (which never
 * read the cache), must hold what the model says, so a sampled mismatch is the cache's.
 *
 *   writes in place: copyTiles into a tile; copyTextureRegion of boxes; copyBufferRegion into a
 *   placed buffer aliasing the texture's heap pages; compute stores (d3d12_tex2d_store and a raw
 *   d3d12_store at the texel's address); UAV clears (Float, Uint); CPU writes through map() of a
 *   buffer aliasing a texture placed in a CUSTOM heap;
 *   the mapping: a tile remapped to another heap's page and one to NULL (reads 0, not fully
 *   mapped), then both back on their old pages (whose copies are still right);
 *   paging and reuse: the heap evicted; another heap takes its pages, is written, sampled and
 *   released; a new heap takes them, zeroed (a texture on it reads 0, not the old copies), and is
 *   released; the heap comes back onto pages whose copies hold those zeros;
 *   a BGRA8 texture on the RGBA8 texture's pages (hot at once, channels swapped), an R32_FLOAT
 *   texture (a format the cache does not serve: never cached, still right);
 *   with `viewsAndCacheSizes` (the default), the UAV clears read through a descriptor view (Load,
 *   SampleLevel, Gather with a static sampler), and devices with no cache (the same reads, nothing
 *   cached) and with 2 slots for 5 pages (each fill takes slots back from pages cached before).
 *
 * A write in place is also checked to drop the cached copies of the pages it changed before any
 * shader runs; the hooks readTextureCacheForTesting and getHeapPoolPagesForTesting say which
 * pages are cached and which are a texture's.
 */
import type { Device } from '../../d3d12/device.js';
import type { Heap } from '../../d3d12/heap.js';
import type { HeapProperties } from '../../api/types.js';
import { checkThat, roundUp, TILE, type Check } from '../bytes.js';
import { flush, runList, uploadBuffer } from '../d3d12-io.js';
import {
  getHeapPoolPagesForTesting,
  readTextureCacheForTesting,
  writeTextureMirrorTexelForTesting,
} from '../../testing/index.js';
import { ScenarioContext } from './context.js';
import { sampleChecks } from './texture-cache-model.js';
import {
  afterWrite,
  cacheCheck,
  copiedBack,
  copyTilesIn,
  createRig,
  dropped,
  hot,
  mapTiles,
  memoryCheck,
  pagesOf,
  placedTexture,
  release,
  reservedTexture,
  sample,
  snapshot,
  storeRect,
  storeThenSample,
  texelBytes,
  TEXTURE_TILES,
  type Path,
  type Rig,
  type Tex,
} from './texture-cache-rig.js';

const rgba8 = (r: number, g: number, b: number, a: number): number => (r | (g << 8) | (b << 16) | (a << 24)) >>> 0;
const heapOf = (device: Device, tiles: number, name: string, properties: HeapProperties = { type: 'DEFAULT' }) => {
  const heap = device.createHeap({ sizeInBytes: tiles * TILE, properties });
  heap.setName(name);
  return heap;
};

/** A write step: the texture hot, the write, its pages' copies dropped (in place), then read back and sampled twice. */
async function step(
  rig: Rig,
  tex: Tex,
  what: string,
  write: () => Promise<void> | void,
  options: { inPlace?: boolean; path?: Path; alias?: Parameters<typeof afterWrite>[4]; hot?: boolean } = {},
): Promise<Check[]> {
  const checks = options.hot === false ? [] : [await hot(rig, tex, what)];
  const before = snapshot(tex);
  await write();
  if (options.inPlace ?? true) checks.push(await dropped(rig, tex, what, before));
  checks.push(...(await afterWrite(rig, tex, what, options.path, options.alias)));
  return checks;
}

/** copyTextureRegion of random texels into a box of `mip` from an UPLOAD footprint; the model follows. */
async function copyBox(rig: Rig, tex: Tex, mip: number, box: [number, number, number, number]): Promise<void> {
  const [x, y, width, height] = box;
  const rowPitch = roundUp(width * 4, 256);
  const data = texelBytes(tex.model.format, rowPitch * height, rig.seed++);
  const upload = uploadBuffer(rig.device, data);
  await runList(rig.device, rig.queue, (list) => {
    list.copyTextureRegion({ resource: tex.resource, type: 'SUBRESOURCE_INDEX', subresourceIndex: mip }, x, y, 0, {
      resource: upload,
      type: 'PLACED_FOOTPRINT',
      placedFootprint: { offset: 0, footprint: { format: tex.model.format, width, height, depth: 1, rowPitch } },
    });
    list.resourceBarrier(copiedBack(tex, [mip]));
  });
  upload.release();
  tex.model.setBox(mip, x, y, width, height, data, rowPitch);
}

/** The RGBA8 reserved texture through every write path that changes it in place or remaps it, then paging. */
async function writePaths(rig: Rig, views: boolean, context: ScenarioContext): Promise<Check[]> {
  const { device } = rig;
  const heap = heapOf(device, 8, 'texture heap');
  const tex = reservedTexture(rig, 'RGBA8 texture', 'R8G8B8A8_UNORM', heap);
  await copyTilesIn(rig, tex, 0, texelBytes('R8G8B8A8_UNORM', TEXTURE_TILES * TILE, rig.seed++));
  const checks = await afterWrite(rig, tex, 'RGBA8 texture filled by copyTiles');
  if (rig.mirrors) checks.push(await servedByMirror(rig, tex));

  checks.push(
    ...(await step(rig, tex, 'copyTiles into tile 1', () =>
      copyTilesIn(rig, tex, 1, texelBytes('R8G8B8A8_UNORM', TILE, rig.seed++)),
    )),
    ...(await step(rig, tex, 'copyTextureRegion of a box across the four mip-0 tiles and a box of mip 1', async () => {
      await copyBox(rig, tex, 0, [100, 90, 80, 70]);
      await copyBox(rig, tex, 1, [60, 20, 40, 50]);
    })),
  );

  // A buffer placed over the heap: tile k of the texture is heap tile k.
  const alias = device.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: 8 * TILE }, 'COMMON');
  alias.setName('buffer aliasing the texture heap');
  checks.push(
    ...(await step(rig, tex, 'copyBufferRegion into a placed buffer aliasing the pages of tiles 3 and 4', async () => {
      const data = texelBytes('R8G8B8A8_UNORM', 20000, rig.seed++);
      const upload = uploadBuffer(device, data);
      await runList(device, rig.queue, (list) => {
        list.copyBufferRegion(alias, 3 * TILE + 4000, upload, 0, 12000);
        list.copyBufferRegion(alias, 4 * TILE + 20000, upload, 12000, 8000);
      });
      upload.release();
      tex.model.tile(3).set(data.subarray(0, 12000), 4000);
      tex.model.tile(4).set(data.subarray(12000), 20000);
    })),
    // One step each: a dispatch that reads the texture (as the store's pipeline does) refills its
    // mirror's dropped tiles first, so a second store's submission would refill the first's.
    ...(await step(rig, tex, 'compute stores: d3d12_tex2d_store across the mip-0 tiles', () =>
      storeRect(rig, tex, 0, [120, 40, 16, 100], false),
    )),
    ...(await step(rig, tex, 'compute stores: raw d3d12_store into mip 1', () =>
      storeRect(rig, tex, 1, [10, 100, 50, 20], true),
    )),
    ...(await storeThenSample(
      rig,
      tex,
      'compute stores into mip-0 tile 3, sampled in the same submission',
      0,
      [130, 140, 40, 30],
    )),
    // Read through a descriptor view: Load, SampleLevel with a static sampler, Gather.
    ...(await step(
      rig,
      tex,
      'clearUnorderedAccessViewFloat of a mip-0 rectangle and clearUnorderedAccessViewUint of a mip-1 one',
      () => uavClears(rig, tex),
      { path: views ? 'view' : 'raw' },
    )),
  );

  // The mapping: tile 2 to a page of another heap holding other bytes and tile 0 to NULL, then both back.
  const other = heapOf(device, 1, 'other heap');
  const otherBuffer = device.createPlacedResource(other, 0, { dimension: 'BUFFER', width: TILE }, 'COMMON');
  const otherBytes = texelBytes('R8G8B8A8_UNORM', TILE, rig.seed++);
  const upload = uploadBuffer(device, otherBytes);
  await runList(device, rig.queue, (list) => list.copyBufferRegion(otherBuffer, 0, upload, 0, TILE));
  upload.release();
  const saved = [tex.model.tile(0).slice(), tex.model.tile(2).slice()] as const;
  const remap = async (what: string, change: () => void): Promise<void> => {
    context.beforeRemap(device);
    change();
    checks.push(...(await context.tileMappings(device, what)));
  };
  const away =
    'updateTileMappings: tile 2 to a page of another heap holding other bytes, tile 0 to NULL (reads 0, not fully mapped)';
  checks.push(
    ...(await step(
      rig,
      tex,
      away,
      () =>
        remap(away, () => {
          mapTiles(rig, tex, [2], other, 0);
          mapTiles(rig, tex, [0], null);
          tex.model.tile(2).set(otherBytes);
        }),
      { inPlace: false },
    )),
  );
  const back = 'updateTileMappings: tiles 0 and 2 back on their old pages (whose cached copies are still right)';
  const oldPages = getHeapPoolPagesForTesting(device, heap) ?? [];
  // The atlas keys copies by page, so the old pages' copies outlive the remap; a mirror keys them by
  // tile, and a remap drops the tile.
  if (!rig.mirrors)
    checks.push(
      await cacheCheck(
        rig,
        `${back}: before it, the old pages are still cached`,
        [oldPages[0], oldPages[2]] as number[],
        true,
      ),
    );
  checks.push(
    ...(await step(
      rig,
      tex,
      back,
      () =>
        remap(back, () => {
          mapTiles(rig, tex, [0], heap, 0);
          mapTiles(rig, tex, [2], heap, 2);
          tex.model.tile(0).set(saved[0]);
          tex.model.tile(2).set(saved[1]);
        }),
      { inPlace: false },
    )),
  );
  release(otherBuffer, other);
  checks.push(...(await bgra(rig, tex, heap)), ...(await pagingAndReuse(rig, tex, heap)));
  release(alias, tex.resource, tex.descriptor, heap);
  return checks;
}

/**
 * Reads are the mirror's: a texel written into the mirror alone (memory untouched) is what a load
 * of it returns; it is written back before anything else reads it.
 */
async function servedByMirror(rig: Rig, tex: Tex): Promise<Check> {
  const what = `${tex.name}: a load of a texel written into its mirror alone returns the mirror's bytes`;
  const truth = tex.model.word(0, 0, 0);
  const planted = (truth ^ 0x5a5a5a5a) >>> 0;
  if (!writeTextureMirrorTexelForTesting(rig.device, tex.resource, { mip: 0, x: 0, y: 0, word: planted }))
    return checkThat(what, false, 'the texture has no mirror');
  // Thread 0's first word: the load of mip-0 texel (0, 0).
  const loaded = (await sample(rig, tex))[0];
  writeTextureMirrorTexelForTesting(rig.device, tex.resource, { mip: 0, x: 0, y: 0, word: truth });
  return checkThat(what, loaded === planted, `read ${loaded?.toString(16)}, planted ${planted.toString(16)}`);
}

/** A Float clear of a mip-0 rectangle and a Uint clear of a mip-1 one; the model follows. */
async function uavClears(rig: Rig, tex: Tex): Promise<void> {
  const clears = [
    { mip: 0, rect: { left: 30, top: 200, right: 230, bottom: 240 }, word: rgba8(51, 102, 153, 204) },
    { mip: 1, rect: { left: 100, top: 0, right: 128, bottom: 30 }, word: rgba8(1, 2, 3, 250) },
  ] as const;
  const view = (mip: number) => ({ mipSlice: mip, firstArraySlice: 0, arraySize: 1 });
  await runList(rig.device, rig.queue, (list) => {
    const transition = (stateBefore: 'COMMON' | 'UNORDERED_ACCESS', stateAfter: 'COMMON' | 'UNORDERED_ACCESS') =>
      list.resourceBarrier([{ type: 'TRANSITION', transition: { resource: tex.resource, stateBefore, stateAfter } }]);
    transition('COMMON', 'UNORDERED_ACCESS');
    list.clearUnorderedAccessViewFloat(tex.resource, [0.2, 0.4, 0.6, 0.8], [clears[0].rect], view(0));
    list.clearUnorderedAccessViewUint(tex.resource, [1, 2, 3, 250], [clears[1].rect], view(1));
    transition('UNORDERED_ACCESS', 'COMMON');
  });
  for (const { mip, rect, word } of clears)
    for (let y = rect.top; y < rect.bottom; y++)
      for (let x = rect.left; x < rect.right; x++) tex.model.setWord(mip, x, y, word);
}

/** Whether some of `pages` are among `of`, as a check. */
const takes = (name: string, pages: number[], of: number[], what: string): Check =>
  checkThat(
    name,
    pages.some((page) => of.includes(page)),
    `${what}: pool pages ${of.join(', ')}; got ${pages.join(', ')}`,
  );

/**
 * Paging and heap reuse, on the pages of the texture's heap: the heap evicted; another heap takes
 * its pages, is written, sampled until cached and released; a new heap takes them, zeroed (a
 * texture mapping it reads 0), is sampled until cached and released; the heap is made resident
 * again, onto pages whose cached copies hold those zeros.
 */
async function pagingAndReuse(rig: Rig, tex: Tex, heap: Heap): Promise<Check[]> {
  const { device } = rig;
  const paging = 'evict, other heaps written on its pages and released, makeResident';
  const reuse = 'a heap released and its pages zeroed for a new heap that a texture maps';
  const checks = [await hot(rig, tex, paging)];
  const old = getHeapPoolPagesForTesting(device, heap) ?? [];
  device.evict([heap]);
  await flush(device, rig.queue);
  const first = heapOf(device, TEXTURE_TILES, 'heap written while the texture heap is evicted');
  const firstPages = getHeapPoolPagesForTesting(device, first) ?? [];
  checks.push(takes(`${paging}: another heap takes the evicted heap's pages`, firstPages, old, 'evicted'));
  const written = reservedTexture(rig, 'texture in the heap to release', 'R8G8B8A8_UNORM', first);
  await copyTilesIn(rig, written, 0, texelBytes('R8G8B8A8_UNORM', TEXTURE_TILES * TILE, rig.seed++));
  checks.push(...(await afterWrite(rig, written, `${reuse}: the first heap's texture filled`)));
  release(written.resource, written.descriptor, first);

  const second = heapOf(device, TEXTURE_TILES, 'new heap on the released pages');
  const secondPages = getHeapPoolPagesForTesting(device, second) ?? [];
  checks.push(
    takes(`${reuse}: the new heap takes the released heap's pages`, secondPages, firstPages, 'released'),
    await cacheCheck(rig, `${reuse}: zeroing the new heap dropped the cached copies of its pages`, secondPages, false),
  );
  const zeroed = reservedTexture(rig, 'texture in the new heap', 'R8G8B8A8_UNORM', second);
  checks.push(...(await afterWrite(rig, zeroed, reuse)));
  const zeroPages = pagesOf(rig, zeroed);
  release(zeroed.resource, zeroed.descriptor, second);

  device.makeResident([heap]);
  const restored = pagesOf(rig, tex);
  checks.push(
    takes(
      `${paging}: the heap comes back on pages whose cached copies hold zeros`,
      restored,
      zeroPages,
      'cached zeros',
    ),
    await cacheCheck(rig, `${paging}: the restore dropped the cached copies of the pages it wrote`, restored, false),
    ...(await afterWrite(rig, tex, paging)),
  );
  return checks;
}

/**
 * A BGRA8 texture mapped onto the RGBA8 texture's pages: hot at once (the cache holds pages, not
 * textures), channels swapped, then written by a box copy; the RGBA8 texture's model follows.
 */
async function bgra(rig: Rig, rgba: Tex, heap: Heap): Promise<Check[]> {
  const tex = reservedTexture(rig, "BGRA8 texture on the RGBA8 texture's pages", 'B8G8R8A8_UNORM', heap);
  tex.model.bytes.set(rgba.model.bytes);
  // A page links to one mirror tile: with mirrors, the RGBA8 texture's mirror holds these pages and
  // the BGRA8 texture reads memory (hot only with the atlas, which holds pages, not textures).
  const checks = await step(
    rig,
    tex,
    'BGRA8 texture on the same pages: copyTextureRegion of a box across the mip-0 tiles',
    () => copyBox(rig, tex, 0, [64, 100, 128, 60]),
    { hot: !rig.mirrors },
  );
  rgba.model.bytes.set(tex.model.bytes);
  release(tex.resource, tex.descriptor);
  return checks;
}

/** R32_FLOAT, a format the cache does not serve: never cached, read right. */
async function control(rig: Rig): Promise<Check[]> {
  const heap = heapOf(rig.device, TEXTURE_TILES, 'R32_FLOAT heap');
  const float = reservedTexture(rig, 'R32_FLOAT texture', 'R32_FLOAT', heap);
  await copyTilesIn(rig, float, 0, texelBytes('R32_FLOAT', TEXTURE_TILES * TILE, rig.seed++));
  const what = 'R32_FLOAT texture (a format the cache does not serve)';
  const checks = [
    await memoryCheck(rig, float, what),
    ...sampleChecks(`${what}: sampled`, await sample(rig, float), float.model, false),
    ...sampleChecks(`${what}: sampled again`, await sample(rig, float), float.model, false),
    await cacheCheck(rig, `${what}: none of its pages is cached`, pagesOf(rig, float), false),
  ];
  release(float.resource, float.descriptor, heap);
  return checks;
}

/** A texture placed in CUSTOM write-combine memory, written by the CPU through a buffer aliasing it. */
async function cpuWrites(rig: Rig): Promise<Check[]> {
  const { device } = rig;
  const bytes = TEXTURE_TILES * TILE;
  const heap = heapOf(device, TEXTURE_TILES, 'CPU-visible heap', {
    type: 'CUSTOM',
    cpuPageProperty: 'WRITE_COMBINE',
    memoryPoolPreference: 'L0',
  });
  const tex = placedTexture(rig, 'RGBA8 texture in CUSTOM memory', 'R8G8B8A8_UNORM', heap, 0);
  const alias = device.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: bytes }, 'COMMON');
  alias.setName('buffer aliasing the CUSTOM texture');
  const data = texelBytes('R8G8B8A8_UNORM', bytes, rig.seed++);
  alias.map().set(data);
  alias.unmap();
  tex.model.bytes.set(data);
  const checks = await afterWrite(rig, tex, 'texture in CUSTOM memory filled through map()', 'raw', alias);
  checks.push(
    ...(await step(
      rig,
      tex,
      'CPU writes through map() of the aliasing buffer into tiles 1 and 4',
      async () => {
        const written = texelBytes('R8G8B8A8_UNORM', 30000, rig.seed++);
        const view = alias.map();
        view.set(written.subarray(0, 10000), TILE + 5000);
        view.set(written.subarray(10000), 4 * TILE + 100);
        alias.unmap(0, { begin: TILE + 5000, end: 4 * TILE + 20100 });
        tex.model.tile(1).set(written.subarray(0, 10000), 5000);
        tex.model.tile(4).set(written.subarray(10000), 100);
        // CPU writes reach the pages with the next submission (a copy: no shader, no refill).
        await runList(device, rig.queue, (list) => list.copyBufferRegion(rig.readback, 0, alias, 0, 4));
      },
      { alias },
    )),
  );
  release(alias, tex.resource, tex.descriptor, heap);
  return checks;
}

/**
 * Devices with other caches read the same values: none (textureCacheBytes: 0: no slots, nothing
 * cached), and 2 slots for the texture's 5 pages, so each fill takes slots from pages cached by the
 * one before (round robin) and must withdraw their tags.
 */
async function cacheSizes(gpuDevice: GPUDevice): Promise<Check[]> {
  const checks: Check[] = [];
  for (const slots of [0, 2]) {
    const rig = await createRig(gpuDevice, { textureCacheBytes: slots * TILE, views: false });
    try {
      const what = slots === 0 ? 'textureCacheBytes: 0' : `a cache of ${slots} slots for ${TEXTURE_TILES} pages`;
      const heap = heapOf(rig.device, TEXTURE_TILES, `heap (${what})`);
      const tex = reservedTexture(rig, `RGBA8 texture (${what})`, 'R8G8B8A8_UNORM', heap);
      await copyTilesIn(rig, tex, 0, texelBytes('R8G8B8A8_UNORM', TEXTURE_TILES * TILE, rig.seed++));
      checks.push(await memoryCheck(rig, tex, what));
      for (const when of slots === 0 ? ['sampled'] : ['sampled', 'sampled again', 'sampled a third time'])
        checks.push(...sampleChecks(`${what}: ${when}`, await sample(rig, tex), tex.model, false));
      const cache = await readTextureCacheForTesting(rig.device);
      const pages = pagesOf(rig, tex);
      checks.push(
        checkThat(
          slots === 0 ? `${what}: no slots, nothing cached` : `${what}: ${slots} slots, holding ${slots} of its pages`,
          cache.slots === slots &&
            cache.cachedPages.length === slots &&
            cache.cachedPages.every((page) => pages.includes(page)),
          `${JSON.stringify(cache)}; the texture's pages ${pages.join(', ')}`,
        ),
      );
    } finally {
      rig.device.destroy();
    }
  }
  return checks;
}

export interface TextureCacheOptions {
  /**
   * Also read through a descriptor view (the UAV clears' step) and on devices with other caches
   * (none, and 2 slots): the default. runScenarios leaves them out: they add a pipeline and two
   * devices, and no write path (the gpu and browser test projects run them).
   */
  viewsAndCacheSizes?: boolean;
}

export async function textureCache(
  gpuDevice: GPUDevice,
  { viewsAndCacheSizes = true }: TextureCacheOptions = {},
  context = new ScenarioContext(),
): Promise<Check[]> {
  const checks = await writesAndReads(gpuDevice, false, viewsAndCacheSizes, context);
  if (viewsAndCacheSizes) checks.push(...(await cacheSizes(gpuDevice)));
  return checks;
}

/**
 * The same write paths, reads and checks on a device whose reads are served by texture mirrors
 * (src/gpu/texture-mirrors.ts; no atlas): the rig's sampling shader reads its texture through the
 * descriptor its root SRV holds, which each dispatch resolves to the texture's mirror, so every
 * sample of a valid tile is a hardware read of the mirror, and a tile a write left valid would read
 * stale texels. "Cached" is a page linked to a valid mirror tile.
 */
export async function textureMirrors(
  gpuDevice: GPUDevice,
  { viewsAndCacheSizes = true }: TextureCacheOptions = {},
  context = new ScenarioContext(),
): Promise<Check[]> {
  return writesAndReads(gpuDevice, true, viewsAndCacheSizes, context);
}

async function writesAndReads(
  gpuDevice: GPUDevice,
  mirrors: boolean,
  viewsAndCacheSizes: boolean,
  context: ScenarioContext,
): Promise<Check[]> {
  const rig = await createRig(gpuDevice, { views: viewsAndCacheSizes, mirrors });
  const checks: Check[] = [];
  try {
    checks.push(
      ...(await writePaths(rig, viewsAndCacheSizes, context)),
      ...(await control(rig)),
      ...(await cpuWrites(rig)),
    );
    const faults = await rig.device.readFaults();
    checks.push(
      checkThat('no faults', faults.length === 0, `${faults.length} fault(s); first: ${faults[0]?.message ?? ''}`),
    );
    if (rig.device.getDeviceRemovedReason() !== 'S_OK')
      throw new Error(`the device was removed (${rig.device.getDeviceRemovedReason()})`);
  } finally {
    rig.device.destroy();
  }
  return checks;
}
