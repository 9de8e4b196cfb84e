/**
 * The layers of DESIGN.md, checked on the sources: imports point down only (residency → d3d12 →
 * validation, gpu, memory → api), `src/api` imports nothing from the project, nothing below the
 * facade imports it, the facade never imports the residency manager, and there is no import cycle
 * anywhere in `src/`, type-only imports included.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../harness/paths.js';

const SRC = join(PROJECT_ROOT, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/g;

/** Every file's project imports (relative paths, `?raw` assets left out), as paths from src/. */
function importGraph(): Map<string, string[]> {
  const files = sources(SRC);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = match[1] as string;
      if (spec.includes('?')) continue;
      const target = normalize(join(dirname(file), spec.replace(/\.js$/, '.ts')));
      if (known.has(target)) targets.push(relative(SRC, target));
    }
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}

const layer = (path: string): string => path.split('/')[0] ?? '';
const ENTRIES = ['index.ts', 'node/index.ts'];

/** Which layers each layer may import (besides itself). */
const ALLOWED: Record<string, string[]> = {
  api: [],
  memory: ['api'],
  validation: ['api', 'memory'],
  gpu: ['api', 'memory'],
  d3d12: ['api', 'memory', 'validation', 'gpu'],
  residency: ['api', 'd3d12'],
  node: ['api', 'gpu'],
  types: [],
};

describe('layers', () => {
  const graph = importGraph();

  test('imports point down only', () => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      const from = layer(file);
      // The package entries (src/index.ts; src/node/index.ts, which adds to it) export from every layer.
      if (ENTRIES.includes(file)) continue;
      for (const target of targets) {
        const to = layer(target);
        if (to !== from && !(ALLOWED[from] ?? []).includes(to)) wrong.push(`${file} -> ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test('no import cycle in src/ (types included)', () => {
    // Tarjan's strongly connected components: every component of more than one file is a cycle.
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    let next = 0;
    const visit = (file: string): void => {
      index.set(file, next);
      low.set(file, next++);
      stack.push(file);
      onStack.add(file);
      for (const target of graph.get(file) ?? []) {
        if (!index.has(target)) {
          visit(target);
          low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
        } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
      }
      if (low.get(file) !== index.get(file)) return;
      const component: string[] = [];
      for (;;) {
        const member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
        if (member === file) break;
      }
      if (component.length > 1) cycles.push(component.sort());
    };
    for (const file of graph.keys()) if (!index.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  test('the check sees imports: src/d3d12/device.ts imports the api layer and validation', () => {
    const targets = graph.get('d3d12/device.ts') ?? [];
    expect(targets).toContain('api/errors.ts');
    expect(targets.some((target) => target.startsWith('validation/'))).toBe(true);
  });
});

/**
 * Members of project classes that `files` reach although they are not public API: declarations in
 * another layer marked `@internal` (what the published types strip), or private/protected ones.
 */
function internalUses(files: string[]): string[] {
  const program = ts.createProgram(files, { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, noEmit: true, types: [] });
  const checker = program.getTypeChecker();
  const found = new Set<string>();
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`internalUses: ${file} is not in the program`);
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
        const symbol = checker.getSymbolAtLocation(ts.isPropertyAccessExpression(node) ? node.name : node.argumentExpression);
        for (const declaration of symbol?.declarations ?? []) {
          const where = declaration.getSourceFile().fileName;
          if (!where.startsWith(SRC) || layer(relative(SRC, where)) === layer(relative(SRC, file))) continue;
          const internal = ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'internal');
          const hidden = ts.getCombinedModifierFlags(declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected);
          if (internal || hidden) found.add(`${relative(SRC, file)}: ${node.getText(source)} (${relative(SRC, where)})`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...found].sort();
}

describe('the residency manager is a client of the D3D12 API', () => {
  test('src/residency uses no @internal, private or protected member of the facade', () => {
    expect(internalUses(sources(join(SRC, 'residency')))).toEqual([]);
  });

  test('the check sees internal uses: a planted client (test/unit/fixtures/internal-use.ts) is reported', () => {
    const uses = internalUses([join(PROJECT_ROOT, 'test/unit/fixtures/internal-use.ts')]).map((use) => use.replace(/^.*: /, ''));
    expect(uses).toEqual(['device.pageableHeap (d3d12/device.ts)', 'device.settings (d3d12/device.ts)', 'heap.residencyReferences (d3d12/heap.ts)']);
  });
});

/** No source file longer than this: a file holds one job (issue 12). */
const MAX_SOURCE_LINES = 500;

test(`no file in src/ is longer than ${MAX_SOURCE_LINES} lines`, () => {
  const long = sources(SRC)
    .map((file) => ({ file: relative(SRC, file), lines: readFileSync(file, 'utf8').split('\n').length }))
    .filter(({ lines }) => lines > MAX_SOURCE_LINES)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
  expect(long).toEqual([]);
});
