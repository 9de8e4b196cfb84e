/**
 * Which copy jobs the page kernel takes (src/gpu/page-copies.ts), against a page-table mirror whose
 * shadow the test writes: only 16-byte aligned pieces whose source and destination pages are both
 * RESIDENT, resolved to the pool words those entries name; everything else stays with the copy
 * kernel, whole when no piece of it is resident. Consecutive copies share the first one's dispatch
 * only when no pool page written by one is read or written by another, and never across another
 * command or a copy that keeps jobs for the copy kernel. All of it is a plan keyed by the executable
 * copies, which stay as they are; the copy encoder (src/gpu/encoders/copy.ts) takes each copy's
 * jobs from it. The bytes these copies move are checked on the GPU in
 * test/gpu/operation/d3d12/page-copies.test.ts.
 */
import { describe, expect, test } from 'vitest';
import type { CopyJob } from '../../../../src/gpu/copy-jobs.js';
import { copyEncoder } from '../../../../src/gpu/encoders/copy.js';
import type { EncodeContext, Planning } from '../../../../src/gpu/encoders/encode-context.js';
import type { ExecutableList, IndexedCommand } from '../../../../src/gpu/encoders/executable-commands.js';
import {
  planPageCopies,
  splitPageJobs,
  type PageCopyPlan,
  type PageCopySplit,
} from '../../../../src/gpu/page-copies.js';
import { PageTableMirror } from '../../../../src/gpu/page-table.js';
import { TILE_SIZE } from '../../../../src/memory/tiling.js';

const WORDS = TILE_SIZE / 4;
/** A mirror with no GPU behind it: the test only writes and reads its shadow (no growth, no flush). */
function mirror(): PageTableMirror {
  const buffer = { size: 4096 * 4 } as GPUBuffer;
  return new PageTableMirror(
    {} as GPUDevice,
    1 << 20,
    buffer,
    (_what, fn) => fn(),
    () => {},
  );
}

/** Virtual page p at address p * 64 KiB; pool page q at word q * 16384. */
const at = (page: number, offset = 0): bigint => BigInt(page * TILE_SIZE + offset);
const PIPELINE = { label: 'pages' } as GPUComputePipeline;

function table(): PageTableMirror {
  const t = mirror();
  // Virtual pages 1-4 resident on pool pages 10-13; 5 NULL; 6 absent (an evicted heap); 7 unowned.
  for (let p = 1; p <= 4; p++) t.writeOne(p, t.encoding.residentPage('LOCAL', 9 + p));
  t.writeOne(5, t.encoding.null);
  t.writeOne(6, t.encoding.absent(3));
  return t;
}

describe('splitPageJobs', () => {
  test('a whole resident page each side goes to the page kernel with both pages resolved', () => {
    const { general, pages } = splitPageJobs(table(), [{ dst: at(1), src: at(2), bytes: TILE_SIZE }]);
    expect(general).toEqual([]);
    expect(pages).toEqual([{ dst: at(1), src: at(2), bytes: TILE_SIZE, dstWord: 10 * WORDS, srcWord: 11 * WORDS }]);
  });

  test('NULL, absent, unowned and unaligned jobs stay whole with the copy kernel (the same objects)', () => {
    const jobs: CopyJob[] = [
      { dst: at(5), src: at(2), bytes: TILE_SIZE },
      { dst: at(1), src: at(6), bytes: TILE_SIZE },
      { dst: at(7), src: at(2), bytes: 64 },
      { dst: at(1, 4), src: at(2, 4), bytes: 64 },
      { dst: at(1), src: at(2, 8), bytes: 64 },
      { dst: at(1), src: at(2), bytes: 20 },
    ];
    const { general, pages } = splitPageJobs(table(), jobs);
    expect(pages).toEqual([]);
    expect(general).toHaveLength(jobs.length);
    general.forEach((job, i) => expect(job).toBe(jobs[i]));
  });

  test('a job across pages is cut where either side crosses a page; resident pieces go, the rest stays', () => {
    // dst pages 4 → 5 (NULL), src pages 1 → 2: cut at dst's page end (offset 0x100 into dst's page 4).
    const job = { dst: at(4, 0xff00), src: at(1, 0x100), bytes: 0x200 };
    const { general, pages } = splitPageJobs(table(), [job]);
    expect(pages).toEqual([
      { dst: at(4, 0xff00), src: at(1, 0x100), bytes: 0x100, dstWord: 13 * WORDS + 0x3fc0, srcWord: 10 * WORDS + 0x40 },
    ]);
    expect(general).toEqual([{ dst: at(5), src: at(1, 0x200), bytes: 0x100 }]);
    // Cut on the source side: src crosses from page 1 into page 2 while dst stays in page 3.
    const across = splitPageJobs(table(), [{ dst: at(3), src: at(1, 0xfff0), bytes: 0x20 }]);
    expect(across.general).toEqual([]);
    expect(across.pages.map(({ bytes, dstWord, srcWord }) => [bytes, dstWord, srcWord])).toEqual([
      [0x10, 12 * WORDS, 10 * WORDS + 0x3ffc],
      [0x10, 12 * WORDS + 4, 11 * WORDS],
    ]);
  });
});

const copy = (index: number, jobs: CopyJob[], phases = 1): IndexedCommand => ({ index, kind: 'copy', jobs, phases });
const page = (dst: number, src: number): CopyJob => ({ dst: at(dst), src: at(src), bytes: TILE_SIZE });
/**
 * Per command: how many jobs the plan gives the copy kernel and the page kernel; null where it has
 * no entry (a copy then runs all its jobs on the copy kernel). A merged copy's entry is [0, 0].
 */
function shape(plan: PageCopyPlan, list: ExecutableList): ([number, number] | null)[] {
  return list.commands.map((c) => {
    const split = entry(plan, c);
    return split ? [split.general.length, split.pages.length] : null;
  });
}
const entry = (plan: PageCopyPlan, c: IndexedCommand | undefined): PageCopySplit | undefined =>
  c?.kind === 'copy' ? plan.get(c) : undefined;
/** The one list's plan. */
const planOf = (t: PageTableMirror, commands: IndexedCommand[]): [PageCopyPlan, ExecutableList] => {
  const list = { id: 1, commands };
  return [planPageCopies(t, [list]), list];
};

describe('planPageCopies', () => {
  test('independent consecutive copies share the first one’s dispatch; the lists given are not changed', () => {
    const jobs = [[page(1, 2)], [page(3, 4)]];
    const commands = [copy(0, jobs[0] as CopyJob[]), copy(1, jobs[1] as CopyJob[])];
    const list: ExecutableList = { id: 1, commands };
    // Frozen, lists, commands and jobs: planning that wrote to any of them would throw.
    const frozen = Object.freeze({ ...list, commands: Object.freeze(commands.map((c) => Object.freeze(c))) });
    for (const each of jobs) Object.freeze(each).forEach((job) => Object.freeze(job));
    const plan = planPageCopies(table(), [frozen]);
    expect(shape(plan, list)).toEqual([
      [0, 2],
      [0, 0],
    ]);
    // The executable form stays what it was made: the same objects, the same jobs arrays, nothing added.
    expect(frozen.commands).toEqual(commands);
    commands.forEach((command, i) => {
      expect(frozen.commands[i]).toBe(command);
      expect(command.kind === 'copy' && command.jobs).toBe(jobs[i]);
    });
    expect(commands[1]).toEqual(copy(1, [page(3, 4)]));
    expect([...plan.keys()]).toEqual(commands);
    // The first copy's entry holds both copies' page jobs, resolved.
    expect(entry(plan, commands[0])?.pages).toEqual([
      { ...page(1, 2), dstWord: 10 * WORDS, srcWord: 11 * WORDS },
      { ...page(3, 4), dstWord: 12 * WORDS, srcWord: 13 * WORDS },
    ]);
  });

  test('a copy reading or writing a page an earlier one of the group writes, or writing one it reads, starts its own dispatch', () => {
    const t = table();
    const cases: [string, CopyJob, CopyJob][] = [
      ['read after write', page(1, 2), page(3, 1)],
      ['write after read', page(1, 2), page(2, 3)],
      ['write after write', page(1, 2), page(1, 3)],
    ];
    for (const [, a, b] of cases) {
      const [plan, list] = planOf(t, [copy(0, [a]), copy(1, [b])]);
      expect(shape(plan, list)).toEqual([
        [0, 1],
        [0, 1],
      ]);
    }
    // Reading the same page twice is no hazard.
    const [plan, shared] = planOf(t, [copy(0, [page(1, 2)]), copy(1, [page(3, 2)])]);
    expect(shape(plan, shared)).toEqual([
      [0, 2],
      [0, 0],
    ]);
  });

  test('no merging across another command, into a copy that keeps general jobs, or of a copy in phases', () => {
    const t = table();
    const dispatch: IndexedCommand = {
      index: 1,
      kind: 'dispatch',
      pipeline: PIPELINE,
      root: new Uint32Array(4),
      groups: [1, 1, 1],
      addresses: [],
    };
    const [acrossPlan, across] = planOf(t, [copy(0, [page(1, 2)]), dispatch, copy(2, [page(3, 4)])]);
    expect(shape(acrossPlan, across)).toEqual([[0, 1], null, [0, 1]]);
    const nulls = { dst: at(5), src: at(4), bytes: TILE_SIZE };
    const [mixedPlan, mixed] = planOf(t, [copy(0, [page(1, 2)]), copy(1, [page(3, 4), nulls])]);
    expect(shape(mixedPlan, mixed)).toEqual([
      [0, 1],
      [1, 1],
    ]);
    expect(entry(mixedPlan, mixed.commands[1])?.general[0]).toBe(nulls);
    // A copy with no resident piece has no entry, and the next copy starts its own dispatch.
    const [nonePlan, none] = planOf(t, [copy(0, [page(1, 2)]), copy(1, [nulls]), copy(2, [page(3, 4)])]);
    expect(shape(nonePlan, none)).toEqual([[0, 1], null, [0, 1]]);
    const phased = copy(0, [page(1, 2)], 2);
    const [keptPlan] = planOf(t, [phased]);
    expect(keptPlan.size).toBe(0);
    expect(phased).toEqual(copy(0, [page(1, 2)], 2));
  });
});

describe('the copy encoder takes each copy’s jobs from the plan', () => {
  const COPY = { label: 'copy' } as GPUComputePipeline;
  /** Plans and encodes `commands` as the executor does: the jobs buffer, and per dispatch [kernel, groups x, root]. */
  function encode(plan: PageCopyPlan, commands: IndexedCommand[]): [CopyJob[], [string, number, number[]][]] {
    const planning = { jobs: [], pageCopies: plan } as unknown as Planning;
    const dispatches: [string, number, number[]][] = [];
    let pipeline = '';
    const pass = {
      setBindGroup: () => undefined,
      setPipeline: (p: GPUComputePipeline) => (pipeline = p.label),
      dispatchWorkgroups: (x: number) => dispatches.push([pipeline, x, []]),
    };
    const context = {
      passes: { compute: () => pass },
      prelude: {},
      copy: { pipeline: COPY, pages: PIPELINE, jobs: undefined, plan },
    } as unknown as EncodeContext;
    for (const command of commands) {
      if (command.kind !== 'copy') continue;
      const constants = copyEncoder.plan(command, planning);
      if (!constants) continue;
      const from = dispatches.length;
      copyEncoder.encode(
        command,
        context,
        constants.map((c, i) => ({ offset: i * 256, constants: c })),
      );
      constants.forEach((c, i) => ((dispatches[from + i] as [string, number, number[]])[2] = [...c.root]));
    }
    return [planning.jobs, dispatches];
  }

  test('general jobs on the copy kernel, then page jobs on the page kernel; a merged copy encodes nothing', () => {
    const nulls = { dst: at(5), src: at(4), bytes: TILE_SIZE };
    const commands = [copy(0, [page(1, 2), nulls]), copy(1, [page(3, 4)])];
    const [jobs, dispatches] = encode(planPageCopies(table(), [{ id: 1, commands }]), commands);
    // The second copy joins the first one's page dispatch (it has no general job of its own).
    expect(jobs).toEqual([
      nulls,
      { ...page(1, 2), dstWord: 10 * WORDS, srcWord: 11 * WORDS },
      { ...page(3, 4), dstWord: 12 * WORDS, srcWord: 13 * WORDS },
    ]);
    // Per dispatch: its kernel, its workgroups along x (256 invocations each, shaders/copy.wgsl: a
    // word each on the copy kernel, 16 bytes on the page kernel) and its root constants (first job,
    // job count, stride).
    expect(dispatches).toEqual([
      ['copy', Math.ceil((TILE_SIZE + 8) / (4 * 256)), [0, 1, 1, 0]],
      ['pages', TILE_SIZE / (16 * 256), [1, 2, 1, 0]],
    ]);
  });

  test('a copy without an entry runs all its jobs on the copy kernel', () => {
    const commands = [copy(0, [page(1, 2)])];
    const [jobs, dispatches] = encode(new Map(), commands);
    expect(jobs).toEqual([page(1, 2)]);
    expect(dispatches.map(([pipeline, , root]) => [pipeline, root.slice(0, 3)])).toEqual([['copy', [0, 1, 1]]]);
  });
});
