/**
 * The API fuzzer's catalogue of the texture-data calls: Device.getCopyableFootprints, and
 * GraphicsCommandList.copyTextureRegion and discardResource.
 *
 * Invariants: valid plans name live resources of the pool and stay inside them: footprints from
 * getCopyableFootprints of small boxes (a few blocks each way) that fit their buffer, boxes and
 * destination corners inside their subresources, texture-to-texture copies between textures of
 * one format and dimension and different subresources; discards of resources whose flags the
 * list's type allows. The wrong values made here are ones D3D12's rules refuse (values.ts says what
 * 'invalid' promises); states are the list's to learn, so a valid plan may still fail on them.
 */
import type { Box, Device, PlacedSubresourceFootprint, Resource, TextureCopyLocation } from '../../../src/index.js';
import { footprintBytes } from '../../../src/memory/footprints.js';
import { badResourceDesc } from './descs.js';
import { ALL, readable, recording, SHADER, writable } from './catalogue-list.js';
import { badRef, pickOf, type FuzzContext } from './pool.js';
import { param, type CallPlan, type MethodSpec } from './spec.js';
import { badEnum, badUint, invalid, notAStruct, type Arg } from './values.js';

const subresourcesOf = (resource: Resource): number => {
  const desc = resource.getDesc();
  return (desc.mipLevels ?? 1) * (desc.dimension === 'TEXTURE3D' ? 1 : (desc.depthOrArraySize ?? 1));
};

/** A subresource's extent in texels and its block (from its footprint: rows of blocks). */
function extentOf(
  device: Device,
  resource: Resource,
  subresource: number,
): { width: number; height: number; depth: number; block: number; rowSize: number } {
  const fp = device.getCopyableFootprints(resource.getDesc(), subresource, 1, 0);
  const { width, height, depth } = fp.layouts[0]?.footprint ?? { width: 1, height: 1, depth: 1 };
  return { width, height, depth, block: height / (fp.numRows[0] ?? 1), rowSize: fp.rowSizeInBytes[0] ?? 1 };
}

const at = (resource: Resource, subresourceIndex: number): TextureCopyLocation => ({
  resource,
  type: 'SUBRESOURCE_INDEX',
  subresourceIndex,
});

/** A box of a few blocks each way inside an extent: its corner and size in texels. */
function boxIn(
  ctx: FuzzContext,
  extent: { width: number; height: number; depth: number; block: number },
): { corner: [number, number, number]; size: [number, number, number] } {
  const { rng } = ctx;
  const pick = (room: number, block: number): [number, number] => {
    const size = Math.min(room, block * rng.int(1, 4));
    return [block * rng.int(0, Math.floor((room - size) / block)), size];
  };
  const [x, w] = pick(extent.width, extent.block);
  const [y, h] = pick(extent.height, extent.block);
  const [z, d] = pick(extent.depth, 1);
  return { corner: [x, y, z], size: [w, h, d] };
}

/** A footprint of `size` texels of `resource`'s format, in `buffer` at a 512-aligned offset where it fits. */
function footprintFor(
  ctx: FuzzContext,
  resource: Resource,
  sub: number,
  size: [number, number, number],
  buffers: Resource[],
): TextureCopyLocation | undefined {
  const extent = extentOf(ctx.main.device, resource, sub);
  const bytesPerElement = extent.rowSize / (extent.width / extent.block);
  const rowSize = (size[0] / extent.block) * bytesPerElement;
  const rowPitch = Math.ceil(rowSize / 256) * 256;
  const bytes = footprintBytes(size[1] / extent.block, rowPitch, rowSize, size[2]);
  const buffer = pickOf(
    ctx.rng,
    buffers.filter((b) => b.getDesc().width >= bytes),
  );
  if (!buffer) return undefined;
  const offset = 512 * ctx.rng.int(0, Math.floor((buffer.getDesc().width - bytes) / 512));
  const placedFootprint: PlacedSubresourceFootprint = {
    offset,
    footprint: {
      format: resource.getDesc().format ?? 'UNKNOWN',
      width: size[0],
      height: size[1],
      depth: size[2],
      rowPitch,
    },
  };
  return { resource: buffer, type: 'PLACED_FOOTPRINT', placedFootprint };
}

/** copyTextureRegion's arguments: an upload, a readback or a texture-to-texture copy. */
function copyArgs(ctx: FuzzContext): unknown[] | undefined {
  const { rng, main } = ctx;
  const texture = pickOf(rng, main.textures());
  if (!texture) return undefined;
  const sub = rng.int(0, subresourcesOf(texture) - 1);
  const extent = extentOf(main.device, texture, sub);
  const { corner, size } = boxIn(ctx, extent);
  const wholeBox = (origin: [number, number, number]): Box => ({
    left: origin[0],
    top: origin[1],
    front: origin[2],
    right: origin[0] + size[0],
    bottom: origin[1] + size[1],
    back: origin[2] + size[2],
  });
  const mode = rng.pick(['upload', 'readback', 'texture'] as const);
  if (mode === 'upload') {
    const src = footprintFor(ctx, texture, sub, size, readable(ctx));
    return src && [at(texture, sub), ...corner, src, rng.chance(0.5) ? null : wholeBox([0, 0, 0])];
  }
  if (mode === 'readback') {
    const dst = footprintFor(ctx, texture, sub, size, writable(ctx));
    return dst && [dst, 0, 0, 0, at(texture, sub), wholeBox(corner)];
  }
  const desc = texture.getDesc();
  const others = main
    .textures()
    .filter((t) => t.getDesc().format === desc.format && t.getDesc().dimension === desc.dimension);
  const other = pickOf(rng, others);
  if (!other) return undefined;
  const otherSub = rng.int(0, subresourcesOf(other) - 1);
  if (other === texture && otherSub === sub) return undefined;
  const room = extentOf(main.device, other, otherSub);
  if (room.width < size[0] || room.height < size[1] || room.depth < size[2]) return undefined;
  const dst: [number, number, number] = [
    room.block * rng.int(0, (room.width - size[0]) / room.block),
    room.block * rng.int(0, (room.height - size[1]) / room.block),
    rng.int(0, room.depth - size[2]),
  ];
  return [at(other, otherSub), ...dst, at(texture, sub), wholeBox(corner)];
}

/** A D3D12_TEXTURE_COPY_LOCATION made wrong in one field. */
function badLocation(ctx: FuzzContext, good: unknown): Arg {
  const { rng } = ctx;
  const location = good as TextureCopyLocation;
  const r = rng.float();
  if (r < 0.15) return notAStruct(rng);
  if (r < 0.35) {
    const resource = badRef(ctx, 'resource');
    return { value: { ...location, resource: resource.value }, validity: resource.validity };
  }
  if (r < 0.5) {
    const type = rng.chance(0.4)
      ? {
          value: location.type === 'SUBRESOURCE_INDEX' ? 'PLACED_FOOTPRINT' : 'SUBRESOURCE_INDEX',
          validity: 'invalid' as const,
        }
      : badEnum(rng, ['SUBRESOURCE_INDEX', 'PLACED_FOOTPRINT']);
    return { value: { ...location, type: type.value }, validity: type.validity };
  }
  if (location.type === 'SUBRESOURCE_INDEX') {
    const index = rng.chance(0.4) ? invalid(subresourcesOf(location.resource)) : badUint(rng);
    return { value: { ...location, subresourceIndex: index.value }, validity: index.validity };
  }
  const placed = location.placedFootprint;
  const footprint = placed.footprint;
  const wrong: [string, unknown][] = [
    ['offset', placed.offset + rng.pick([1, 256, 4])],
    ['offset', -512],
    ['offset', 2 ** 40],
    ['rowPitch', footprint.rowPitch + rng.pick([1, 128])],
    ['rowPitch', 0],
    ['width', rng.pick([0, NaN, -4, '4'])],
    ['height', rng.pick([0, 1.5, null])],
    ['depth', rng.pick([0, undefined, Infinity])],
    ['format', rng.pick(['R8_FUZZ', 'UNKNOWN', 7, ''])],
  ];
  const [field, value] = rng.pick(wrong);
  const changed =
    field === 'offset' ? { ...placed, offset: value } : { ...placed, footprint: { ...footprint, [field]: value } };
  return invalid({ ...location, placedFootprint: changed });
}

/** The source's extent, from the plan's src location. */
function sourceExtent(ctx: FuzzContext, src: TextureCopyLocation): { width: number; height: number; depth: number } {
  return src.type === 'PLACED_FOOTPRINT'
    ? src.placedFootprint.footprint
    : extentOf(ctx.main.device, src.resource, src.subresourceIndex);
}

function badBox(ctx: FuzzContext, good: unknown, plan: CallPlan): Arg {
  const { rng } = ctx;
  const extent = sourceExtent(ctx, plan.args[4] as TextureCopyLocation);
  const box = (good as Box | null) ?? {
    left: 0,
    top: 0,
    front: 0,
    right: extent.width,
    bottom: extent.height,
    back: extent.depth,
  };
  const wrong: Partial<Box>[] = [
    { right: box.left },
    { bottom: box.top },
    { back: box.front },
    { right: extent.width + rng.int(1, 8) },
    { bottom: extent.height + 1 },
    { back: extent.depth + 1 },
    { left: rng.pick<number>([NaN, -1, 0.5]) },
    { top: rng.pick([Infinity, '0']) as number },
    { front: 2 ** 32 },
  ];
  if (rng.chance(0.15)) return invalid(rng.pick<unknown>(['box', 5, [0, 0, 0, 1, 1, 1], true]));
  return invalid({ ...box, ...rng.pick(wrong) });
}

/** A corner coordinate made wrong: not a UINT, or where the region runs past the destination. */
function badCorner(axis: 0 | 1 | 2): (ctx: FuzzContext, good: unknown, plan: CallPlan) => Arg {
  return (ctx, _good, plan) => {
    const dst = plan.args[0] as TextureCopyLocation;
    if (ctx.rng.chance(0.6)) return badUint(ctx.rng);
    const extent =
      dst.type === 'PLACED_FOOTPRINT'
        ? dst.placedFootprint.footprint
        : extentOf(ctx.main.device, dst.resource, dst.subresourceIndex);
    return invalid([extent.width, extent.height, extent.depth][axis]);
  };
}

/** A resource the list's type may discard (its flags), with a region or none. */
function discardArgs(ctx: FuzzContext, type: string): unknown[] | undefined {
  const { rng } = ctx;
  const flags = (r: Resource): string[] => r.getDesc().flags ?? [];
  const fits = (r: Resource): boolean =>
    type === 'COMPUTE'
      ? flags(r).includes('ALLOW_UNORDERED_ACCESS')
      : ['ALLOW_UNORDERED_ACCESS', 'ALLOW_RENDER_TARGET', 'ALLOW_DEPTH_STENCIL'].some((f) => flags(r).includes(f));
  const resource = pickOf(rng, ctx.main.resources.filter(fits));
  if (!resource) return undefined;
  const count = subresourcesOf(resource);
  if (rng.chance(0.3)) return [resource, rng.chance(0.5) ? null : undefined];
  const first = rng.int(0, count - 1);
  const region: Record<string, unknown> = { firstSubresource: first, numSubresources: rng.int(1, count - first) };
  if (resource.getDesc().dimension === 'TEXTURE2D' && region.numSubresources === 1 && rng.chance(0.5)) {
    const extent = extentOf(ctx.main.device, resource, first);
    region.rects = [
      { left: 0, top: 0, right: Math.max(1, extent.width >> 1), bottom: Math.max(1, extent.height >> 1) },
    ];
  }
  return [resource, region];
}

function badRegion(ctx: FuzzContext, good: unknown, plan: CallPlan): Arg {
  const { rng } = ctx;
  const resource = plan.args[0] as Resource;
  const count = subresourcesOf(resource);
  const region = (good as Record<string, unknown> | null | undefined) ?? { firstSubresource: 0, numSubresources: 1 };
  const wrong: Record<string, unknown>[] = [
    { firstSubresource: count },
    { firstSubresource: rng.pick([-1, NaN, 0.5, '0']) },
    { numSubresources: 0 },
    { numSubresources: count + 1 },
    { rects: rng.pick<unknown>(['rects', 5, {}]) },
    { rects: [{ left: 1, top: 0, right: 1, bottom: 1 }] },
    { rects: [null] },
  ];
  if (rng.chance(0.15)) return invalid(rng.pick<unknown>(['region', 7, true]));
  return invalid({ ...region, ...rng.pick(wrong) });
}

export function textureCopyCatalogue(): MethodSpec[] {
  return [
    {
      cls: 'Device',
      name: 'getCopyableFootprints',
      certain: true,
      weight: 0.5,
      params: [
        { name: 'desc', bad: (ctx, good) => badResourceDesc(ctx.rng, good as never) },
        {
          name: 'firstSubresource',
          bad: (ctx, _, p) => (ctx.rng.chance(0.4) ? invalid(subresourceCount(p) + 1) : badUint(ctx.rng)),
        },
        {
          name: 'numSubresources',
          bad: (ctx, _, p) =>
            ctx.rng.chance(0.4) ? invalid(subresourceCount(p) - (p.args[1] as number) + 1) : badUint(ctx.rng),
        },
        param('baseOffset', (ctx) => badUint(ctx.rng, { wide: true })),
      ],
      plan: (ctx) => {
        const resource = pickOf(ctx.rng, ctx.main.resources);
        if (!resource) return undefined;
        const desc = resource.getDesc();
        const count = desc.dimension === 'BUFFER' ? 1 : subresourcesOf(resource);
        const first = ctx.rng.int(0, count - 1);
        return {
          receiver: { target: ctx.main.device, validity: 'valid' },
          args: [desc, first, ctx.rng.int(0, count - first), ctx.rng.pick([0, 512, 1, 2 ** 30])],
        };
      },
    },
    recording(
      'copyTextureRegion',
      ALL,
      [
        { name: 'dst', bad: badLocation },
        { name: 'dstX', bad: badCorner(0) },
        { name: 'dstY', bad: badCorner(1) },
        { name: 'dstZ', bad: badCorner(2) },
        { name: 'src', bad: badLocation },
        { name: 'srcBox', bad: badBox },
      ],
      (ctx) => copyArgs(ctx),
      { weight: 1.5 },
    ),
    recording(
      'discardResource',
      SHADER,
      [param('resource', (ctx) => badRef(ctx, 'resource')), { name: 'region', bad: badRegion }],
      (ctx, list) => discardArgs(ctx, list.type),
      { weight: 0.5 },
    ),
  ];
}

function subresourceCount(plan: CallPlan): number {
  const desc = plan.args[0] as { dimension: string; mipLevels?: number; depthOrArraySize?: number };
  if (desc.dimension === 'BUFFER') return 1;
  return (desc.mipLevels ?? 1) * (desc.dimension === 'TEXTURE3D' ? 1 : (desc.depthOrArraySize ?? 1));
}
