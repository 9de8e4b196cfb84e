/**
 * Test helpers live in one place: one seeded PRNG (src/validate/random.ts, shared with the package's
 * validation runs), one D3D12 error assertion (test/shared/expect-d3d12-error.ts), one read-back of a
 * buffer (readBuffer in src/validate/d3d12-io.ts, which test/shared/d3d12-helpers.ts re-exports).
 * This reads every file under test/ and src/validate/ and fails on a file elsewhere that defines its
 * own `function expectD3D12Error` or `function readBack…` over a D3D12 Device; and every file of the
 * project (test/, src/, bench/, demo/, demo-pictures/, validate/, tools/; issue 33: one PRNG and one
 * TILE_SIZE everywhere) and fails on one that defines its own generator (a `class Random`, a mulberry32
 * step, an inline LCG, an xorshift32 step: the shift triple `<< 13`, `>>> 17`, `<< 5` on one variable,
 * whose one home is src/validate/bytes.ts's byte `pattern`) or its own 64 KiB tile-size or
 * D3D12_PACKED_TILE constant (src/memory/tiling.ts defines them; the main entry exports TILE_SIZE and
 * PACKED_TILE, test/shared/d3d12-helpers.ts's TILE is TILE_SIZE). A control plants each definition in
 * a string and shows the check finds it, and shows that the helpers' own files are found by it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../../harness/paths.js';

const TEST = join(PROJECT_ROOT, 'test');
/** The rest of the project, where the generators are looked for too (the validation layer, src/validate/, is inside src/). */
const ELSEWHERE = ['src', 'bench', 'demo', 'demo-pictures', 'validate', 'tools'].map((folder) =>
  join(PROJECT_ROOT, folder),
);
/** Generated output inside those folders (bundles of the very sources checked). */
const SKIPPED = new Set(['node_modules', 'dist', 'results']);
/** Where the test helpers (not the generators) are looked for: the tests and the validation layer. */
const HELPER_SCOPES = ['test/', 'src/validate/'];
/** This file: it holds the planted definitions below, as strings. */
const SELF = 'test/unit/validation/source/test-helpers.test.ts';

interface Rule {
  name: string;
  /** The one file allowed to define it. */
  home: string;
  /** What to use instead, where that is not `home` alone. */
  use?: string;
  pattern: RegExp;
  /** Only files under these folders are checked (default: every file walked). */
  scopes?: string[];
}

/** `V ^= V op n`, `V ^= (V op n)` or `V = V ^ (V op n)`, V the generator captured as group 1 by the first step. */
const shiftStep = (op: string, n: number): string =>
  String.raw`(?<![\w$.])\1\s*(?:\^=|=\s*\(?\s*\1\s*\^)\s*\(?\s*\1\s*${op}\s*${n}\b`;
/** xorshift32's step: `<< 13`, then `>>> 17`, then `<< 5` on one variable, a few lines apart at most. */
const XORSHIFT32 = new RegExp(
  [
    String.raw`(?<![\w$.])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*(?:\^=|=\s*\(?\s*\1\s*\^)\s*\(?\s*\1\s*<<\s*13\b`,
    shiftStep('>>>', 17),
    shiftStep('<<', 5),
  ].join(String.raw`[\s\S]{0,200}?`),
);

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
    scopes: HELPER_SCOPES,
  },
  {
    name: 'a readBack function over a D3D12 Device',
    home: 'src/validate/d3d12-io.ts',
    pattern: /\bfunction\s+readBack\w*\s*\([^)]*:\s*Device\b/,
    scopes: HELPER_SCOPES,
  },
  // 64 KiB under a tile's name, and D3D12_PACKED_TILE, in any folder: src/memory/tiling.ts defines
  // both, the main entry exports them (src/validate/bytes.ts's TILE and test/shared/d3d12-helpers.ts's
  // TILE are TILE_SIZE re-exported).
  {
    name: 'a tile-size constant',
    home: 'src/memory/tiling.ts',
    use: "TILE_SIZE of src/index.ts, or test/shared/d3d12-helpers.ts's TILE",
    pattern: /\b(?:const|let|var)\s+TILE\w*\s*=\s*(?:65536|0x10000|64\s*\*\s*1024|2\s*\*\*\s*16)\b/,
  },
  {
    name: 'a packed-tile constant',
    home: 'src/memory/tiling.ts',
    use: 'PACKED_TILE of src/index.ts',
    pattern: /\b(?:const|let|var)\s+\w*PACKED_TILE\w*\s*=/,
  },
  // xorshift32 (Marsaglia's 13, 17, 5), in any folder: the one byte pattern is src/validate/bytes.ts's
  // `pattern`, every other draw is Random's. A WGSL step (`x << 13u`) does not match.
  {
    name: 'an xorshift32 step',
    home: 'src/validate/bytes.ts',
    use: "Random of src/validate/random.ts, or src/validate/bytes.ts's pattern for bytes",
    pattern: XORSHIFT32,
  },
];

/** The rules a text breaks (by name). */
function definitionsIn(text: string): string[] {
  return RULES.filter((rule) => rule.pattern.test(text)).map((rule) => rule.name);
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : files(path);
    return /\.(?:[cm]?[jt]s|html)$/.test(entry.name) ? [path] : [];
  });
}

describe('test helpers in one place', () => {
  test('no file defines its own PRNG, tile size or packed-tile index; none under test/ or src/validate/ its own expectD3D12Error or D3D12 readBack', () => {
    const all = [...files(TEST), ...ELSEWHERE.flatMap(files)].map((path) =>
      relative(PROJECT_ROOT, path).split('\\').join('/'),
    );
    expect(all.length).toBeGreaterThan(100);
    expect(all).toContain('src/validate/random.ts');
    expect(all).toContain('bench/suite/paging-common.ts');
    expect(all).toContain('demo/growable-buffer/population.ts');
    expect(all.some((file) => file.split('/').some((part) => SKIPPED.has(part)))).toBe(false);
    const found: string[] = [];
    for (const file of all) {
      if (file === SELF) continue;
      const text = readFileSync(join(PROJECT_ROOT, file), 'utf8');
      for (const rule of RULES)
        if (
          file !== rule.home &&
          (rule.scopes ?? ['']).some((scope) => file.startsWith(scope)) &&
          rule.pattern.test(text)
        )
          found.push(`${file}: ${rule.name} (use ${rule.use ?? rule.home})`);
    }
    expect(found).toEqual([]);
  });

  test("control: the shared helpers' own files are what the check finds", () => {
    const read = (file: string): string => readFileSync(join(PROJECT_ROOT, file), 'utf8');
    expect(definitionsIn(read('src/validate/random.ts'))).toEqual(['a class Random', 'a mulberry32 step']);
    expect(definitionsIn(read('test/shared/expect-d3d12-error.ts'))).toEqual(['a function expectD3D12Error']);
    expect(definitionsIn(read('src/validate/bytes.ts'))).toEqual(['an xorshift32 step']);
    expect(definitionsIn(read('src/memory/tiling.ts'))).toEqual(['a tile-size constant', 'a packed-tile constant']);
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
      ['const PACKED_TILE = 0xffffffff;', 'a packed-tile constant'],
      // The forms the project had (with and without `>>>= 0` between the shifts), on a field, and written out.
      ['x ^= x << 13;\n    x >>>= 0;\n    x ^= x >>> 17;\n    x ^= x << 5;\n    x >>>= 0;', 'an xorshift32 step'],
      ['let x = this.seed;\n    x ^= x << 13;\n    x ^= x >>> 17;\n    x ^= x << 5;', 'an xorshift32 step'],
      ['this.s ^= this.s << 13; this.s ^= this.s >>> 17; this.s ^= this.s << 5;', 'an xorshift32 step'],
      [
        'state = state ^ (state << 13);\nstate = state ^ (state >>> 17);\nstate = (state ^ (state << 5)) >>> 0;',
        'an xorshift32 step',
      ],
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
      "import { PACKED_TILE, TILE_SIZE } from '../index.js';\nif (start === PACKED_TILE) return;",
      // One shift alone, the shifts on different variables, other shift amounts, and WGSL's `13u`.
      'x ^= x << 13;',
      'x ^= x << 13;\ny ^= y >>> 17;\nz ^= z << 5;',
      'x ^= x << 13;\nx ^= x >>> 7;\nx ^= x << 17;',
      'x ^= x << 13u;\nx ^= x >> 17u;\nx ^= x << 5u;',
      'const word = (a << 13) | (b >>> 17) | (c << 5);',
    ];
    for (const text of ordinary) expect(definitionsIn(text), text).toEqual([]);
  });
});
