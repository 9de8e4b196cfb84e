/**
 * TextureMirrors: per texture whose descriptor was written (writeTextureDescriptor), a real texture
 * holding its standard mips, so that compute shaders reading it through a root descriptor the
 * dispatch resolves get the texture units' loads and trilinear filtering with no descriptor read
 * and no per-texel translation (shaders/prelude/texture-mirrors.wgsl says what is served and how;
 * docs/texture-cache.md why).
 *
 * GPU objects: the validity words (one per mirrored tile, in ranges per mirror); the table (per
 * mirror its descriptor words, validity base and mips); the resolution ("clean" and "summaries"
 * words, then four records per resolution set of a submission, which its pre-pass writes); the
 * mirrors' textures; the resolve pre-pass (shaders/texture_mirror_resolve.wgsl). Page links live in
 * the texture cache's tags (y).
 *
 * Invariants (the CPU side; src/memory/mirror-tiles.ts keeps the per-tile account):
 *   - a validity word is 1 only while its tile holds the bytes of the pool page the page table maps
 *     at that tile now: prepare() fills tiles (copy, then word and link, all queued before the
 *     submission) and drops tiles whose entry changed; pagesWritten() drops tiles whose page a queue
 *     write reached, in queue order; stores drop them on the GPU and report them (reportStale);
 *   - a validity range or table entry is zeroed or rewritten before a new mirror uses it;
 *   - the records of a set are written by its pre-pass before any dispatch of the set reads them,
 *     and the clean and summaries words are set to 1 before each submission that resolves anything
 *     (a store that drops a tile clears "summaries": the records' summaries, taken by their
 *     pre-passes, then no longer stand for the tiles).
 */
import resolveWgsl from '../../shaders/texture_mirror_resolve.wgsl?raw';
import { MirrorLinks, MirrorRanges, mirrorTiles, MirrorTileState, type MirrorTile } from '../memory/mirror-tiles.js';
import { TILE_SIZE, type ResourceLayout } from '../memory/tiling.js';
import type { PageTableMirror } from './page-table.js';
import { kernelPipelineNow } from './pipelines.js';
import {
  encodeMirrorPlan,
  TILE_ROW_BYTES,
  TILE_ROWS,
  writeLink,
  type MirrorFillTarget,
} from './texture-mirror-fills.js';
import { memberOffset, preludeConstant, preludeLayout } from './prelude.js';
import { readBufferForTesting } from './texture-cache.js';

/** Mirrors a dispatch binds (d3d12_mirror_0..3) and descriptor addresses it resolves. */
const MIRROR_SLOTS = 4;
/** Table entries: mirrors alive at once. */
const MAX_MIRRORS = 64;
/** Resolution sets in one submission (past this, dispatches resolve nothing and read memory). */
const MAX_SETS = 1024;
const NONE = 0xffffffff;

/** The default mirror budget on a GPU adapter: 256 MiB of mirrored tiles. */
export const DEFAULT_TEXTURE_MIRROR_BYTES = 256 * 2 ** 20;

/** What a mirror needs of its texture (the emulator's resource, seen from this layer). */
export interface MirrorSource {
  label: string;
  width: number;
  height: number;
  layout: ResourceLayout;
  /** The first 64 KiB page of its virtual address range (its tile t is page firstPage + t). */
  firstPage: number;
  /** Whether it was released (its mirror is then dropped). */
  released(): boolean;
}

interface Mirror {
  /** The resource it mirrors (the map's key). */
  key: object;
  source: MirrorSource;
  /** Its table entry. */
  entry: number;
  texture: GPUTexture;
  view: GPUTextureView;
  words: Uint32Array;
  tiles: MirrorTile[];
  state: MirrorTileState;
  /** Whether WebGPU made its texture (checked in error scopes): until then no set binds it. */
  ready: boolean;
}

/** A dispatch's resolution set: the mirrors it binds and the addresses it resolves. */
export interface MirrorSet {
  /** Its first record + 1 (1 + 4 × its index in the submission): D3D12DispatchInfo.mirror_set. */
  index: number;
  key: string;
  mirrors: Mirror[];
  /** mirror_ids and mirror_addresses as D3D12DispatchInfo holds them. */
  ids: Uint32Array;
  addresses: Uint32Array;
  /** Set while encoding: the set's bind group, and whether its pre-pass ran. */
  group?: GPUBindGroup;
  resolved?: boolean;
}

const readers = new WeakSet<GPUComputePipeline>();

/** Marks `pipeline` as one whose code opens textures (its dispatches get resolution sets). */
export function markReadsTextures(pipeline: GPUComputePipeline): void {
  readers.add(pipeline);
}

export class TextureMirrors implements MirrorFillTarget {
  readonly valid: GPUBuffer;
  readonly table: GPUBuffer;
  readonly resolved: GPUBuffer;
  private readonly placeholder: GPUTextureView;
  private readonly placeholderTexture: GPUTexture;
  private readonly links: MirrorLinks;
  /** Live mirrors by resource, most recently described last. */
  private readonly mirrors = new Map<object, Mirror>();
  private readonly freeEntries: number[] = [];
  /** Free validity words. */
  private readonly ranges: MirrorRanges;
  private readonly maxTiles: number;
  private readonly entryWords = preludeLayout().mirrorEntry.size / 4;
  /** maxTextureDimension2D, read once (Dawn's Node.js binding builds `limits` anew at each read). */
  private readonly maxSide: number;
  /** This submission's sets, by key. */
  private sets = new Map<string, MirrorSet>();
  /** Pool pages this submission's pre-passes may watch (their descriptors' pages). */
  private readonly watched = new Set<number>();
  /** The mirrors a set binds now (the most recently described first), until a mirror comes or goes. */
  private bound: Mirror[] | undefined;
  private readonly formats = new Map<number, GPUTextureFormat>([
    [preludeConstant('D3D12_TEXEL_RGBA8_UNORM'), 'rgba8unorm'],
    [preludeConstant('D3D12_TEXEL_BGRA8_UNORM'), 'bgra8unorm'],
  ]);

  constructor(
    readonly device: GPUDevice,
    readonly pool: GPUBuffer,
    readonly tags: GPUBuffer,
    poolPages: number,
    /** Bytes of mirrored tiles at most (a multiple of 64 KiB); 0: no mirrors. */
    readonly budgetBytes: number,
    private readonly pageTable: PageTableMirror,
    create: (descriptor: GPUBufferDescriptor) => GPUBuffer,
  ) {
    this.maxTiles = Math.floor(budgetBytes / TILE_SIZE);
    this.ranges = new MirrorRanges(this.maxTiles);
    this.maxSide = device.limits.maxTextureDimension2D;
    for (let entry = MAX_MIRRORS - 1; entry >= 0; entry--) this.freeEntries.push(entry);
    this.links = new MirrorLinks(poolPages);
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    this.valid = create({ label: 'd3d12 texture mirror validity', size: Math.max(4, this.maxTiles * 4), usage });
    this.table = create({
      label: 'd3d12 texture mirror table',
      size: (this.maxTiles > 0 ? MAX_MIRRORS : 1) * this.entryWords * 4,
      usage,
    });
    const { mirrorResolution, mirrorRecord } = preludeLayout();
    this.resolved = create({
      label: 'd3d12 texture mirror resolution',
      size: memberOffset(mirrorResolution, 'records') + MIRROR_SLOTS * MAX_SETS * mirrorRecord.size,
      usage,
    });
    this.placeholderTexture = device.createTexture({
      label: 'd3d12 texture mirror (none)',
      size: [1, 1, 1],
      format: 'rgba8unorm',
      usage: GPUTextureUsage.TEXTURE_BINDING,
    });
    this.placeholder = this.placeholderTexture.createView();
  }

  get enabled(): boolean {
    return this.maxTiles > 0;
  }

  /**
   * `resource`'s descriptor `words` were written (writeTextureDescriptor): it gets a mirror when it
   * can have one (an RGBA8 or BGRA8 2D texture of 128 × 128 tiles, within the budget), and becomes
   * the most recently described.
   */
  described(key: object, source: MirrorSource, words: Uint32Array): void {
    if (!this.enabled) return;
    this.collect();
    const known = this.mirrors.get(key);
    this.bound = undefined;
    if (known) {
      this.mirrors.delete(key);
      this.mirrors.set(key, known);
      if (!sameWords(known.words, words)) this.writeEntry(known, words);
      return;
    }
    const format = this.formats.get(words[preludeConstant('D3D12_TEX2D_FORMAT')] ?? NONE);
    const { layout } = source;
    if (
      !format ||
      layout.tileShape.widthInTexels !== TILE_ROW_BYTES / 4 ||
      layout.tileShape.heightInTexels !== TILE_ROWS ||
      layout.numStandardMips === 0 ||
      Math.max(source.width, source.height) > this.maxSide ||
      this.freeEntries.length === 0
    )
      return;
    const tiles = mirrorTiles(layout);
    const range = this.ranges.allocate(tiles.length);
    if (range < 0) return;
    const entry = this.freeEntries.pop() as number;
    // A texture WebGPU refuses (out of memory) would make every submission that binds it invalid:
    // the mirror is bound only once its scopes came back empty, and dropped if they did not.
    this.device.pushErrorScope('out-of-memory');
    this.device.pushErrorScope('validation');
    const texture = this.device.createTexture({
      label: `d3d12 texture mirror of ${source.label}`,
      size: [source.width, source.height, 1],
      mipLevelCount: layout.numStandardMips,
      format,
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
    });
    const mirror: Mirror = {
      key,
      source,
      entry,
      texture,
      view: texture.createView(),
      // writeEntry keeps its own copy.
      words,
      tiles,
      state: new MirrorTileState(tiles.length, range),
      ready: false,
    };
    const errors = [this.device.popErrorScope(), this.device.popErrorScope()];
    void Promise.all(errors).then(
      ([validation, memory]) => {
        if (this.mirrors.get(key) !== mirror) return;
        if (validation || memory) this.remove(mirror);
        else {
          mirror.ready = true;
          this.bound = undefined;
        }
      },
      () => undefined,
    );
    // The range may hold an old mirror's words: none of its tiles is valid yet.
    this.device.queue.writeBuffer(this.valid, range * 4, new Uint32Array(tiles.length));
    this.writeEntry(mirror, words);
    this.mirrors.set(key, mirror);
  }

  private writeEntry(mirror: Mirror, words: Uint32Array): void {
    mirror.words = words.slice();
    const layout = preludeLayout().mirrorEntry;
    const data = new Uint32Array(this.entryWords);
    data.set(words.subarray(0, memberOffset(layout, 'valid_base') / 4));
    data[memberOffset(layout, 'valid_base') / 4] = mirror.state.base;
    data[memberOffset(layout, 'mips') / 4] = mirror.source.layout.numStandardMips;
    this.device.queue.writeBuffer(this.table, mirror.entry * this.entryWords * 4, data);
  }

  /** Drops the mirrors of released resources: their pages' links go, their ranges and entries are free. */
  private collect(): void {
    for (const mirror of this.mirrors.values()) if (mirror.source.released()) this.remove(mirror);
  }

  private remove(mirror: Mirror): void {
    for (let tile = 0; tile < mirror.state.count; tile++) {
      if (mirror.state.filled[tile] === 0) continue;
      const page = mirror.state.drop(tile, this.poolPageOf, this.links);
      if (page >= 0) this.writeLink(page, 0);
    }
    this.mirrors.delete(mirror.key);
    this.bound = undefined;
    this.ranges.release(mirror.state.base, mirror.state.count);
    this.freeEntries.push(mirror.entry);
    mirror.texture.destroy();
  }

  /** The pool page a RESIDENT entry names, or -1 (a field: the tile plans take it as a callback). */
  private readonly poolPageOf = (entry: number): number => {
    const word = this.pageTable.encoding.residentWordBase(entry);
    return word < 0 ? -1 : word / (TILE_SIZE / 4);
  };

  private writeLink(page: number, link: number): void {
    writeLink(this, page, link);
  }

  /** Whether dispatches of `pipeline` get resolution sets. */
  serves(pipeline: GPUComputePipeline): boolean {
    return this.mirrors.size > 0 && readers.has(pipeline);
  }

  /** Starts a submission's planning: no sets yet. */
  beginSubmission(): void {
    this.sets = new Map();
    // Released resources' mirrors go before the submission picks from them.
    if (this.bound?.some((mirror) => mirror.source.released())) this.bound = undefined;
  }

  /**
   * The resolution set of a dispatch whose root descriptors are `addresses`: the most recently
   * described mirrors, and the first MIRROR_SLOTS addresses. Undefined past MAX_SETS sets.
   */
  setFor(addresses: readonly bigint[]): MirrorSet | undefined {
    if (!this.bound) {
      this.collect();
      this.bound = [...this.mirrors.values()]
        .filter((mirror) => mirror.ready)
        .slice(-MIRROR_SLOTS)
        .reverse();
    }
    const mirrors = this.bound;
    const chosen = addresses.slice(0, MIRROR_SLOTS);
    const key = `${mirrors.map((m) => m.entry).join(',')}|${chosen.join(',')}`;
    const known = this.sets.get(key);
    if (known) return known;
    if (this.sets.size >= MAX_SETS || mirrors.length === 0 || chosen.length === 0) return undefined;
    const ids = new Uint32Array(MIRROR_SLOTS).fill(NONE);
    mirrors.forEach((mirror, slot) => (ids[slot] = mirror.entry));
    const words = new Uint32Array(2 * MIRROR_SLOTS).fill(NONE);
    chosen.forEach((address, i) => {
      words[2 * i] = Number(address & 0xffffffffn);
      words[2 * i + 1] = Number(address >> 32n);
    });
    const set: MirrorSet = { index: 1 + 4 * this.sets.size, key, mirrors, ids, addresses: words };
    this.sets.set(key, set);
    return set;
  }

  /**
   * Before a submission whose dispatches use this submission's sets: the clean word is set, and
   * each bound mirror drops the tiles whose mapping changed or a store made stale and fills the
   * tiles it can (copies encoded into `encoder`, before any pass; words and links queued now).
   */
  prepare(encoder: GPUCommandEncoder): void {
    if (this.sets.size === 0) return;
    // clean and summaries (D3D12MirrorResolution's first two words).
    this.device.queue.writeBuffer(this.resolved, 0, new Uint32Array([1, 1]));
    this.unwatch();
    const bound = new Set<Mirror>();
    for (const set of this.sets.values()) for (const mirror of set.mirrors) bound.add(mirror);
    for (const mirror of bound) {
      const { state } = mirror;
      const entries = this.pageTable.peekEntries(mirror.source.firstPage, state.count);
      const plan = state.plan(entries, this.poolPageOf, this.links);
      encodeMirrorPlan(this, encoder, { texture: mirror.texture, tiles: mirror.tiles, base: state.base }, plan);
    }
  }

  /**
   * Clears the watch bits earlier pre-passes may have set on the pages of the descriptors they
   * resolved (their links are rewritten as this side knows them), and notes this submission's: a
   * watch bit left from an earlier submission would let a store there, before this submission's
   * pre-pass, send all of this submission's opens to memory. A link this side still holds though a
   * store cleared it on the GPU comes back with its tile's word at 0: a later store clears that
   * word again, and the tile's stale report refills it.
   */
  private unwatch(): void {
    for (const page of this.watched) {
      const owner = this.links.ownerOf(page);
      this.writeLink(page, owner < 0 ? 0 : owner + 1);
    }
    this.watched.clear();
    for (const set of this.sets.values())
      for (let i = 0; i < MIRROR_SLOTS; i++) {
        const low = set.addresses[2 * i] as number;
        const high = set.addresses[2 * i + 1] as number;
        if (low === NONE && high === NONE) continue;
        const page = this.poolPageOf(this.pageTable.entryAt(high * 2 ** 16 + (low >>> 16)));
        if (page >= 0) this.watched.add(page);
      }
  }

  /** Group 0's mirror bindings (9 to 15) for `set` (placeholders in empty slots, or for no set). */
  bindings(set?: MirrorSet): GPUBindGroupEntry[] {
    const views: GPUTextureView[] = [];
    for (let slot = 0; slot < MIRROR_SLOTS; slot++) views.push(set?.mirrors[slot]?.view ?? this.placeholder);
    return [
      { binding: 9, resource: { buffer: this.valid } },
      { binding: 10, resource: { buffer: this.table } },
      { binding: 11, resource: { buffer: this.resolved } },
      ...views.map((view, slot) => ({ binding: 12 + slot, resource: view })),
    ];
  }

  /** The resolve pre-pass's pipeline (over the compute prelude). */
  resolvePipeline(unmappedAccess: boolean): GPUComputePipeline {
    return kernelPipelineNow(
      this.device,
      'texture mirror resolve',
      resolveWgsl,
      'd3d12_mirror_resolve',
      unmappedAccess,
    );
  }

  /**
   * Queue writes changed pool pages `first` to `first + count - 1` (pool-wide numbers): the tiles
   * filled from them are dropped, their words and links cleared in queue order. Call at once after
   * queueing the writes.
   */
  pagesWritten(first: number, count: number): void {
    if (this.mirrors.size === 0) return;
    for (let page = first; page < first + count; page++) {
      const global = this.links.ownerOf(page);
      if (global < 0) continue;
      const found = this.tileOf(global);
      if (!found) continue;
      found.mirror.state.drop(found.tile, this.poolPageOf, this.links);
      this.device.queue.writeBuffer(this.valid, global * 4, new Uint32Array(1));
      this.writeLink(page, 0);
    }
  }

  /** Stores made these tiles (global validity indices) stale; `overflow`: more were, unnamed. */
  reportStale(tiles: ArrayLike<number>, overflow: boolean): void {
    if (overflow) {
      for (const mirror of this.mirrors.values()) mirror.state.stale.fill(1);
      return;
    }
    for (let i = 0; i < tiles.length; i++) {
      const found = this.tileOf(tiles[i] as number);
      if (found) found.mirror.state.stale[found.tile] = 1;
    }
  }

  private tileOf(global: number): { mirror: Mirror; tile: number } | undefined {
    for (const mirror of this.mirrors.values()) {
      const tile = global - mirror.state.base;
      if (tile >= 0 && tile < mirror.state.count) return { mirror, tile };
    }
    return undefined;
  }

  /** The pool pages that link to a mirror tile whose validity word is 1, after the work submitted so far. */
  async mirroredPagesForTesting(): Promise<number[]> {
    const [tags, valid] = await Promise.all([
      readBufferForTesting(this.device, this.tags),
      readBufferForTesting(this.device, this.valid),
    ]);
    const pages: number[] = [];
    for (let page = 0; 2 * page + 1 < tags.length; page++) {
      const link = ((tags[2 * page + 1] as number) & 0x7fffffff) >>> 0;
      if (link !== 0 && valid[link - 1] === 1) pages.push(page);
    }
    return pages;
  }

  /**
   * Writes the 4 bytes `word` (little-endian, as memory holds a texel) into texel (x, y) of mip
   * `mip` of `key`'s mirror alone, memory untouched (a read that returns them was served by the
   * mirror); false when it has no mirror.
   */
  writeTexelForTesting(key: object, mip: number, x: number, y: number, word: number): boolean {
    const mirror = this.mirrors.get(key);
    if (!mirror) return false;
    this.device.queue.writeTexture(
      { texture: mirror.texture, mipLevel: mip, origin: { x, y } },
      new Uint32Array([word]),
      { bytesPerRow: 4 },
      { width: 1, height: 1 },
    );
    return true;
  }

  destroy(): void {
    this.valid.destroy();
    this.table.destroy();
    this.resolved.destroy();
    this.placeholderTexture.destroy();
    for (const mirror of this.mirrors.values()) mirror.texture.destroy();
    this.mirrors.clear();
  }
}

function sameWords(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
