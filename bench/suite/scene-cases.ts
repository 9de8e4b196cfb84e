/**
 * The scene pages the scene-frame-time figure runs, with the URL parameters of each case; a module
 * of its own, free of imports, so the bench page's build (bench/vite.config.ts) can list the pages.
 */
export const SCENE_CASES: readonly {
  name: string;
  scene: string;
  query: Readonly<Record<string, string>>;
  /** Parameters of the full run only (a quick run takes the scene's own defaults). */
  fullQuery?: Readonly<Record<string, string>>;
}[] = [
  { name: 'virtual-texture', scene: 'virtual-texture', query: {} },
  // The baseline: the same camera path drawn from a native texture with every mip resident.
  { name: 'virtual-texture, native texture', scene: 'virtual-texture', query: { texture: 'native' } },
  // A full run pins drawLimit: the scene's default depends on the adapter (fewer on a software one).
  { name: 'growable-buffer', scene: 'growable-buffer', query: {}, fullQuery: { drawLimit: '60000' } },
  { name: 'residency-pressure', scene: 'residency-pressure', query: {} },
];
