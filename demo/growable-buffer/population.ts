/**
 * The instance count the scene follows, step by step: first REFERENCE.md's worked example (40 MiB,
 * then 300 tiles, then 400 tiles), then a seeded random walk with bursts and crashes, so the same
 * URL always replays the same resizes.
 */
import { TILE_SIZE } from '../../src/index.js';
import { Random } from '../../src/validate/random.js';

export const INSTANCE_BYTES = 32;
export const INSTANCES_PER_TILE = TILE_SIZE / INSTANCE_BYTES;
/** The reserved buffer's virtual size: UE's GPUScene reserves 2 GiB per buffer. */
export const RESERVED_BYTES = 2 * 2 ** 30;

const WORKED_EXAMPLE_TILES = [640, 300, 400];

export function tilesFor(count: number): number {
  return Math.ceil((count * INSTANCE_BYTES) / TILE_SIZE);
}

export class Population {
  /** The project's one seeded generator: the same walk for the same seed, in every browser. */
  private readonly generator: Random;
  private count = 0;

  constructor(
    seed: number,
    /** The most instances the walk reaches. */
    readonly maxCount: number,
  ) {
    this.generator = new Random(seed);
  }

  /** A uniform number in [0, 1). */
  private random(): number {
    return this.generator.float();
  }

  /** The count at `step` (steps are taken in order). */
  next(step: number): number {
    const example = WORKED_EXAMPLE_TILES[step];
    if (example !== undefined) {
      this.count = example * INSTANCES_PER_TILE;
      return this.count;
    }
    const roll = this.random();
    let factor = 0.75 + this.random() * 0.6;
    if (roll < 0.12)
      factor = 0.2 + this.random() * 0.3; // a crash: most instances die at once
    else if (roll > 0.88) factor = 1.6 + this.random() * 0.8; // a burst
    const drift = Math.floor((this.random() - 0.5) * INSTANCES_PER_TILE * 8);
    this.count = Math.max(INSTANCES_PER_TILE, Math.min(this.maxCount, Math.floor(this.count * factor) + drift));
    return this.count;
  }
}
