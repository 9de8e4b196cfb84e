/**
 * Which copy jobs the page kernel (shaders/copy.wgsl, d3d12_copy_pages) runs: at submission, each
 * 16-byte aligned job of a copy is cut where a page of either side ends, and every piece whose
 * source and destination pages are RESIDENT in the page-table mirror's shadow is resolved to pool
 * word indices. The rest stays with the copy kernel, which translates each word on the GPU.
 *
 * The result is a plan for that one submission (PageCopyPlan): per executable copy command, which
 * of its jobs each kernel runs. The copy encoder (encoders/copy.ts) consults it; the executable
 * commands themselves are never rebuilt or changed (src/commands/recorded-commands.ts). A copy
 * with no entry runs all its jobs on the copy kernel. Entries are keyed by the command object: each
 * occurs once in a submission (executableCommands makes them afresh at every execution).
 *
 * Why this is the same copy: the shadow is what the GPU's table holds for the submission that is
 * about to be made (page-table.ts: flush() sends it first, and a lost testing write is lost from
 * both), and a resident, aligned access is exactly a pool access in the copy kernel too: no fault, no
 * NULL tile, no unmapped access to record. Faults, NULL tiles, evicted heaps and unaligned bytes all
 * stay on the copy kernel, job by job as before. A copy in several phases (jobs sharing destination
 * words, copyPhases) is left whole: its phase split is by job index.
 *
 * Consecutive copies of a list whose jobs all went to the page kernel share one dispatch, the first
 * one's (its entry holds all their page jobs, theirs none), when no pool page one of them writes is
 * read or written by another (a streamer's batch of tile copies is one dispatch, not one per tile).
 * Their jobs cannot fault, so no record names the wrong command; and with no page in common,
 * running them together moves the same bytes as running them in turn.
 *
 * Invariant: plan right before the lists are encoded and submitted, with no page-table change in
 * between (encodeExecution plans as it encodes; GpuBackend.submit submits what it returns at once).
 */
import { TILE_SIZE } from '../memory/tiling.js';
import type { CopyJob, PageCopyJob } from './copy-jobs.js';
import type { ExecutableCommand, ExecutableList } from './encoders/executable-commands.js';
import type { PageTableMirror } from './page-table.js';

/** Bytes the page kernel moves per invocation: one vec4 (so jobs must be 16-byte aligned on both sides). */
const PIECE_ALIGN = 16;
/** Pool word index → pool page: 2^14 words a 64 KiB page. */
const WORDS_PER_PAGE_SHIFT = 14;

type Copy = Extract<ExecutableCommand, { kind: 'copy' }>;

/** A copy's jobs for this submission: those of the copy kernel (general) and of the page kernel (pages). */
export interface PageCopySplit {
  general: readonly CopyJob[];
  pages: readonly PageCopyJob[];
}

/** One submission's page-copy plan, keyed by the executable copy command itself. */
export type PageCopyPlan = ReadonlyMap<Copy, PageCopySplit>;

/** The pool word index of the word at virtual `address`, or -1 when its page is not RESIDENT. */
function residentWord(table: PageTableMirror, address: number): number {
  const base = table.encoding.residentWordBase(table.entryAt(Math.floor(address / TILE_SIZE)));
  return base < 0 ? -1 : base + (address % TILE_SIZE) / 4;
}

/**
 * Adds the pieces of `job` (16-byte aligned) to `pages` and `general`: cut where a page of either
 * side ends, each to the page kernel when both its pages are RESIDENT. A job with no resident piece
 * stays whole.
 */
function splitJob(
  table: PageTableMirror,
  job: CopyJob,
  dst: number,
  src: number,
  general: CopyJob[],
  pages: PageCopyJob[],
): void {
  // The common case, a job inside one page on each side (a tile's copy), with no cut.
  if ((dst % TILE_SIZE) + job.bytes <= TILE_SIZE && (src % TILE_SIZE) + job.bytes <= TILE_SIZE) {
    const [dstWord, srcWord] = [residentWord(table, dst), residentWord(table, src)];
    if (dstWord >= 0 && srcWord >= 0) pages.push({ dst: job.dst, src: job.src, bytes: job.bytes, dstWord, srcWord });
    else general.push(job);
    return;
  }
  const cut: PageCopyJob[] = [];
  for (let done = 0; done < job.bytes;) {
    const [to, from] = [dst + done, src + done];
    const bytes = Math.min(job.bytes - done, TILE_SIZE - (to % TILE_SIZE), TILE_SIZE - (from % TILE_SIZE));
    const piece = { dst: job.dst + BigInt(done), src: job.src + BigInt(done), bytes };
    cut.push({ ...piece, dstWord: residentWord(table, to), srcWord: residentWord(table, from) });
    done += bytes;
  }
  if (!cut.some((piece) => piece.dstWord >= 0 && piece.srcWord >= 0)) {
    general.push(job);
    return;
  }
  for (const piece of cut) {
    if (piece.dstWord >= 0 && piece.srcWord >= 0) pages.push(piece);
    else general.push({ dst: piece.dst, src: piece.src, bytes: piece.bytes });
  }
}

/** The jobs of one copy, split between the copy kernel (general) and the page kernel (pages). */
export function splitPageJobs(
  table: PageTableMirror,
  jobs: readonly CopyJob[],
): { general: CopyJob[]; pages: PageCopyJob[] } {
  const general: CopyJob[] = [];
  const pages: PageCopyJob[] = [];
  for (const job of jobs) {
    // Addresses are below 2^40 (the emulated address space): exact as numbers.
    const [dst, src] = [Number(job.dst), Number(job.src)];
    if (dst % PIECE_ALIGN === 0 && src % PIECE_ALIGN === 0 && job.bytes % PIECE_ALIGN === 0)
      splitJob(table, job, dst, src, general, pages);
    else general.push(job);
  }
  return { general, pages };
}

/** The pool pages a group of page-kernel jobs reads and writes. */
class PageUse {
  private readonly reads = new Set<number>();
  private readonly writes = new Set<number>();

  add(jobs: readonly PageCopyJob[]): void {
    for (const job of jobs) {
      this.reads.add(job.srcWord >>> WORDS_PER_PAGE_SHIFT);
      this.writes.add(job.dstWord >>> WORDS_PER_PAGE_SHIFT);
    }
  }

  /** Whether `jobs` touch no page the group writes, and write no page it reads. */
  independent(jobs: readonly PageCopyJob[]): boolean {
    return jobs.every((job) => {
      const [read, written] = [job.srcWord >>> WORDS_PER_PAGE_SHIFT, job.dstWord >>> WORDS_PER_PAGE_SHIFT];
      return !this.writes.has(read) && !this.writes.has(written) && !this.reads.has(written);
    });
  }
}

/** Adds to `plan` the splits of a list's copies: page-kernel jobs resolved, consecutive independent copies merged. */
function planList(table: PageTableMirror, list: ExecutableList, plan: Map<Copy, PageCopySplit>): void {
  /** The copy whose page dispatch the following copies' page jobs may join: its jobs, their pages. */
  let group: { pages: PageCopyJob[]; use: PageUse } | undefined;
  for (const command of list.commands) {
    if (command.kind !== 'copy' || command.phases !== 1) {
      group = undefined;
      continue;
    }
    const { general, pages } = splitPageJobs(table, command.jobs);
    if (pages.length === 0) {
      group = undefined;
      continue;
    }
    if (group && general.length === 0 && group.use.independent(pages)) {
      group.pages.push(...pages);
      group.use.add(pages);
      plan.set(command, { general: [], pages: [] });
      continue;
    }
    const use = new PageUse();
    use.add(pages);
    group = { pages, use };
    plan.set(command, { general, pages });
  }
}

/**
 * Which jobs of each copy of `lists` the page kernel runs (see the header); copies without an entry
 * run all their jobs on the copy kernel. `lists` and their commands are not changed.
 */
export function planPageCopies(table: PageTableMirror, lists: readonly ExecutableList[]): PageCopyPlan {
  const plan = new Map<Copy, PageCopySplit>();
  for (const list of lists) planList(table, list, plan);
  return plan;
}
