/**
 * Test helpers live in one place: one seeded PRNG (src/validate/random.ts, shared with the package's
 * validation runs), one D3D12 error assertion (test/shared/expect-d3d12-error.ts), one read-back of a
 * buffer (readBuffer in src/validate/d3d12-io.ts, which test/shared/d3d12-helpers.ts re-exports).
 * This reads every file under test/ and src/validate/ and fails on a file elsewhere that defines its
 * own: a `class Random`, a mulberry32 step, an inline LCG, a `function expectD3D12Error`, a
 * `function readBack…` that takes a D3D12 Device, or (under test/) a tile-size constant of its own
 * (test/shared/d3d12-helpers.ts's TILE is the library's TILE_SIZE). A control plants each definition in a string and
 * shows the check finds it, and shows that the helpers' own files are found by it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../../harness/paths.js';

const TEST = join(PROJECT_ROOT, 'test');
/** The package's validation layer, which the tests import their PRNG and read-back from. */
const VALIDATE = join(PROJECT_ROOT, 'src/validate');
/** This file: it holds the planted definitions below, as strings. */
const SELF = 'test/unit/validation/source/test-helpers.test.ts';

interface Rule {
  name: string;
  /** The one file allowed to define it. */
  home: string;
  pattern: RegExp;
  /** Only files under this folder are checked (default: all). */
  scope?: string;
}

const RULES: Rule[] = [
  { name: 'a class Random', home: 'src/validate/random.ts', pattern: /\bclass\s+Random\b/ },
  // mulberry32's increment: a copy of the generator under another name.
  { name: 'a mulberry32 step', home: 'src/validate/random.ts', pattern: /\b0x6d2b79f5\b/i },
  // An LCG written inline, `Math.imul(seed, 1103515245)` or `seed * 1103515245`, or the
  // Numerical Recipes 1664525. A WGSL literal (`x * 1664525u`, a shader's busy loop) does not match.
  {
    name: 'an inline LCG',
    home: 'src/validate/random.ts',
    pattern: /Math\.imul\(\s*\w+\s*,\s*(?:1103515245|1664525)\s*\)|\b\w+\s*\*\s*(?:1103515245|1664525)\b/,
  },
  {
    name: 'a function expectD3D12Error',
    home: 'test/shared/expect-d3d12-error.ts',
    pattern: /\b(?:function\s+expectD3D12Error|(?:const|let|var)\s+expectD3D12Error\s*=)/,
  },
  {
    name: 'a readBack function over a D3D12 Device',
    home: 'src/validate/d3d12-io.ts',
    pattern: /\bfunction\s+readBack\w*\s*\([^)]*:\s*Device\b/,
  },
  // 64 KiB under a tile's name. src/validate/bytes.ts keeps the validator's own TILE (that layer
  // does not reach src/memory), so the rule looks at test/ only.
  {
    name: 'a tile-size constant',
    home: 'test/shared/d3d12-helpers.ts',
    pattern: /\b(?:const|let|var)\s+TILE\w*\s*=\s*(?:65536|0x10000|64\s*\*\s*1024|2\s*\*\*\s*16)\b/,
    scope: 'test/',
  },
];

/** The rules a text breaks (by name). */
function definitionsIn(text: string): string[] {
  return RULES.filter((rule) => rule.pattern.test(text)).map((rule) => rule.name);
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : files(path);
    return /\.(?:[cm]?[jt]s|html)$/.test(entry.name) ? [path] : [];
  });
}

describe('test helpers in one place', () => {
  test('no file under test/ or src/validate/ defines its own PRNG, expectD3D12Error, D3D12 readBack or (under test/) tile size', () => {
    const all = [...files(TEST), ...files(VALIDATE)].map((path) => relative(PROJECT_ROOT, path).split('\\').join('/'));
    expect(all.length).toBeGreaterThan(100);
    expect(all).toContain('src/validate/random.ts');
    const found: string[] = [];
    for (const file of all) {
      if (file === SELF) continue;
      const text = readFileSync(join(PROJECT_ROOT, file), 'utf8');
      for (const rule of RULES)
        if (file !== rule.home && file.startsWith(rule.scope ?? '') && rule.pattern.test(text))
          found.push(`${file}: ${rule.name} (use ${rule.home})`);
    }
    expect(found).toEqual([]);
  });

  test("control: the shared helpers' own files are what the check finds", () => {
    const read = (file: string): string => readFileSync(join(PROJECT_ROOT, file), 'utf8');
    expect(definitionsIn(read('src/validate/random.ts'))).toEqual(['a class Random', 'a mulberry32 step']);
    expect(definitionsIn(read('test/shared/expect-d3d12-error.ts'))).toEqual(['a function expectD3D12Error']);
    expect(read('src/validate/d3d12-io.ts')).toMatch(/export async function readBuffer\(\s*device: Device,/);
    expect(read('test/shared/d3d12-helpers.ts')).toMatch(/readBuffer.*from '\.\.\/\.\.\/src\/validate\/index\.js'/s);
    expect(read('test/shared/d3d12-helpers.ts')).toMatch(
      /export \{ TILE_SIZE as TILE \} from '\.\.\/\.\.\/src\/index\.js'/,
    );
  });

  test('control: a planted definition in a string is found, and ordinary uses are not', () => {
    const planted: [string, string][] = [
      ['class Random {\n  next(): number { return 4; }\n}', 'a class Random'],
      ['export class Random {', 'a class Random'],
      ['this.state = (this.state + 0x6D2B79F5) >>> 0;', 'a mulberry32 step'],
      ['seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;', 'an inline LCG'],
      ['const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);', 'an inline LCG'],
      ['x = (x * 1103515245 + 12345) % 2 ** 31;', 'an inline LCG'],
      ['function expectD3D12Error(fn: () => unknown, hresult: string): void {', 'a function expectD3D12Error'],
      ['const expectD3D12Error = (fn: () => unknown): void => {', 'a function expectD3D12Error'],
      [
        'async function readBack(d3d: Device, queue: CommandQueue, source: Resource, length: number): Promise<Uint8Array> {',
        'a readBack function over a D3D12 Device',
      ],
      ['function readBackBytes(device: Device, source: Resource) {', 'a readBack function over a D3D12 Device'],
      ['const TILE = 65536;', 'a tile-size constant'],
      ['export const TILE_BYTES = 64 * 1024;', 'a tile-size constant'],
    ];
    for (const [text, rule] of planted) expect(definitionsIn(text), text).toEqual([rule]);
    const ordinary = [
      "import { Random } from '../../../../src/validate/random.js';\nconst random = new Random(12345);\nrandom.int(0, 9);",
      "import { expectD3D12Error } from '../../../../shared/expect-d3d12-error.js';\nexpectD3D12Error(() => heap.release(), { message: /released/ });",
      'const bytes = await readBuffer(d3d, queue, buffer, 0, 256);',
      'export async function readBackBuffer(gpuDevice: GPUDevice, backBuffer: BackBuffer): Promise<Uint8Array> {',
      'for (var i = 0u; i < 2000u; i++) { x = x * 1664525u + 1013904223u; }',
      'let x = (seed * 0x9e3779b1) >>> 0 || 1;',
      "import { TILE } from '../../../shared/d3d12-helpers.js';\nconst heap = device.createHeap({ sizeInBytes: 4 * TILE });",
      'const MAX_TILES = 65536;',
    ];
    for (const text of ordinary) expect(definitionsIn(text), text).toEqual([]);
  });
});
