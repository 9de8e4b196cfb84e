/**
 * The differential run's recorded commands and CPU writes: copyBufferRegion (from a fresh UPLOAD
 * buffer or between live buffers), copyTiles both ways, dispatches of the read-modify-write shader
 * through a root UAV, and CPU writes through map(). Each is recorded into the open batch with the
 * barriers it needs, and its effect on the CPU reference is applied when the batch executes (a CPU
 * write, which happens at once, is applied at once).
 *
 * Invariants: a CPU write waits until no submitted work that uses the memory it writes is still
 * running (D3D12: the CPU and the GPU must not race on mapped memory); commands recorded but not
 * executed may use it, since they run after the write.
 */
import { dataBytes, TILE } from '../bytes.js';
import { regionTiles } from '../tile-regions.js';
import type { Operation } from './operations.js';
import { RunnerState } from './runner.js';
import { aliasesOf, legal, segments, tileSegments, type ResourceEntry } from './world.js';

export class DifferentialRunner extends RunnerState {
  protected override async applyKind(op: Operation): Promise<void> {
    switch (op.kind) {
      case 'uploadCopy':
        return this.uploadCopy(op);
      case 'copy':
        return this.copy(op);
      case 'copyTiles':
        return this.copyTiles(op);
      case 'dispatch':
        return this.dispatch(op);
      case 'cpuWrite':
        return this.cpuWrite(op);
      default:
        return super.applyKind(op);
    }
  }

  private uploadCopy(op: Extract<Operation, { kind: 'uploadCopy' }>): void {
    const dst = this.entryNamed(op.dst);
    const upload = this.createUpload(op.uploadWidth, op.data);
    const rec = this.batch.recorder();
    this.batch.need(rec, dst, 'COPY_DEST');
    this.batch.need(rec, upload, 'COPY_SOURCE');
    rec.list.copyBufferRegion(dst.resource, op.dstOffset, upload.resource, op.srcOffset, op.numBytes);
    this.batch.add(rec, {
      uses: new Set([dst, upload]),
      safe: (slotsOf) => legal(segments(dst, op.dstOffset, op.numBytes, slotsOf), []),
      apply: () => this.cpu.copyBufferRegion(dst, op.dstOffset, upload, op.srcOffset, op.numBytes),
    });
  }

  private copy(op: Extract<Operation, { kind: 'copy' }>): void {
    const dst = this.entryNamed(op.dst);
    const src = this.entryNamed(op.src);
    const rec = this.batch.recorder();
    this.batch.need(rec, dst, 'COPY_DEST');
    this.batch.need(rec, src, 'COPY_SOURCE');
    rec.list.copyBufferRegion(dst.resource, op.dstOffset, src.resource, op.srcOffset, op.numBytes);
    this.batch.add(rec, {
      uses: new Set([dst, src]),
      safe: (slotsOf) =>
        legal(segments(dst, op.dstOffset, op.numBytes, slotsOf), segments(src, op.srcOffset, op.numBytes, slotsOf)),
      apply: () => this.cpu.copyBufferRegion(dst, op.dstOffset, src, op.srcOffset, op.numBytes),
    });
  }

  private copyTiles(op: Extract<Operation, { kind: 'copyTiles' }>): void {
    const tiled = this.entryNamed(op.tiled);
    const tiles = regionTiles(tiled.grid as NonNullable<ResourceEntry['grid']>, op.start, op.size);
    const bytes = tiles.length * TILE;
    const buffer =
      op.buffer === null ? this.createUpload(op.bufferOffset + bytes, op.data) : this.entryNamed(op.buffer);
    const rec = this.batch.recorder();
    this.batch.need(rec, tiled, op.toTiles ? 'COPY_DEST' : 'COPY_SOURCE');
    this.batch.need(rec, buffer, op.toTiles ? 'COPY_SOURCE' : 'COPY_DEST');
    const direction = op.toTiles
      ? 'LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE'
      : 'SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER';
    rec.list.copyTiles(
      tiled.resource,
      op.start,
      op.size,
      buffer.resource,
      op.bufferOffset,
      op.noHazard ? [direction, 'NO_HAZARD'] : direction,
    );
    this.batch.add(rec, {
      uses: new Set([tiled, buffer]),
      safe: (slotsOf) => {
        const tileSide = tileSegments(tiled, tiles, slotsOf);
        const bufferSide = segments(buffer, op.bufferOffset, bytes, slotsOf);
        return op.toTiles ? legal(tileSide, bufferSide) : legal(bufferSide, tileSide);
      },
      apply: () => this.cpu.copyTiles(tiled, tiles, buffer, op.bufferOffset, op.toTiles),
    });
  }

  private dispatch(op: Extract<Operation, { kind: 'dispatch' }>): void {
    const buffer = this.entryNamed(op.buffer);
    const rec = this.batch.recorder();
    if (!rec.pipelineSet) {
      rec.list.setPipelineState(this.pipeline);
      rec.pipelineSet = true;
    }
    this.batch.need(rec, buffer, 'UNORDERED_ACCESS');
    rec.list.setComputeRootUnorderedAccessView(1, buffer.resource.getGPUVirtualAddress() + BigInt(op.offset));
    rec.list.setComputeRoot32BitConstant(0, op.words, 2);
    rec.list.setComputeRoot32BitConstant(0, op.seed, 3);
    rec.list.dispatch(Math.ceil(op.words / 64));
    this.batch.add(rec, {
      uses: new Set([buffer]),
      safe: (slotsOf) => legal(segments(buffer, op.offset, op.words * 4, slotsOf), []),
      apply: () => this.cpu.readModifyWrite(buffer, op.offset, op.words, op.seed),
    });
  }

  /** map(), write, unmap: the bytes reach every list executed after it, whatever paging happens. */
  private async cpuWrite(op: Extract<Operation, { kind: 'cpuWrite' }>): Promise<void> {
    const buffer = this.entryNamed(op.buffer);
    await this.batch.waitFor(aliasesOf(buffer));
    const bytes = dataBytes(op.length, op.data);
    const view = buffer.resource.map();
    view.set(bytes, op.offset);
    buffer.resource.unmap(0, op.ranged ? { begin: op.offset, end: op.offset + op.length } : null);
    this.cpu.write(buffer, op.offset, bytes);
  }
}
