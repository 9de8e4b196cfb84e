/**
 * The layers outside src/ (issue 33), checked on the sources as architecture.test.ts checks src/:
 *   - no file outside test/ imports test/ (the tools and the library stand without the tests);
 *   - nothing in src/, bench/, validate/ or tools/ imports demo/ (the demo is a client, not a
 *     library: what bench and validate share with it lives in src/ or validate/);
 *   - tools/ (what the CLIs, the bench and the tests share: finding, launching and serving for
 *     Chromium) imports nothing from bench/, validate/, demo/ or test/.
 * Every relative import counts, type-only, re-exports, dynamic import() and `?raw` assets included.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../../harness/paths.js';

/** The folders walked: the library, the tools and their clients (test/ is only ever a target here). */
const WALKED = ['src', 'bench', 'demo', 'demo-pictures', 'validate', 'tools'];
/** Generated output inside the walked folders. */
const SKIPPED = new Set(['node_modules', 'dist', 'results']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const STATIC_IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/g;
const DYNAMIC_IMPORT = /\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/**
 * Each file's relative imports, file and targets as paths from the project root (`.js` read as the
 * `.ts` it names, queries such as `?raw` dropped).
 */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of WALKED.flatMap((folder) => sources(join(PROJECT_ROOT, folder)))) {
    const text = readFileSync(file, 'utf8');
    const specs = [...text.matchAll(STATIC_IMPORT), ...text.matchAll(DYNAMIC_IMPORT)].map((m) => m[1] as string);
    const targets = specs.map((spec) =>
      relative(PROJECT_ROOT, normalize(join(dirname(file), spec.replace(/\?.*$/, '').replace(/\.js$/, '.ts'))))
        .split(sep)
        .join('/'),
    );
    graph.set(relative(PROJECT_ROOT, file).split(sep).join('/'), targets);
  }
  return graph;
}

const top = (path: string): string => path.split('/')[0] ?? '';

/** Which top-level folders each folder may not import. */
const FORBIDDEN: Record<string, string[]> = {
  src: ['test', 'demo'],
  bench: ['test', 'demo'],
  validate: ['test', 'demo'],
  tools: ['test', 'demo', 'bench', 'validate'],
  demo: ['test'],
  'demo-pictures': ['test'],
};

/** `file -> target` for every import into a folder that the file's folder may not import. */
function forbiddenImports(graph: Map<string, string[]>): string[] {
  const wrong: string[] = [];
  for (const [file, targets] of graph) {
    const forbidden = FORBIDDEN[top(file)] ?? [];
    for (const target of targets) if (forbidden.includes(top(target))) wrong.push(`${file} -> ${target}`);
  }
  return wrong;
}

describe('tools, bench, validate and demo stand on their own', () => {
  const graph = importGraph();

  test('no file outside test/ imports test/; src/, bench/, validate/, tools/ import no demo/; tools/ imports none of them', () => {
    expect(forbiddenImports(graph)).toEqual([]);
  });

  test('the walk sees every folder and its imports: bench and validate reach tools/browser, the demo reaches src/', () => {
    for (const folder of WALKED)
      expect(
        [...graph.keys()].some((file) => top(file) === folder),
        folder,
      ).toBe(true);
    expect(graph.get('bench/node/run-browser.ts')).toContain('tools/browser/locate-browser.ts');
    expect(graph.get('validate/node/browser-target.ts')).toContain('tools/browser/static-server.ts');
    expect(graph.get('demo/virtual-texture/cpu-tiles.ts')).toContain('src/streaming/index.ts');
  });

  test('the check sees what it looks for: planted imports into test/ and demo/ and out of tools/ are reported, clean ones are not', () => {
    const planted = new Map([
      ['bench/suite/figure.ts', ['test/shared/d3d12-helpers.ts', 'src/index.ts']],
      ['src/streaming/tile-streamer.ts', ['demo/virtual-texture/tile-texels.ts']],
      ['validate/node/cli.ts', ['demo/validation/main.ts', 'validate/validation-logic.ts']],
      [
        'tools/browser/launch.ts',
        ['bench/node/results.ts', 'validate/node/args.ts', 'tools/browser/locate-browser.ts'],
      ],
      ['demo-pictures/make-pictures.ts', ['test/harness/paths.ts', 'tools/browser/serve.ts', 'demo/scene-pictures.ts']],
      ['demo/validation/main.ts', ['validate/validation-logic.ts', 'src/index.ts', 'shaders/prelude.wgsl']],
    ]);
    expect(forbiddenImports(planted)).toEqual([
      'bench/suite/figure.ts -> test/shared/d3d12-helpers.ts',
      'src/streaming/tile-streamer.ts -> demo/virtual-texture/tile-texels.ts',
      'validate/node/cli.ts -> demo/validation/main.ts',
      'tools/browser/launch.ts -> bench/node/results.ts',
      'tools/browser/launch.ts -> validate/node/args.ts',
      'demo-pictures/make-pictures.ts -> test/harness/paths.ts',
    ]);
    const clean = new Map([
      ['bench/node/run-browser.ts', ['tools/browser/launch.ts', 'src/index.ts', 'bench/suite/suite.ts']],
      ['tools/browser/locate-browser.ts', ['src/node/bundled-chromium.ts']],
      ['demo/virtual-texture/cpu-tiles.ts', ['src/streaming/index.ts', 'demo/virtual-texture/procedural.ts']],
    ]);
    expect(forbiddenImports(clean)).toEqual([]);
  });

  test('the graph reads every kind of import: multi-line, type-only, re-export, dynamic, with a query', () => {
    const text = [
      "import {\n  a,\n  b,\n} from '../test/a.js';",
      "import type { T } from '../test/b.js';",
      "export { c } from '../demo/c.js';",
      "const d = await import('../bench/d.js');",
      "import shader from '../shaders/e.wgsl?raw';",
      "import { f } from 'vitest';",
    ].join('\n');
    const specs = [...text.matchAll(STATIC_IMPORT), ...text.matchAll(DYNAMIC_IMPORT)].map((m) => m[1]);
    expect(specs.sort()).toEqual([
      '../bench/d.js',
      '../demo/c.js',
      '../shaders/e.wgsl?raw',
      '../test/a.js',
      '../test/b.js',
    ]);
  });
});
