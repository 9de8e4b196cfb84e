/**
 * The pressure scene's world, free of WebGPU: a grid of objects (mesh and texture heaps of varied
 * sizes) and a camera path over it. Everything is a function of the object index or the frame, so a
 * URL replays the same paging, and tests can predict which objects a frame uses.
 */
export const GRID_X = 8;
export const GRID_Y = 6;
export const OBJECT_COUNT = GRID_X * GRID_Y;
/** Objects the shade pass takes per frame: root constants 4..63. */
export const MAX_VISIBLE = 60;

export interface WorldObject {
  index: number;
  kind: 'mesh' | 'texture';
  /** Size in 64 KiB tiles. */
  tiles: number;
  /** Cell centre, in cells. */
  x: number;
  y: number;
  /** Seed of its content: word j is pcg(seed ^ j). */
  seed: number;
}

export function pcg(v: number): number {
  const state = (Math.imul(v >>> 0, 747796405) + 2891336453) >>> 0;
  const word = Math.imul(((state >>> ((state >>> 28) + 4)) ^ state) >>> 0, 277803737) >>> 0;
  return ((word >>> 22) ^ word) >>> 0;
}

/** `baseTiles` scales the world: objects are 1 to 4 times it (textures 2 to 4). */
export function createWorld(baseTiles: number): WorldObject[] {
  return Array.from({ length: OBJECT_COUNT }, (_, index) => {
    const h = pcg(index + 1);
    const kind = h % 3 === 0 ? 'texture' : 'mesh';
    const scale = kind === 'texture' ? 2 + ((h >>> 8) % 3) : 1 + ((h >>> 8) % 4);
    return {
      index,
      kind,
      tiles: baseTiles * scale,
      x: (index % GRID_X) + 0.5,
      y: Math.floor(index / GRID_X) + 0.5,
      seed: pcg(h),
    };
  });
}

export interface Camera {
  x: number;
  y: number;
  radius: number;
}

/** A Lissajous path over the grid: it keeps revisiting, so evicted objects come back. */
export function cameraAt(frame: number, speed = 1): Camera {
  const t = frame * 0.012 * speed;
  return {
    x: GRID_X / 2 + (GRID_X / 2 - 1) * Math.sin(t),
    y: GRID_Y / 2 + (GRID_Y / 2 - 1) * Math.sin(t * 1.37 + 0.7),
    radius: 1.7,
  };
}

export function visibleObjects(world: readonly WorldObject[], camera: Camera): WorldObject[] {
  return world.filter((o) => Math.hypot(o.x - camera.x, o.y - camera.y) <= camera.radius).slice(0, MAX_VISIBLE);
}

/**
 * The object whose registration the "forget" switch drops: visible now and for the longest run of
 * frames ahead, so the bug has time to show once the manager evicts it.
 */
export function objectToForget(world: readonly WorldObject[], frame: number, speed = 1): WorldObject | undefined {
  let best: WorldObject | undefined;
  let bestRun = -1;
  for (const object of visibleObjects(world, cameraAt(frame, speed))) {
    let run = 0;
    while (run < 600 && visibleObjects(world, cameraAt(frame + run + 1, speed)).includes(object)) run++;
    if (run > bestRun) {
      best = object;
      bestRun = run;
    }
  }
  return best;
}
