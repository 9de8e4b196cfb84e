/**
 * The shape of the API fuzzer's catalogue: one MethodSpec per public method, saying how to build a
 * valid call from the live pool and how to make each parameter wrong.
 *
 * Invariants: `plan` builds a call whose receiver and arguments are well formed ("valid": the call
 * may still fail for reasons of state, e.g. a resource in the wrong state); `bad` replaces one
 * argument and tags the replacement (values.ts says what 'invalid' promises). Parameter names are
 * the ones a D3D12Error may name as its argument (plus `aliases`, where the library keeps D3D12's
 * name for a parameter the TypeScript signature calls differently).
 */
import type { FuzzContext } from './pool.js';
import type { Arg, Validity } from './values.js';

export type ClassName =
  | 'Device'
  | 'Heap'
  | 'Resource'
  | 'QueryHeap'
  | 'CommandQueue'
  | 'GraphicsCommandList'
  | 'Fence'
  | 'ResidencyManager'
  | 'ResidencySet'
  | 'InfoQueue'
  | 'DescriptorHeap'
  | 'RootSignature'
  | 'CommandAllocator'
  | 'SwapChain'
  | 'module'
  | 'd3dx12'
  | 'Planted';

export interface Receiver {
  target: object;
  validity: Validity;
}

export interface CallPlan {
  receiver: Receiver;
  args: unknown[];
  /** Pool bookkeeping after the call returned normally (with the arguments actually passed). */
  onSuccess?: (result: unknown, args: readonly unknown[]) => void;
  /**
   * For a call that returns a promise: whether it must settle (a hang is a failure). A fence event
   * for a value nothing may ever signal is allowed to stay pending.
   */
  mustSettle?: boolean;
  /** Tags for the plan's own arguments where they are not all valid (a call that cannot be made validly here). */
  validities?: readonly Validity[];
  /** The call may not be made as planned (e.g. no valid compile left): the runner always corrupts it. */
  mustCorrupt?: boolean;
}

export interface Param {
  name: string;
  /** Other names an error may give this argument (D3D12's, where the signature differs). */
  aliases?: readonly string[];
  /** A wrong value for this parameter, given the valid plan's value. */
  bad: (ctx: FuzzContext, validValue: unknown, plan: CallPlan) => Arg;
}

export interface MethodSpec {
  cls: ClassName;
  name: string;
  params: readonly Param[];
  /** Relative frequency among methods (default 1). */
  weight?: number;
  /** Whether the method returns a promise. */
  async?: boolean;
  /** Its valid plan cannot fail (on a device not removed): a throw from it is a defect. */
  certain?: boolean;
  /** A valid call now, or undefined when the pool cannot supply one (then the method is skipped). */
  plan: (ctx: FuzzContext) => CallPlan | undefined;
  /** A receiver the call is wrong on (released, closed, another type of list), when the method has one. */
  badReceiver?: (ctx: FuzzContext) => Receiver | undefined;
  /** How to call it; default `target[name](...args)`. */
  invoke?: (target: object, args: readonly unknown[]) => unknown;
  /**
   * The calls that check what this function builds or records, where it checks nothing itself (a
   * d3dx12 helper that fills a description: its spec passes the result to the call that takes it,
   * as D3D12 code does, and that call's D3D12Error names itself). A D3D12Error may name one of these
   * (or `X.name`) instead of this method; its argument may be any of this spec's parameter names or
   * aliases.
   */
  checkedBy?: readonly string[];
  /**
   * State the snapshot does not hold that a throw must leave as it was (the bytes of an UPLOAD
   * buffer a helper writes). Called before the call with its receiver and arguments; what it returns
   * is called after a throw and names what changed, or gives undefined.
   */
  keeps?: (target: object, args: readonly unknown[]) => () => string | undefined;
}

/** Whether a spec is a function of an entry (no receiver of its own): `module.x` or `d3dx12.x`. */
export const isFunction = (spec: MethodSpec): boolean => spec.cls === 'module' || spec.cls === 'd3dx12';

/** Calls `target[name](...args)`, or throws if the target has no such method (a catalogue bug). */
export function callMethod(target: object, name: string, args: readonly unknown[]): unknown {
  const method = (target as Record<string, unknown>)[name];
  if (typeof method !== 'function')
    throw new FuzzerBug(
      `${String((target as { constructor?: { name?: string } }).constructor?.name)} has no method ${name}`,
    );
  return (method as (...a: unknown[]) => unknown).apply(target, [...args]);
}

/** A mistake of the fuzzer itself (reported apart from library defects). */
export class FuzzerBug extends Error {
  override name = 'FuzzerBug';
}

/** A parameter whose bad values come from one generator that ignores the valid value. */
export const param = (name: string, bad: (ctx: FuzzContext) => Arg, aliases?: readonly string[]): Param => ({
  name,
  bad: (ctx) => bad(ctx),
  aliases,
});
