/**
 * The virtual texture's baseline (URL parameter `texture=native`): the same camera path and the same
 * trilinear sampling drawn from a native WebGPU texture that holds every texel of every mip
 * (native-texture.ts), with no page table, no feedback, no streaming. The scene-frame-time benchmark
 * compares the virtual texture's GPU time per frame with this one's; a person can open it to see
 * the picture the streaming scene converges to.
 */
import { formatBytes } from '../common/live-chart.js';
import { section, StatTable } from '../common/panel.js';
import type { Scene, SceneContext } from '../common/scene-shell.js';
import { flightView, parseViews, type View } from './camera-path.js';
import { NativeVirtualTexture } from './native-texture.js';

export async function createNativeScene({
  gpuDevice,
  canvas,
  panel,
  params,
  frameTimer,
}: SceneContext): Promise<Scene> {
  const context = canvas.getContext('webgpu');
  if (!context) throw new Error('canvas.getContext("webgpu") returned null');
  const format = navigator.gpu.getPreferredCanvasFormat();
  const texture = await NativeVirtualTexture.create(gpuDevice, format);
  const views = parseViews(params.get('views'));
  const viewFrames = Number(params.get('viewFrames') ?? 20);
  const tint = params.get('tint') === '1';
  const stats = new StatTable(section(panel, 'Native texture (baseline)'), ['texture', 'view']);
  const view: View = { ...(views[0] ?? flightView(0)) };
  return {
    frame(index: number, timeMs: number) {
      Object.assign(
        view,
        views.length > 0 ? views[Math.min(Math.floor(index / viewFrames), views.length - 1)] : flightView(timeMs),
      );
      const target = context.getCurrentTexture();
      const lod = Math.log2(view.s);
      const encoder = gpuDevice.createCommandEncoder({ label: `native frame ${index}` });
      texture.draw(
        encoder,
        target.createView(),
        { ...view, lod, width: target.width, height: target.height },
        tint,
        frameTimer?.rawPass(),
      );
      gpuDevice.queue.submit([encoder.finish()]);
      stats.set({
        texture: `${texture.size}² RGBA8, ${texture.mipLevels} mips (${formatBytes((texture.size * texture.size * 4 * 4) / 3)}), all resident${texture.mipOffset > 0 ? `; the ${texture.mipOffset} finest mips left out (the adapter's largest texture is ${texture.size})` : ''}`,
        view: `lod ${lod.toFixed(2)}`,
      });
    },
    snapshot: () => ({ texture: 'native', size: texture.size, mipOffset: texture.mipOffset, view: { ...view } }),
    stop: () => texture.destroy(),
  };
}
