/**
 * The API fuzzer's catalogue of ResidencyManager and ResidencySet (d3dx12residency.h's): tracking,
 * sets opened, filled and closed, and executions through the manager.
 *
 * Invariants: the pool's managers use the fuzzer's clock (one millisecond per call), so grace-period
 * trimming happens at the same calls on every run of a seed; a valid insert names an object its
 * set's manager tracks; executions pair each closed list with a closed set of the same manager, or
 * null.
 */
import type {
  CommandQueue,
  DescriptorHeap,
  GraphicsCommandList,
  Heap,
  ResidencyManager,
  ResidencySet,
  Resource,
} from '../../../src/index.js';
import { listArrayParam } from './catalogue-objects.js';
import { badRef, badRefArray, isOpen, pickOf, sample, type FuzzContext } from './pool.js';
import { param, type CallPlan, type MethodSpec, type Param, type Receiver } from './spec.js';
import { invalid, notAnArray, type Arg } from './values.js';

type Pageable = Heap | Resource | DescriptorHeap;

/** The pageables `manager` tracks (its internal map, read as the snapshot reads it). */
export function trackedBy(manager: ResidencyManager): Pageable[] {
  const map = (manager as unknown as { managedObjects: Map<Heap, { pageable: Pageable }> }).managedObjects;
  return [...map.values()].map((managed) => managed.pageable);
}

const isOpenSet = (set: ResidencySet): boolean => !set.closed;

function managerPlan(
  ctx: FuzzContext,
  args: (manager: ResidencyManager) => unknown[] | undefined,
  extra: Partial<CallPlan> = {},
): CallPlan | undefined {
  const manager = pickOf(ctx.rng, ctx.main.managers);
  const built = manager && args(manager);
  return built && { receiver: { target: manager, validity: 'valid' }, args: built, ...extra };
}

/** A pageable of this device `manager` already tracks (refused by beginTrackingObject). */
function trackedArg(ctx: FuzzContext, manager: ResidencyManager): Arg | undefined {
  const tracked = pickOf(
    ctx.rng,
    trackedBy(manager).filter((p) => !p.released),
  );
  return tracked && invalid(tracked);
}

function setsParam(): Param {
  return {
    name: 'sets',
    aliases: ['residencySets'],
    bad: (ctx, good, p) => {
      const { rng } = ctx;
      const items = [...(good as unknown[])];
      const r = rng.float();
      if (r < 0.2) return notAnArray(rng);
      if (r < 0.4) return invalid(rng.chance(0.5) ? [...items, null] : items.slice(1));
      const manager = p.receiver.target as ResidencyManager;
      const wrongSet = pickOf(rng, [
        ...ctx.main.sets.filter((s) => isOpenSet(s) || ctx.main.setManager.get(s) !== manager),
        ...ctx.other.sets,
      ]);
      items[rng.int(0, items.length - 1)] = wrongSet ?? badRef(ctx, 'set').value;
      return invalid(items);
    },
  };
}

export function residencyCatalogue(): MethodSpec[] {
  const setOf = (ctx: FuzzContext, open: boolean): ResidencySet | undefined =>
    pickOf(
      ctx.rng,
      ctx.main.sets.filter((s) => isOpenSet(s) === open),
    );
  const setReceiver = (set: ResidencySet | undefined, validity: Receiver['validity']): Receiver | undefined =>
    set && { target: set, validity };
  const setPlan = (set: ResidencySet | undefined, args: unknown[]): CallPlan | undefined =>
    set && { receiver: { target: set, validity: 'valid' }, args };
  return [
    {
      cls: 'ResidencyManager',
      name: 'beginTrackingObject',
      certain: true,
      weight: 1.5,
      params: [
        {
          name: 'pageable',
          bad: (ctx, _, p) =>
            (ctx.rng.chance(0.3) ? trackedArg(ctx, p.receiver.target as ResidencyManager) : undefined) ??
            badRef(ctx, 'pageable'),
        },
      ],
      plan: (ctx) =>
        managerPlan(ctx, (manager) => {
          const tracked = new Set(trackedBy(manager));
          const candidate = pickOf(
            ctx.rng,
            ctx.main.pageables().filter((p) => !tracked.has(p)),
          );
          return candidate && [candidate];
        }),
    },
    {
      cls: 'ResidencyManager',
      name: 'endTrackingObject',
      certain: true,
      weight: 0.5,
      params: [
        {
          name: 'pageable',
          // Ending the tracking of a released object is how an app cleans up after it: not certainly wrong.
          bad: (ctx, _, p) => {
            const releasedTracked = pickOf(
              ctx.rng,
              trackedBy(p.receiver.target as ResidencyManager).filter((x) => x.released),
            );
            if (releasedTracked && ctx.rng.chance(0.3)) return { value: releasedTracked, validity: 'maybe' };
            return badRef(ctx, 'pageable', { released: 'maybe' });
          },
        },
      ],
      plan: (ctx) => managerPlan(ctx, (manager) => mapArg(pickOf(ctx.rng, trackedBy(manager)))),
    },
    {
      cls: 'ResidencyManager',
      name: 'createResidencySet',
      certain: true,
      weight: 0.5,
      params: [],
      plan: (ctx) => {
        const manager = pickOf(ctx.rng, ctx.main.managers);
        return (
          manager && {
            receiver: { target: manager, validity: 'valid' },
            args: [],
            onSuccess: (set) => ctx.main.addSet(set as ResidencySet, manager),
          }
        );
      },
    },
    {
      cls: 'ResidencyManager',
      name: 'getStats',
      certain: true,
      weight: 0.3,
      params: [],
      plan: (ctx) => managerPlan(ctx, () => []),
    },
    {
      cls: 'ResidencyManager',
      name: 'queryResidencyStats',
      certain: true,
      weight: 0.2,
      params: [],
      plan: (ctx) => managerPlan(ctx, () => []),
    },
    {
      cls: 'ResidencyManager',
      name: 'executeCommandLists',
      weight: 4,
      params: [
        param('queue', (ctx) => badRef(ctx, 'queue')),
        { ...listArrayParam('lists', ['commandLists']), bad: (ctx, good, p) => badLists(ctx, good, p) },
        setsParam(),
      ],
      plan: (ctx) =>
        managerPlan(ctx, (manager) => {
          const queue = pickOf(ctx.rng, ctx.main.queues);
          const lists = queue ? ctx.main.listsOf(queue.type, false) : [];
          if (!queue || lists.length === 0) return undefined;
          const chosen = sample(ctx.rng, lists, ctx.rng.int(1, 2));
          const sets = ctx.main.sets.filter((s) => !isOpenSet(s) && ctx.main.setManager.get(s) === manager);
          return [queue, chosen, chosen.map(() => (ctx.rng.chance(0.8) ? (pickOf(ctx.rng, sets) ?? null) : null))];
        }),
    },
    {
      cls: 'ResidencySet',
      name: 'open',
      certain: true,
      weight: 1.5,
      params: [],
      plan: (ctx) => setPlan(setOf(ctx, false), []),
      badReceiver: (ctx) => setReceiver(setOf(ctx, true), 'invalid'),
    },
    {
      cls: 'ResidencySet',
      name: 'insert',
      certain: true,
      weight: 3,
      params: [
        {
          name: 'pageable',
          bad: (ctx, _, p) => {
            const manager = ctx.main.setManager.get(p.receiver.target as ResidencySet);
            const tracked = new Set(manager ? trackedBy(manager) : []);
            const untracked = pickOf(
              ctx.rng,
              ctx.main.pageables().filter((x) => !tracked.has(x)),
            );
            if (untracked && ctx.rng.chance(0.3)) return invalid(untracked);
            return badRef(ctx, 'pageable');
          },
        },
      ],
      plan: (ctx) => {
        const set = setOf(ctx, true);
        const manager = set && ctx.main.setManager.get(set);
        // Live objects only: inserting a released one is a wrong call (see the corruption above).
        const candidate =
          manager &&
          pickOf(
            ctx.rng,
            trackedBy(manager).filter((p) => !p.released),
          );
        return candidate && setPlan(set, [candidate]);
      },
      badReceiver: (ctx) => setReceiver(setOf(ctx, false), 'invalid'),
    },
    {
      cls: 'ResidencySet',
      name: 'close',
      certain: true,
      weight: 1.5,
      params: [],
      plan: (ctx) => setPlan(setOf(ctx, true), []),
      badReceiver: (ctx) => setReceiver(setOf(ctx, false), 'invalid'),
    },
  ];
}

/** Lists the manager's queue cannot run (open, another type, another device's), or not lists at all. */
function badLists(ctx: FuzzContext, good: unknown, p: CallPlan): Arg {
  const queue = p.args[0] as CommandQueue;
  const items = good as GraphicsCommandList[];
  if (ctx.rng.chance(0.2)) return invalid([]);
  const misfit = pickOf(
    ctx.rng,
    ctx.main.lists.filter((l) => l.type !== queue.type || isOpen(l)),
  );
  // One more list than sets is wrong by itself; a misfit in place of a good list is wrong too.
  if (misfit && ctx.rng.chance(0.4)) return invalid(items.map((l, i) => (i === 0 ? misfit : l)));
  return badRefArray(ctx, 'list', items, { emptyValidity: 'invalid' });
}

function mapArg<T>(value: T | undefined): unknown[] | undefined {
  return value === undefined ? undefined : [value];
}
