/**
 * What one frame of the sample did, as the page's panel, the snapshot's history and the tests read
 * it: what its command list drew (recorded by populateCommandList) and the residency facts measured
 * right after the residency manager's executeCommandLists (not in the sample, which shows only the
 * window title's numbers).
 */
import type { Device, ResidencyStats, Resource } from '../../src/index.js';
import type { Grid } from './grid.js';
import type { ManagedTexture } from './texture-loader.js';

/** One frame, as the browser tests and the JSON read it. */
export interface ResidencyFrame {
  frame: number;
  /** The back buffer's size and the grid drawn into it. */
  width: number;
  height: number;
  grid: Grid;
  /** Textures loaded when the list was recorded (the sample's LoadedTextureCount()). */
  loaded: number;
  /** The first texture of the window (m_textureIndex when the list was recorded). */
  windowStart: number;
  /** The textures the list drew, in draw order (each inserted into the list's residency set), and their bytes. */
  drawn: number[];
  drawnBytes: number;
  /** LOCAL budget and usage when the list was recorded, and usage right after the manager's executeCommandLists. */
  budget: number;
  usageBefore: number;
  usage: number;
  /** The manager's counters for this frame's batch. */
  evictions: number;
  madeResident: number;
  overBudget: boolean;
  /** Drawn textures that were not resident right after the manager's executeCommandLists (should be none). */
  drawnNotResident: number[];
  /** Drawn textures the emulated OS had demoted to NON_LOCAL memory then. */
  drawnDemoted: number[];
  /** Loaded textures resident after the frame's batch, and those of them the emulated OS had demoted to NON_LOCAL. */
  resident: number;
  demoted: number;
  /** NON_LOCAL usage right after the manager's executeCommandLists. */
  nonLocalUsage: number;
  /** What the manager reported when the batch did not fit (null when it did). */
  overBudgetBy: { segment: string; usage: number; budget: number } | null;
}

/** What populateCommandList records of its frame; the rest of the ResidencyFrame comes after execution. */
export type RecordedFrame = Pick<
  ResidencyFrame,
  'frame' | 'width' | 'height' | 'grid' | 'loaded' | 'windowStart' | 'drawn' | 'drawnBytes' | 'budget' | 'usageBefore'
>;

/**
 * The frame's residency facts, right after the manager's executeCommandLists: `before` and `after`
 * are the manager's stats around that call, `loadedTextures` the sample's m_loadedTextures.
 */
export function measureFrame(
  device: Device,
  recorded: RecordedFrame,
  before: ResidencyStats,
  after: ResidencyStats,
  loadedTextures: readonly (ManagedTexture | null)[],
): ResidencyFrame {
  const drawnNotResident: number[] = [];
  const drawnDemoted: number[] = [];
  for (const k of recorded.drawn) {
    const status = device.getResidencyStatus(loadedTextures[k]?.texture as Resource);
    if (!status.resident) drawnNotResident.push(k);
    else if (status.demoted) drawnDemoted.push(k);
  }
  let resident = 0;
  let demoted = 0;
  for (const t of loadedTextures) {
    if (!t?.texture) continue;
    const status = device.getResidencyStatus(t.texture);
    if (status.resident) resident++;
    if (status.resident && status.demoted) demoted++;
  }
  const overBudget = after.overBudgetBatches > before.overBudgetBatches;
  return {
    ...recorded,
    usage: device.queryVideoMemoryInfo('LOCAL').currentUsage,
    evictions: after.evictions - before.evictions,
    madeResident: after.madeResident - before.madeResident,
    overBudget,
    drawnNotResident,
    drawnDemoted,
    resident,
    demoted,
    nonLocalUsage: device.queryVideoMemoryInfo('NON_LOCAL').currentUsage,
    overBudgetBy: overBudget ? after.lastOverBudget : null,
  };
}
