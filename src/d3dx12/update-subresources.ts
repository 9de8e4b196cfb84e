/**
 * d3dx12.h's UpdateSubresources and GetRequiredIntermediateSize: CPU data into a texture or buffer
 * through an UPLOAD buffer (the "intermediate"). The footprints are GetCopyableFootprints' for the
 * destination's description at `intermediateOffset`; each subresource's rows are copied into the
 * mapped intermediate at its footprint's row pitch, then one CopyTextureRegion per subresource (one
 * CopyBufferRegion for a buffer) is recorded on the list.
 *
 * Where d3dx12 returns 0 and does nothing (an intermediate too small, a buffer destination with
 * other than one subresource), these throw E_INVALIDARG naming the rule. Every argument is checked
 * before anything is recorded or written, and the copies are recorded before the intermediate is
 * written, so a refusal leaves the intermediate's bytes as they were.
 */
import { GraphicsCommandList, TEXTURE_DATA_PLACEMENT_ALIGNMENT, type Resource } from '../index.js';
import type { CopyableFootprints, FullResourceDesc } from '../index.js';
import { copyableFootprints, footprintInput } from '../memory/footprints.js';
import { cpuAccessible } from '../validation/heap.js';
import { formatInfo } from '../memory/formats.js';
import { describe, fail, liveResource, uint } from './arguments.js';

/** D3D12_SUBRESOURCE_DATA: one subresource's bytes, rows `rowPitch` bytes apart, depth slices `slicePitch` apart. */
export interface SubresourceData {
  data: ArrayBuffer | ArrayBufferView;
  rowPitch: number;
  slicePitch: number;
}

/** The footprints of subresources [first, + num) of `desc` at `baseOffset`. */
function footprints(
  call: string,
  desc: FullResourceDesc,
  first: number,
  num: number,
  baseOffset: number,
): CopyableFootprints {
  const subresources =
    desc.dimension === 'BUFFER' ? 1 : desc.mipLevels * (desc.dimension === 'TEXTURE3D' ? 1 : desc.depthOrArraySize);
  if (first >= subresources && num > 0)
    throw fail(call, 'firstSubresource', `${first} is past the resource's ${subresources} subresources`);
  if (first + num > subresources)
    throw fail(
      call,
      'numSubresources',
      `subresources [${first}, ${first + num}) run past the resource's ${subresources}`,
    );
  return copyableFootprints(footprintInput(desc, formatInfo(desc.format)), first, num, baseOffset);
}

/**
 * GetRequiredIntermediateSize: the bytes an intermediate needs (past its offset) for subresources
 * [firstSubresource, + numSubresources) of `destination`.
 */
export function getRequiredIntermediateSize(
  destination: Resource,
  firstSubresource: number,
  numSubresources: number,
): number {
  const call = 'getRequiredIntermediateSize';
  const resource = liveResource(call, 'destination', destination);
  const first = uint(call, 'firstSubresource', firstSubresource, 0);
  const num = uint(call, 'numSubresources', numSubresources, 0);
  return footprints(call, resource.getDesc(), first, num, 0).totalBytes;
}

const bytesOf = (data: ArrayBuffer | ArrayBufferView): Uint8Array =>
  data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);

interface Source {
  bytes: Uint8Array;
  rowPitch: number;
  slicePitch: number;
}

/** Each D3D12_SUBRESOURCE_DATA as bytes, checked to hold the rows and slices of its footprint. */
function checkSources(call: string, layout: CopyableFootprints, srcData: unknown, num: number): Source[] {
  if (!Array.isArray(srcData) || srcData.length < num)
    throw fail(call, 'srcData', `must be an array of at least numSubresources (${num}) D3D12_SUBRESOURCE_DATA`);
  const sources = layout.layouts.map((placed, i) => {
    const source = (srcData as unknown[])[i] as SubresourceData | undefined;
    const at = `srcData[${i}]`;
    const data = source?.data;
    if (!(data instanceof ArrayBuffer) && !ArrayBuffer.isView(data))
      throw fail(call, `${at}.data`, `must be an ArrayBuffer or a typed array, got ${describe(data)}`);
    const rows = layout.numRows[i] as number;
    const rowSize = layout.rowSizeInBytes[i] as number;
    const depth = placed.footprint.depth;
    const rowPitch = uint(call, `${at}.rowPitch`, source?.rowPitch, rows > 1 ? rowSize : 0);
    const slicePitch = uint(call, `${at}.slicePitch`, source?.slicePitch, depth > 1 ? rows * rowPitch : 0);
    const bytes = bytesOf(data);
    const needed = (depth - 1) * slicePitch + (rows - 1) * rowPitch + rowSize;
    if (bytes.length < needed)
      throw fail(
        call,
        `${at}.data`,
        `holds ${bytes.length} bytes; ${rows} rows of ${rowSize} bytes, ${rowPitch} apart, in ${depth} slices ${slicePitch} apart need ${needed}`,
      );
    return { bytes, rowPitch, slicePitch };
  });
  return sources;
}

/**
 * UpdateSubresources (d3dx12's heap-allocating form): uploads `srcData[i]` into subresource
 * firstSubresource + i of `destination` through `intermediate` (an UPLOAD buffer) at
 * `intermediateOffset`. Returns the bytes used (GetRequiredIntermediateSize's answer), as d3dx12 does.
 * The destination must be in COPY_DEST (or promotable from COMMON) when the list runs.
 */
export function updateSubresources(
  list: GraphicsCommandList,
  destination: Resource,
  intermediate: Resource,
  intermediateOffset: number,
  firstSubresource: number,
  numSubresources: number,
  srcData: readonly SubresourceData[],
): number {
  const call = 'updateSubresources';
  if (!(list instanceof GraphicsCommandList))
    throw fail(call, 'list', `must be a GraphicsCommandList, got ${describe(list)}`);
  const dest = liveResource(call, 'destination', destination);
  const upload = liveResource(call, 'intermediate', intermediate);
  const offset = uint(call, 'intermediateOffset', intermediateOffset, 0);
  const first = uint(call, 'firstSubresource', firstSubresource, 0);
  const num = uint(call, 'numSubresources', numSubresources, 1);
  const desc = dest.getDesc();
  const uploadDesc = upload.getDesc();
  if (uploadDesc.dimension !== 'BUFFER')
    throw fail(
      call,
      'intermediate',
      `must be a buffer (an UPLOAD heap buffer), ${upload.label} is a ${uploadDesc.dimension}`,
    );
  if (desc.dimension === 'BUFFER' && (first !== 0 || num !== 1))
    throw fail(
      call,
      'numSubresources',
      `a buffer destination has one subresource: firstSubresource 0, numSubresources 1 (got ${first}, ${num})`,
    );
  if (desc.dimension !== 'BUFFER' && offset % TEXTURE_DATA_PLACEMENT_ALIGNMENT !== 0)
    throw fail(
      call,
      'intermediateOffset',
      `${offset} must be a multiple of D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT (${TEXTURE_DATA_PLACEMENT_ALIGNMENT}) for a texture`,
    );
  const layout = footprints(call, desc, first, num, offset);
  if (uploadDesc.width < layout.totalBytes + offset)
    throw fail(
      call,
      'intermediate',
      `${upload.label} holds ${uploadDesc.width} bytes; the upload needs ${layout.totalBytes} from offset ${offset} (getRequiredIntermediateSize)`,
    );
  const sources = checkSources(call, layout, srcData, num);

  // Nothing may change before a refusal. A buffer the CPU cannot write is refused first. Mapping
  // pages an evicted heap in, which no refusal may follow: the copies are then recorded first (a
  // closed list or a refused copy throws before anything changed) and the buffer mapped after them.
  // A resident one is mapped first (a removed device throws there, before a copy is recorded) and
  // unmapped again if a copy is refused.
  if (upload.kind === 'reserved' || !upload.heap || !cpuAccessible(upload.heap.desc.properties))
    throw fail(
      call,
      'intermediate',
      `${upload.label} is not in CPU-accessible memory (an UPLOAD heap buffer, or a CPU-visible CUSTOM one)`,
    );
  const record = (): void => {
    if (desc.dimension === 'BUFFER') {
      list.copyBufferRegion(dest, 0, upload, offset, (layout.layouts[0] as (typeof layout.layouts)[0]).footprint.width);
    } else {
      layout.layouts.forEach((placed, i) =>
        list.copyTextureRegion(
          { resource: dest, type: 'SUBRESOURCE_INDEX', subresourceIndex: first + i },
          0,
          0,
          0,
          { resource: upload, type: 'PLACED_FOOTPRINT', placedFootprint: placed },
          null,
        ),
      );
    }
  };
  const resident = upload.heap.resident;
  if (!resident) record();
  const mapped = upload.map(0, null);
  let written = { begin: 0, end: 0 };
  try {
    if (resident) record();
    layout.layouts.forEach((placed, i) => {
      const { bytes, rowPitch, slicePitch } = sources[i] as (typeof sources)[0];
      const rows = layout.numRows[i] as number;
      const rowSize = layout.rowSizeInBytes[i] as number;
      const { rowPitch: destRowPitch, depth } = placed.footprint;
      for (let z = 0; z < depth; z++)
        for (let y = 0; y < rows; y++) {
          const from = z * slicePitch + y * rowPitch;
          mapped.set(bytes.subarray(from, from + rowSize), placed.offset + (z * rows + y) * destRowPitch);
        }
    });
    written = { begin: offset, end: offset + layout.totalBytes };
  } finally {
    upload.unmap(0, written);
  }
  return layout.totalBytes;
}
