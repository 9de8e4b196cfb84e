/**
 * The API fuzzer's runner: a seeded sequence of calls drawn from the catalogue, each judged.
 *
 * For every call: a snapshot (snapshot.ts), the call, then the verdict. A call that returns a
 * promise is awaited (under a timeout when it must settle), after the GPU has been let finish its
 * work so that nothing changes by itself meanwhile. The verdict:
 *   - it returns normally, or throws a D3D12Error whose hresult is a known HRESULT string, whose
 *     message is `call: argument: rule (HRESULT)` and readable (not a dump of whole objects), whose
 *     call is the method's name and whose argument is one of the method's parameters (or 'this');
 *   - after a throw the snapshot equals the one before;
 *   - a call with an argument (or receiver) tagged 'invalid' throws; a valid call of a method
 *     marked `certain` does not;
 *   - after every call the bookkeeping invariants hold and no device was removed.
 * WebGPU errors are caught in error scopes around each stretch between sync points; at a sync
 * point every queue wait is released (each fence signalled from the CPU to the largest value the
 * fuzz gave it) and the GPU must finish its work within the hang timeout. Near the end the device
 * is destroyed, and the last calls run on the removed device.
 *
 * Invariants: the calls and their arguments depend only on the seed (nothing reads GPU timing), so
 * a failure's seed and call index reproduce it; failures are grouped by method, kind and what went
 * wrong, the first occurrence kept.
 */
import { createDevice, D3D12Error, type Device } from '../../../src/index.js';
import { Random } from '../../../src/validate/random.js';
import { fullCatalogue, populate } from './catalogue.js';
import { DeviceWorld, isOpen, type FuzzContext } from './pool.js';
import { checkInvariants, diffSnapshots, changeKind, releasesAwaitingGpu, takeSnapshot } from './snapshot.js';
import { callMethod, FuzzerBug, isFunction, type CallPlan, type MethodSpec, type Receiver } from './spec.js';
import { describeValue, type Validity } from './values.js';
import { deviceContext } from '../device-context.js';

const MIB = 2 ** 20;
/** The longest message worth reading (characters); longer ones quote whole objects. */
const MAX_MESSAGE = 10_000;
const HRESULTS = new Set([
  'E_INVALIDARG',
  'E_OUTOFMEMORY',
  'E_NOTIMPL',
  'E_FAIL',
  'DXGI_ERROR_DEVICE_REMOVED',
  'DXGI_ERROR_DEVICE_HUNG',
  'DXGI_ERROR_UNSUPPORTED',
  'DXGI_ERROR_INVALID_CALL',
]);

export interface FuzzConfig {
  seed: number;
  calls: number;
  /** Stop after this call index (a replay of one failure); default: run all calls. */
  stopAt?: number;
  /** The methods to call; default the full catalogue. */
  catalogue?: MethodSpec[];
  /** Calls between sync points. */
  syncEvery?: number;
  /** How long a promise that must settle (and the GPU's work at a sync point) may take. */
  hangTimeoutMs?: number;
  /** Calls made on the device after destroy(); 0 to never destroy it. */
  tailCalls?: number;
  /** The share of calls made with every argument valid. */
  validShare?: number;
  /** Distinct failures kept. */
  maxFailures?: number;
  /** Logs every call (a replay's trace). */
  trace?: (line: string) => void;
  /** Hook for self-tests: runs once the worlds exist, before the first call. */
  prepare?: (ctx: FuzzContext) => void;
}

export interface Failure {
  key: string;
  kind: string;
  method: string;
  /** Every method the failure was seen in (failures of one cause across methods are one group). */
  methods: string[];
  count: number;
  seed: number;
  index: number;
  call: string;
  detail: string;
}

export interface FuzzReport {
  seed: number;
  calls: number;
  successes: number;
  throws: Record<string, number>;
  pending: number;
  failures: Failure[];
  failureCount: number;
  perMethod: Map<string, { calls: number; ok: number; threw: number; ms: number }>;
  notes: string[];
  ms: number;
}

interface Outcome {
  threw: boolean;
  error?: unknown;
  result?: unknown;
  pending?: boolean;
  hung?: boolean;
  async: boolean;
}

const macrotask = (): Promise<'tick'> => new Promise((resolve) => setTimeout(() => resolve('tick'), 0));
const timeout = (ms: number): Promise<'timeout'> => new Promise((resolve) => setTimeout(() => resolve('timeout'), ms));
const isThenable = (value: unknown): value is Promise<unknown> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';
const errorText = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);
/** A message with its numbers, quoted values and ids taken out: what groups a failure. */
const shape = (text: string): string =>
  text
    .replace(/'[^']*'/g, "'…'")
    .replace(/#\d+/g, '#')
    .replace(/\d+/g, 'N')
    .slice(0, 120);

export async function runFuzz(gpuDevice: GPUDevice, config: FuzzConfig): Promise<FuzzReport> {
  const started = performance.now();
  const rng = new Random(config.seed);
  const syncEvery = config.syncEvery ?? 250;
  const hangTimeoutMs = config.hangTimeoutMs ?? 15_000;
  const tailCalls = config.tailCalls ?? (config.calls >= 2000 ? 200 : 0);
  const validShare = config.validShare ?? 0.4;
  const maxFailures = config.maxFailures ?? 50;
  const catalogue = (config.catalogue ?? fullCatalogue()).filter((spec) => (spec.weight ?? 1) > 0);
  const destroySpec = (config.catalogue ?? fullCatalogue()).find(
    (spec) => spec.cls === 'Device' && spec.name === 'destroy',
  );
  const tier = 2 + (config.seed % 3);
  const timestamps = gpuDevice.features.has('timestamp-query');

  const labels = new WeakMap<object, string>();
  const name = (object: object): string | undefined => {
    const base = labels.get(object);
    if (base === undefined) return undefined;
    if ('released' in object && object.released === true) return `${base}[released]`;
    if ('commands' in object && 'reset' in object) return `${base}[${isOpen(object as never) ? 'open' : 'closed'}]`;
    if ('closed' in object && 'insert' in object)
      return `${base}[${(object as { closed: boolean }).closed ? 'closed' : 'open'}]`;
    return base;
  };
  const options = { gpuDevice, onPageFault: 'report' as const, tiledResourcesTier: tier as 2 | 3 | 4 };
  const mainDevice: Device = await createDevice({
    ...options,
    localMemoryBytes: 16 * MIB,
    nonLocalMemoryBytes: 8 * MIB,
  });
  const otherDevice: Device = await createDevice({
    ...options,
    localMemoryBytes: 4 * MIB,
    nonLocalMemoryBytes: 4 * MIB,
  });
  let clock = 0;
  const main = new DeviceWorld('', mainDevice, labels);
  const other = new DeviceWorld('other.', otherDevice, labels);
  const ctx: FuzzContext = {
    rng,
    main,
    other,
    pipelineCreations: { compute: 2, graphics: 1 },
    timestamps,
    tier,
    now: () => clock,
  };
  await populate(main, { full: true, timestamps, tier, clock: ctx.now });
  await populate(other, { full: false, timestamps, tier, clock: ctx.now });
  config.prepare?.(ctx);

  const report: FuzzReport = {
    seed: config.seed,
    calls: 0,
    successes: 0,
    throws: {},
    pending: 0,
    failures: [],
    failureCount: 0,
    perMethod: new Map(),
    notes: [],
    ms: 0,
  };
  const groups = new Map<string, Failure>();
  let index = 0;
  let description = '(setup)';
  let method = '(setup)';
  const fail = (kind: string, sub: string, detail: string, acrossMethods = false): void => {
    report.failureCount++;
    const key = `${acrossMethods ? '*' : method} | ${kind} | ${sub}`;
    const known = groups.get(key);
    if (known) {
      known.count++;
      if (!known.methods.includes(method)) known.methods.push(method);
      return;
    }
    if (groups.size >= maxFailures) return;
    const failure: Failure = {
      key,
      kind,
      method,
      methods: [method],
      count: 1,
      seed: config.seed,
      index,
      call: description,
      detail,
    };
    groups.set(key, failure);
    report.failures.push(failure);
  };

  // ---- WebGPU errors, per stretch between sync points --------------------------------------
  let stretchStart = 0;
  const onUncaptured = (event: Event): void =>
    fail('WebGPU error', 'uncaptured', `uncaptured: ${(event as GPUUncapturedErrorEvent).error.message}`);
  gpuDevice.addEventListener('uncapturederror', onUncaptured);
  const openScopes = (): void => {
    gpuDevice.pushErrorScope('validation');
    gpuDevice.pushErrorScope('out-of-memory');
    stretchStart = index;
  };
  const closeScopes = async (): Promise<void> => {
    for (const filter of ['out-of-memory', 'validation']) {
      const error = await gpuDevice.popErrorScope();
      if (error) {
        const saved = [method, description];
        [method, description] = [
          '(calls ' + `${stretchStart}..${index})`,
          `the calls from #${stretchStart} to #${index} (replay with a trace to find the one)`,
        ];
        fail('WebGPU error', filter, `${filter} error between calls #${stretchStart} and #${index}: ${error.message}`);
        [method, description] = saved as [string, string];
      }
    }
  };

  // ---- sync points: release every wait, wait for the GPU, drain faults ------------------------
  const brokenInvariants = new Set<string>();
  const reportedRemoval = new Set<Device>();
  let syncs = 0;
  let slowCalls = 0;
  const sync = async (): Promise<void> => {
    await closeScopes();
    for (const world of [main, other]) {
      if (world.destroyed) continue;
      const queues = deviceContext(world.device).queues;
      for (let round = 0; round < 50 && [...queues].some((q) => q.holdsWork); round++) {
        for (const [fence, max] of world.fenceMax) upkeep(() => fence.signal(max), `signal fence to ${max}`);
      }
      if ([...queues].some((q) => q.holdsWork))
        report.notes.push(`call #${index}: a queue still held work after 50 rounds of fence signals`);
      const value = ++world.syncValue;
      upkeep(() => world.syncQueue.signal(world.syncFence, value), 'sync signal');
      const done = await Promise.race([
        world.syncFence.setEventOnCompletion(value).then(() => 'done' as const),
        timeout(hangTimeoutMs),
      ]);
      if (done === 'timeout')
        fail(
          'hang',
          'sync point',
          `the GPU work submitted before call #${index} did not complete within ${hangTimeoutMs} ms`,
        );
      const faults = await Promise.race([world.device.readFaults(), timeout(hangTimeoutMs)]);
      if (faults === 'timeout')
        fail('hang', 'readFaults', `readFaults at a sync point did not settle within ${hangTimeoutMs} ms`);
      if (++syncs % 4 === 0) {
        upkeep(() => world.device.setResidencyDebugBudget(null), 'clear debug budget');
        for (const segment of ['LOCAL', 'NON_LOCAL'] as const)
          upkeep(() => world.device.setVideoMemoryReservation(segment, 0), 'clear reservation');
      }
    }
    openScopes();
  };
  const upkeep = (action: () => void, what: string): void => {
    try {
      action();
    } catch (error) {
      fail('upkeep', what, `the fuzzer's own ${what} threw ${errorText(error)}`);
    }
  };

  /**
   * Before a call that returns a promise: lets the GPU finish what it was given, and the releases
   * waiting for it run, so that nothing changes by itself while the call is awaited.
   */
  const quiesce = async (): Promise<void> => {
    for (const world of [main, other]) {
      if (world.destroyed || world.device.getDeviceRemovedReason() !== 'S_OK') continue;
      const value = ++world.syncValue;
      upkeep(() => world.syncQueue.signal(world.syncFence, value), 'quiesce signal');
      const done = await Promise.race([
        world.syncFence.setEventOnCompletion(value).then(() => 'done' as const),
        timeout(hangTimeoutMs),
      ]);
      if (done === 'timeout')
        fail(
          'hang',
          'quiesce',
          `the GPU work submitted before call #${index} did not complete within ${hangTimeoutMs} ms`,
        );
      for (let tick = 0; tick < 100 && releasesAwaitingGpu(world.device) > 0; tick++) await macrotask();
    }
  };

  // ---- one call ---------------------------------------------------------------------------
  const pick = (): { spec: MethodSpec; plan: CallPlan } => {
    const weights = catalogue.map((spec) => spec.weight ?? 1);
    for (let attempt = 0; attempt < 50; attempt++) {
      const spec = catalogue[rng.weighted(weights)] as MethodSpec;
      let plan: CallPlan | undefined;
      try {
        plan = spec.plan(ctx);
      } catch (error) {
        method = `${spec.cls}.${spec.name}`;
        description = '(planning)';
        fail('fuzzer bug', 'plan threw', `planning ${spec.name} threw ${errorText(error)}`);
      }
      if (plan) return { spec, plan };
    }
    throw new FuzzerBug('no method could be planned in 50 attempts');
  };

  const step = async (spec: MethodSpec, plan: CallPlan): Promise<void> => {
    const args = [...plan.args];
    const validities: Validity[] = args.map((_, i) => plan.validities?.[i] ?? 'valid');
    let receiver: Receiver = plan.receiver;
    const corrupt = plan.mustCorrupt === true || !rng.chance(validShare);
    let changed = false;
    if (corrupt) {
      const bad =
        spec.badReceiver && (spec.params.length === 0 || rng.chance(0.15)) ? spec.badReceiver(ctx) : undefined;
      if (bad) {
        receiver = bad;
        changed = true;
      } else if (spec.params.length > 0) {
        changed = true;
        const positions = spec.params.map((_, i) => i);
        const count = rng.chance(0.8) ? 1 : rng.int(2, Math.max(2, Math.min(3, positions.length)));
        for (let k = 0; k < count && positions.length > 0; k++) {
          const i = positions.splice(rng.int(0, positions.length - 1), 1)[0] as number;
          while (args.length <= i) {
            args.push(undefined);
            validities.push('valid');
          }
          const arg = (spec.params[i] as MethodSpec['params'][number]).bad(ctx, plan.args[i], plan);
          args[i] = arg.value;
          validities[i] = arg.validity;
        }
      }
    }
    method = `${spec.cls}.${spec.name}`;
    const tags = validities
      .map((v, i) => (v === 'valid' ? '' : `${spec.params[i]?.name ?? `#${i}`}: ${v}`))
      .filter(Boolean);
    if (receiver.validity !== 'valid') tags.unshift(`this: ${receiver.validity}`);
    const target = isFunction(spec)
      ? `${spec.cls === 'd3dx12' ? 'd3dx12.' : ''}${spec.name}`
      : (name(receiver.target) ?? describeValue(receiver.target, name));
    // A d3dx12 helper's result goes to a call on its receiver (spec.checkedBy): the receiver is named after it.
    const via = spec.checkedBy && name(receiver.target) ? ` into ${name(receiver.target) ?? ''}` : '';
    description = `${isFunction(spec) ? target : `${target}.${spec.name}`}(${args.map((a) => describeValue(a, name)).join(', ')})${via}${tags.length ? `  /* ${tags.join('; ')} */` : ''}`;
    config.trace?.(`#${index} ${description}`);
    const stats = report.perMethod.get(method) ?? { calls: 0, ok: 0, threw: 0, ms: 0 };
    const callStarted = performance.now();
    report.perMethod.set(method, stats);
    stats.calls++;

    const worlds = [main, other];
    if (spec.async) await quiesce();
    const before = takeSnapshot(worlds, name);
    const kept = spec.keeps?.(receiver.target, args);
    const outcome = await invoke(spec, plan, receiver.target, args);
    const expectThrow = receiver.validity === 'invalid' || validities.includes('invalid');
    // Only calls marked async are preceded by quiescence; a promise from another would make its snapshot unsafe.
    if (outcome.async && !spec.async)
      fail(
        'fuzzer bug',
        'unexpected promise',
        `${spec.name} returned a promise but is not marked async in the catalogue`,
      );
    if (outcome.hung) fail('hang', 'promise', `the returned promise did not settle within ${hangTimeoutMs} ms`);
    else if (outcome.threw) {
      stats.threw++;
      judgeThrow(spec, outcome.error);
      if (spec.certain && !changed && !plan.validities && !main.destroyed)
        fail('refused a valid call', shape(errorText(outcome.error)).slice(0, 80), `threw ${errorText(outcome.error)}`);
      const changes = diffSnapshots(before, takeSnapshot(worlds, name));
      const keptChange = kept?.();
      if (keptChange !== undefined) changes.push(keptChange);
      if (changes.length > 0) {
        const thrown = outcome.error instanceof D3D12Error ? outcome.error.message : errorText(outcome.error);
        const objects = [...new Set(changes.map((change) => changeKind(change).split('.')[0] ?? ''))].sort().join(', ');
        fail(
          'state changed before throw',
          `${shape(thrown).slice(0, 70)} | ${objects}`,
          `threw "${thrown}" after changing:\n      ${changes.slice(0, 12).join('\n      ')}`,
        );
      }
    } else if (outcome.pending) {
      report.pending++;
    } else {
      report.successes++;
      stats.ok++;
      if (expectThrow) {
        const which =
          receiver.validity === 'invalid'
            ? ['this']
            : validities.flatMap((v, i) => (v === 'invalid' ? [spec.params[i]?.name ?? `#${i}`] : []));
        fail(
          'accepted invalid argument',
          which.join(', '),
          `returned ${describeValue(outcome.result, name).slice(0, 80)} though ${which.join(', ')} ${which.length > 1 ? 'are' : 'is'} invalid`,
        );
      }
      try {
        plan.onSuccess?.(outcome.result, args);
      } catch (error) {
        fail('upkeep', 'pool update', `recording the result threw ${errorText(error)}`);
      }
    }
    const took = performance.now() - callStarted;
    stats.ms += took;
    if (took > 250 && slowCalls++ < 10)
      report.notes.push(`call #${index} took ${took.toFixed(0)} ms: ${description.slice(0, 200)}`);
    for (const world of worlds)
      world.upkeepProblems
        .splice(0)
        .forEach((p) => fail('upkeep', p.what.replace(/#\d+/g, '#'), `${p.what} threw ${errorText(p.error)}`));
    judgeInvariants(worlds);
  };

  const invoke = async (spec: MethodSpec, plan: CallPlan, target: object, args: unknown[]): Promise<Outcome> => {
    let result: unknown;
    try {
      result = spec.invoke ? spec.invoke(target, args) : callMethod(target, spec.name, args);
    } catch (error) {
      return { threw: true, error, async: false };
    }
    if (!isThenable(result)) return { threw: false, result, async: false };
    const promise = result;
    let settled: { ok: boolean; value: unknown } | undefined;
    const watched = promise.then(
      (value) => void (settled = { ok: true, value }),
      (error: unknown) => void (settled = { ok: false, value: error }),
    );
    await Promise.race([watched, plan.mustSettle === false ? macrotask() : timeout(hangTimeoutMs)]);
    const done = settled;
    if (!done) {
      if (plan.mustSettle !== false) return { threw: false, hung: true, async: true };
      // Allowed to stay pending; a late rejection is still judged.
      const [late, lateIndex] = [description, index];
      void watched.then(() => {
        const final = settled;
        if (final && !final.ok && !(final.value instanceof D3D12Error))
          report.notes.push(`call #${lateIndex} ${late} rejected later with ${errorText(final.value)}`);
      });
      return { threw: false, pending: true, async: true };
    }
    return done.ok
      ? { threw: false, result: done.value, async: true }
      : { threw: true, error: done.value, async: true };
  };

  const judgeThrow = (spec: MethodSpec, error: unknown): void => {
    if (error instanceof FuzzerBug) return fail('fuzzer bug', error.message, error.message);
    if (!(error instanceof D3D12Error))
      return fail('threw a non-D3D12Error', shape(errorText(error)), errorText(error));
    const hresult: unknown = error.hresult;
    report.throws[String(hresult)] = (report.throws[String(hresult)] ?? 0) + 1;
    if (typeof hresult !== 'string' || !HRESULTS.has(hresult))
      fail('bad HRESULT', String(hresult), `hresult is ${describeValue(hresult, name)}: ${error.message}`);
    if (error.message !== `${error.call}: ${error.argument}: ${error.rule} (${String(hresult)})`)
      fail('message format', '', `message "${error.message}" is not "call: argument: rule (HRESULT)"`);
    // A message is read by people: one that quotes a whole object graph (typed arrays and all) is not.
    if (error.message.length > MAX_MESSAGE)
      fail(
        'message too long',
        '',
        `a ${error.message.length}-character message: ${error.message.slice(0, 300)}…`,
        true,
      );
    const calls = [spec.name, ...(spec.checkedBy ?? [])];
    if (!calls.some((call) => error.call === call || error.call.endsWith(`.${call}`)))
      fail('message names another call', error.call, `names the call "${error.call}": ${error.message}`);
    const root = error.argument.split(/[.[]/)[0] ?? '';
    const allowed = new Set(['this', ...spec.params.flatMap((p) => [p.name, ...(p.aliases ?? [])])]);
    if (!allowed.has(root))
      fail(
        'message names no parameter',
        error.argument,
        `argument "${error.argument}" is none of (${[...allowed].join(', ')}): ${error.message}`,
      );
    return undefined;
  };

  const judgeInvariants = (worlds: DeviceWorld[]): void => {
    const now = new Set<string>();
    for (const world of worlds) {
      for (const violation of checkInvariants(world)) {
        now.add(violation.key);
        if (!brokenInvariants.has(violation.key))
          fail('invariant broken', violation.key.replace(/#\d+/g, '#'), `${violation.key}: ${violation.detail}`);
      }
      const reason = world.device.getDeviceRemovedReason();
      // destroy() removes the device on purpose; any other removal is a failure of some call.
      if (reason !== 'S_OK' && !world.destroyed && !reportedRemoval.has(world.device)) {
        reportedRemoval.add(world.device);
        fail(
          'device removed',
          reason,
          `${world.prefix || 'main.'}device removed: ${world.device.getPageFaultReport()?.message ?? reason}`,
        );
      }
    }
    brokenInvariants.clear();
    for (const key of now) brokenInvariants.add(key);
  };

  // ---- the run ----------------------------------------------------------------------------
  openScopes();
  const last = Math.min(config.calls - 1, config.stopAt ?? Infinity);
  const destroyAt = tailCalls > 0 ? config.calls - tailCalls : Infinity;
  try {
    for (index = 0; index <= last; index++) {
      clock = index;
      if (index > 0 && index % syncEvery === 0) await sync();
      if (index === destroyAt && destroySpec) {
        await sync();
        const plan = destroySpec.plan(ctx) as CallPlan;
        await step(destroySpec, plan);
      } else {
        const { spec, plan } = pick();
        await step(spec, plan);
      }
      report.calls++;
    }
    await sync();
  } finally {
    await closeScopes().catch(() => undefined);
    gpuDevice.removeEventListener('uncapturederror', onUncaptured);
    mainDevice.destroy();
    otherDevice.destroy();
  }
  report.ms = performance.now() - started;
  const slowest = [...report.perMethod].sort((a, b) => b[1].ms - a[1].ms).slice(0, 3);
  const neverOk = [...report.perMethod].filter(([, s]) => s.ok === 0).map(([m, s]) => `${m} (${s.calls})`);
  if (neverOk.length > 0) report.notes.push(`never returned normally: ${neverOk.join(', ')}`);
  report.notes.push(
    `slowest methods (snapshots included): ${slowest.map(([m, s]) => `${m} ${(s.ms / 1000).toFixed(1)} s over ${s.calls} calls`).join(', ')}`,
  );
  return report;
}

/** One line: calls, successes, throws by HRESULT, failures. */
export function summaryLine(report: FuzzReport): string {
  const throws = Object.entries(report.throws)
    .sort((a, b) => b[1] - a[1])
    .map(([hresult, n]) => `${hresult} ${n}`)
    .join(', ');
  const thrown = Object.values(report.throws).reduce((a, b) => a + b, 0);
  return `[fuzz] seed ${report.seed}: ${report.calls} calls in ${(report.ms / 1000).toFixed(1)} s: ${report.successes} returned, ${thrown} threw D3D12Error (${throws}), ${report.pending} left pending; ${report.failureCount} failures in ${report.failures.length} groups`;
}

/** The failures, each with its reproduction. */
export function failureReport(report: FuzzReport, replay: (failure: Failure) => string): string {
  return report.failures
    .map(
      (f, i) =>
        `${i + 1}. [${f.kind}] ${f.methods.join(', ')} (x${f.count})\n   seed ${f.seed}, call #${f.index}: ${f.call}\n   ${f.detail}\n   replay: ${replay(f)}`,
    )
    .join('\n');
}
