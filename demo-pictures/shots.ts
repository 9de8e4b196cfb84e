/**
 * What `npm run demo:pictures` photographs for each scene: the page's URL parameters (a fixed view,
 * a small fixed frame count, so SwiftShader finishes in seconds and the picture is the same at every
 * run), how the script knows the page has finished, what it captures, and at what scale:
 *   canvas  the scene's #scene-canvas, sized by the URL parameters width and height, on a desktop's
 *           width (the side panel beside it)
 *   page    the suite pages (validation, bench) draw no canvas: the part of the page that `selector`
 *           starts, the page as wide as the picture (the panel wraps below the report)
 * Each is laid out at `zoom` times the picture's size and captured at 1 / zoom: a scene at the size
 * it has on a desktop keeps its overlay labels apart; a page at 1 keeps its text crisp.
 */
export type ShotTarget = 'canvas' | 'page';
/** Which window state the page reports its end in (demo/common/scene-shell.ts, demo/validation, demo/bench). */
export type ShotDone = 'scene' | 'validation' | 'bench';

export interface SceneShot {
  name: string;
  query: Record<string, string | number>;
  done: ShotDone;
  target: ShotTarget;
  /** target page: the element whose top left corner the picture starts at. */
  selector?: string;
  zoom: number;
}

export const SHOTS: readonly SceneShot[] = [
  {
    name: 'virtual-texture',
    // Zoomed out over most of the texture (mip 4), tinted by the mip each pixel shows, caught while tiles still
    // stream in (3 a frame): finer mips where they arrived, the coarse fallback elsewhere.
    query: { frames: 12, views: '8192,8192,16', tint: 1, maxNew: 3 },
    done: 'scene',
    target: 'canvas',
    zoom: 1.25,
  },
  {
    name: 'growable-buffer',
    // A few resizes in, at the scene's own size (its two labels side by side): both halves full of
    // particles, the left coloured by backing heap.
    query: { frames: 30, stepFrames: 3, drawLimit: 10000 },
    done: 'scene',
    target: 'canvas',
    zoom: 1.5,
  },
  {
    name: 'residency-pressure',
    // The default world and budget, a few camera moves in: resident, idle and evicted heaps.
    query: { frames: 40 },
    done: 'scene',
    target: 'canvas',
    zoom: 1.25,
  },
  {
    name: 'reserved-resources',
    // Mip 6 (16 × 16 texels) magnified on the sample's quad: the checkerboard with bilinear edges.
    query: { frames: 3, mip: 6 },
    done: 'scene',
    target: 'canvas',
    zoom: 1,
  },
  {
    name: 'd3d12-residency',
    // Loaded and a few frames on: the window of drawn textures (95 % of a 6 MiB budget) part way along the grid.
    query: { frames: 30, textures: 160, textureSize: 40, budgetMiB: 6, loaders: 40 },
    done: 'scene',
    target: 'canvas',
    zoom: 1,
  },
  {
    name: 'validation',
    // A short run of one seed and the scenarios: the run's box, passed, with its counters.
    query: { seed: 1, ops: 40, tier: 3 },
    done: 'validation',
    target: 'page',
    selector: 'main',
    zoom: 1,
  },
  {
    name: 'bench',
    // A quick run of the paging figure with a short stream: its samples and the stream's GB/s side
    // by side (charts 520 px wide each), the results table below.
    query: { figures: 'paging-throughput', quick: 1, pagingMiB: '1,2', streamSeconds: 1, ref: 'none', run: 1 },
    done: 'bench',
    target: 'page',
    selector: '.panel-section:has(.bench-charts)',
    zoom: 1.7,
  },
];
