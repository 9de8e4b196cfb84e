/**
 * ComputePassState (src/gpu/encoders/pass-planner.ts): the compute pass the encoders share sets a
 * pipeline or a bind group only when it differs from what the pass has, and passes everything else
 * through in order. A skipped set must be one the pass already has: each case checks the calls the
 * pass received, both sides of each comparison (same object, other object; same offsets, other
 * offsets, other count; group index).
 */
import { describe, expect, it } from 'vitest';
import { ComputePassState, PassPlanner } from '../../../../src/gpu/encoders/pass-planner.js';

/** A compute pass that records what it was asked to do. */
class RecordingPass {
  readonly calls: string[] = [];
  ended = 0;
  setPipeline(pipeline: { name: string }): void {
    this.calls.push(`pipeline ${pipeline.name}`);
  }
  setBindGroup(index: number, group: { name: string }, offsets: readonly number[] = []): void {
    this.calls.push(`group ${index} ${group.name} [${offsets.join(',')}]`);
  }
  dispatchWorkgroups(x: number, y = 1, z = 1): void {
    this.calls.push(`dispatch ${x} ${y} ${z}`);
  }
  end(): void {
    this.ended++;
  }
}

const pipeline = (name: string): GPUComputePipeline => ({ name }) as unknown as GPUComputePipeline;
const group = (name: string): GPUBindGroup => ({ name }) as unknown as GPUBindGroup;

function stateOf(): { pass: RecordingPass; state: ComputePassState } {
  const pass = new RecordingPass();
  return { pass, state: new ComputePassState(pass as unknown as GPUComputePassEncoder) };
}

describe('ComputePassState', () => {
  it('sets a pipeline once while it stays the same, again when another came between', () => {
    const { pass, state } = stateOf();
    const copy = pipeline('copy');
    state.setPipeline(copy);
    state.setPipeline(copy);
    state.setPipeline(pipeline('user'));
    state.setPipeline(copy);
    expect(pass.calls).toEqual(['pipeline copy', 'pipeline user', 'pipeline copy']);
  });

  it('sets a bind group again only when the group or its dynamic offsets differ', () => {
    const { pass, state } = stateOf();
    const prelude = group('prelude');
    state.setBindGroup(0, prelude, [256]);
    state.setBindGroup(0, prelude, [256]); // same group, same offsets: skipped
    state.setBindGroup(0, prelude, [512]); // other offset
    state.setBindGroup(0, prelude, [512, 0]); // other offset count
    state.setBindGroup(0, group('mirrors'), [512, 0]); // other group, same offsets
    expect(pass.calls).toEqual([
      'group 0 prelude [256]',
      'group 0 prelude [512]',
      'group 0 prelude [512,0]',
      'group 0 mirrors [512,0]',
    ]);
  });

  it('keeps bind groups per index and across pipeline changes', () => {
    const { pass, state } = stateOf();
    const jobs = group('jobs');
    state.setBindGroup(1, jobs);
    state.setBindGroup(0, jobs); // the same group at another index is another binding
    state.setPipeline(pipeline('pages'));
    state.setBindGroup(1, jobs); // still bound at 1: WebGPU keeps bind groups across setPipeline
    state.setBindGroup(1, group('other'));
    state.setBindGroup(1, jobs);
    expect(pass.calls).toEqual([
      'group 1 jobs []',
      'group 0 jobs []',
      'pipeline pages',
      'group 1 other []',
      'group 1 jobs []',
    ]);
  });

  it('passes every dispatch through, in order with the sets', () => {
    const { pass, state } = stateOf();
    const copy = pipeline('copy');
    const prelude = group('prelude');
    for (let i = 0; i < 3; i++) {
      state.setBindGroup(0, prelude, [i * 256]);
      state.setPipeline(copy);
      state.dispatchWorkgroups(4, i + 1);
    }
    expect(pass.calls).toEqual([
      'group 0 prelude [0]',
      'pipeline copy',
      'dispatch 4 1 1',
      'group 0 prelude [256]',
      'dispatch 4 2 1',
      'group 0 prelude [512]',
      'dispatch 4 3 1',
    ]);
  });

  it('a new pass from the planner remembers nothing of the pass before it', () => {
    const passes: RecordingPass[] = [];
    const encoder = {
      beginComputePass: () => {
        const pass = new RecordingPass();
        passes.push(pass);
        return pass;
      },
      beginRenderPass: () => new RecordingPass(),
    } as unknown as GPUCommandEncoder;
    const planner = new PassPlanner(encoder);
    const copy = pipeline('copy');
    planner.compute().setPipeline(copy);
    expect(planner.compute()).toBe(planner.compute()); // the open pass is reused
    planner.outside(); // ends the compute pass
    planner.compute().setPipeline(copy);
    expect(passes).toHaveLength(2);
    expect(passes[0]?.ended).toBe(1);
    expect(passes.map((pass) => pass.calls)).toEqual([['pipeline copy'], ['pipeline copy']]);
  });
});
