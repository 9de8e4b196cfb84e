/**
 * The README and docs/*.md against the tree (test/harness/doc-references.ts): every repo path they
 * name exists, every npm script they name is in package.json, every figure count is the bench's,
 * docs/api.md names every export of src/index.ts, and the README's examples are the code of the
 * tests that run them. Planted doc strings show that each check reports what it exists to find, so
 * a clean run means something.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  checkDoc,
  exportedNames,
  loadDocContext,
  missingFromApi,
  repoPathsIn,
  statementsNotIn,
  tsBlocks,
} from '../../../harness/doc-references.js';
import { PROJECT_ROOT } from '../../../harness/paths.js';

const context = loadDocContext(PROJECT_ROOT);
const read = (path: string): string => readFileSync(join(PROJECT_ROOT, path), 'utf8');
const DOCS = [
  'README.md',
  ...readdirSync(join(PROJECT_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const INDEX = read('src/index.ts');

describe('the docs against the tree', () => {
  test('there are docs to check, and the bench list was found', () => {
    expect(DOCS).toContain('docs/api.md');
    expect(DOCS.length).toBeGreaterThanOrEqual(10);
    expect(context.figureCount).toBeGreaterThan(0);
    // The scan finds paths at all: the docs name well over a hundred.
    const named = DOCS.flatMap((doc) => repoPathsIn(read(doc), context).map(({ path }) => path));
    expect(named.length).toBeGreaterThan(100);
    expect(named).toEqual(expect.arrayContaining(['src/d3d12/command-queue.ts', 'bench/h200/prepare-carry.sh']));
  });

  test.each(DOCS)('%s: paths exist, npm scripts exist, figure counts match the bench', (doc) => {
    expect(checkDoc(doc, read(doc), context)).toEqual([]);
  });

  test('docs/api.md names every export of src/index.ts', () => {
    expect(exportedNames(INDEX).names.length).toBeGreaterThan(50);
    expect(missingFromApi(read('docs/api.md'), INDEX)).toEqual([]);
  });
});

describe("docs/api.md's read through a descriptor table is the code its test runs", () => {
  // The Texture data section's second ts block (its first, the upload, types loosely for reading).
  const section = read('docs/api.md').split('## Texture data')[1]?.split('\n## ')[0] ?? '';

  test('every statement is in test/gpu/operation/d3d12/texture-copies.test.ts', () => {
    const block = tsBlocks(section)[1];
    expect(block).toContain('setComputeRootDescriptorTable');
    expect(statementsNotIn(block as string, read('test/gpu/operation/d3d12/texture-copies.test.ts'))).toEqual([]);
  });
});

describe("docs/api.md's first example (a reserved texture and a tile mapping) is the code its test runs", () => {
  test('every statement is in test/unit/operation/d3d12/api-example.test.ts', () => {
    const block = tsBlocks(read('docs/api.md').split('## Device, heaps and resources: an example')[1] ?? '')[0];
    expect(block).toContain('updateTileMappings');
    expect(statementsNotIn(block as string, read('test/unit/operation/d3d12/api-example.test.ts'))).toEqual([]);
  });
});

describe("docs/binding.md's example is the code its test runs", () => {
  test('every statement is in test/gpu/operation/d3d12/readme-examples.test.ts', () => {
    const block = tsBlocks(read('docs/binding.md').split('## An example')[1] ?? '')[0];
    expect(block).toContain('setComputeRootDescriptorTable');
    expect(statementsNotIn(block as string, read('test/gpu/operation/d3d12/readme-examples.test.ts'))).toEqual([]);
  });
});

describe("the README's examples are the code their tests run", () => {
  const blocks = tsBlocks(read('README.md'));
  const runs = [
    'test/gpu/operation/d3d12/readme-examples.test.ts',
    'test/gpu/operation/d3d12/readme-examples.test.ts',
    'test/gpu/operation/d3d12/readme-examples.test.ts',
  ];

  test('one example per use, each run by the test the README names beside it', () => {
    expect(blocks).toHaveLength(runs.length);
    for (const file of new Set(runs)) expect(read('README.md')).toContain(`\`${file}\``);
  });

  test.each(runs.map((file, index) => [index + 1, file] as const))(
    'example %i: every statement is in %s',
    (n, file) => {
      expect(statementsNotIn(blocks[n - 1] as string, read(file))).toEqual([]);
    },
  );

  test('a changed statement is reported', () => {
    const example = 'const heap = device.createHeap({ sizeInBytes: 2 << 20 });   // changed\nheap.release();\n';
    expect(
      statementsNotIn(example, 'const heap = device.createHeap({\n  sizeInBytes: 1 << 20,\n});\nheap.release();'),
    ).toEqual(['const heap = device.createHeap({ sizeInBytes: 2 << 20 })']);
  });
});

describe('planted failures are reported', () => {
  const wrongCount = context.figureCount + 1;
  const planted = [
    'The layers: `src/d3d12/no-such-file.ts` and [the guide](no-such-guide.md).',
    '',
    'Run `npm run no-such-script` (or npm run validate, which exists).',
    `The suite has ${wrongCount} figures; nine figures; the ${context.figureCount} figures.`,
    '',
    '```sh',
    'npm run another-missing-script',
    'bench/h200/no-such-carry.sh bench/dist/node.mjs   # the bundle is a build output: not reported',
    '```',
  ].join('\n');
  const problems = checkDoc('docs/planted.md', planted, context);

  test('a missing path, in a code span and in a link', () => {
    expect(problems).toContain('docs/planted.md:1: path `src/d3d12/no-such-file.ts` does not exist');
    expect(problems).toContain('docs/planted.md:1: link no-such-guide.md (docs/no-such-guide.md) does not exist');
  });

  test('an unknown npm script, in prose and in a code block', () => {
    expect(problems).toContain("docs/planted.md:3: npm script 'no-such-script' is not in package.json");
    expect(problems).toContain("docs/planted.md:7: npm script 'another-missing-script' is not in package.json");
  });

  test('a missing script named in a code block', () => {
    expect(problems).toContain('docs/planted.md:8: path `bench/h200/no-such-carry.sh` does not exist');
  });

  test('a wrong figure count, in digits and in words; the right one passes', () => {
    expect(problems).toContain(
      `docs/planted.md:4: says "${wrongCount} figures", the bench has ${context.figureCount} figures`,
    );
    if (context.figureCount !== 9)
      expect(problems).toContain(
        `docs/planted.md:4: says "nine figures", the bench has ${context.figureCount} figures`,
      );
    expect(problems.filter((problem) => problem.includes(`"${context.figureCount} figures"`))).toEqual([]);
    expect(problems).toHaveLength(context.figureCount !== 9 ? 7 : 6);
  });

  test('paths that are not repo paths, build outputs and existing paths are not reported', () => {
    const fine = [
      '`d3d12-webgpu/validate`, `virtual-texture/`, `bench/dist/node.mjs`, `demo/<name>/`, `shaders/*.wgsl`,',
      '`/tmp/gpu-libs`, `src/index.ts`, `bench/h200/`, [api](api.md#exports), [web](https://example.com/x).',
    ].join('\n');
    expect(checkDoc('docs/fine.md', fine, context)).toEqual([]);
  });

  test('an export missing from docs/api.md, and a whole-module re-export', () => {
    const index =
      "export { Device, Heap as HeapAlias, type Fence } from './d3d12/device.js';\nexport type * from './api/types.js';";
    expect(missingFromApi('`Device` and `Fence`', index)).toEqual(['HeapAlias', 'export * of src/api/types.ts']);
    expect(missingFromApi('`Device`, `HeapAlias`, `Fence`, `src/api/types.ts`', index)).toEqual([]);
  });
});
