/**
 * A self-test of a WebGPU device: shaders/smoke_pattern.wgsl writes a hash pattern into a storage
 * buffer, which is read back for comparison with the same hash computed on the CPU. Both GPU test
 * projects run it, and the demo runs it to show the browser's WebGPU works.
 * The shader's bindings, uniform size and workgroup size come from the WGSL through wgsl_reflect.
 */
import smokePatternWgsl from '../../shaders/smoke_pattern.wgsl?raw';
import { WgslReflect } from './wgsl-reflect.js';
import { memberOffset } from './prelude.js';

export interface SmokePatternArgs {
  count: number;
  seed: number;
}

/** lowbias32, as in the shader. */
function hash(value: number): number {
  let x = value >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x ^= x >>> 16;
  return x >>> 0;
}

export function smokePatternReference({ count, seed }: SmokePatternArgs): Uint32Array {
  const words = new Uint32Array(count);
  for (let i = 0; i < count; i++) words[i] = hash(i ^ seed);
  return words;
}

interface SmokeLayout {
  entryPoint: string;
  workgroupSize: number;
  params: { binding: number; size: number; offsets: Record<string, number> };
  words: { binding: number };
}

function reflectSmokeShader(code: string): SmokeLayout {
  const reflect = new WgslReflect(code);
  const entry = reflect.entry.compute[0];
  const params = reflect.uniforms.find((u) => u.name === 'params');
  const words = reflect.storage.find((s) => s.name === 'words');
  if (!entry?.workgroupSize || !params || !words) throw new Error('smoke_pattern.wgsl lacks main, params or words');
  const offsets = Object.fromEntries((params.members ?? []).map((m) => [m.name, m.offset]));
  return {
    entryPoint: entry.name,
    workgroupSize: entry.workgroupSize[0],
    params: { binding: params.binding, size: params.size, offsets },
    words: { binding: words.binding },
  };
}

export interface SmokePatternOptions {
  /**
   * Replaces the shader's text: the test harness plants faults with it (test/harness/fixtures/). A
   * test hook, so not in the published types (tsconfig.build.json's stripInternal drops it).
   * @internal
   */
  shaderCodeForTesting?: string;
}

/** Runs the smoke shader and reads the words back. */
export async function runSmokePattern(
  device: GPUDevice,
  args: SmokePatternArgs,
  options: SmokePatternOptions = {},
): Promise<Uint32Array> {
  const code = options.shaderCodeForTesting ?? smokePatternWgsl;
  const layout = reflectSmokeShader(smokePatternWgsl);
  const byteLength = args.count * 4;
  const module = device.createShaderModule({ label: 'smoke_pattern.wgsl', code });
  const pipeline = device.createComputePipeline({
    label: 'smoke pattern',
    layout: 'auto',
    compute: { module, entryPoint: layout.entryPoint },
  });

  const paramsData = new ArrayBuffer(layout.params.size);
  const paramsView = new DataView(paramsData);
  paramsView.setUint32(memberOffset(layout.params, 'count'), args.count, true);
  paramsView.setUint32(memberOffset(layout.params, 'seed'), args.seed, true);
  const params = device.createBuffer({
    size: layout.params.size,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(params, 0, paramsData);
  const words = device.createBuffer({ size: byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const readback = device.createBuffer({ size: byteLength, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });

  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: layout.params.binding, resource: { buffer: params } },
      { binding: layout.words.binding, resource: { buffer: words } },
    ],
  });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(Math.ceil(args.count / layout.workgroupSize));
  pass.end();
  encoder.copyBufferToBuffer(words, 0, readback, 0, byteLength);
  device.queue.submit([encoder.finish()]);

  await readback.mapAsync(GPUMapMode.READ);
  const result = new Uint32Array(readback.getMappedRange().slice(0));
  readback.unmap();
  for (const buffer of [params, words, readback]) buffer.destroy();
  return result;
}
