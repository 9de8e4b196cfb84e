/**
 * How the page-table mirror (src/gpu/page-table.ts) sends changed entries: flush() by one queue
 * write per merged run; flushThrough() by writing the runs that fit into a mapped staging range and
 * copying each into the table with the caller's encoder (a restore's own submission), the rest by
 * queue writes. Both leave nothing dirty, and the bytes each path sends are the shadow's entries.
 * A fake device and encoder record the calls; the restore's GPU side is checked in
 * test/gpu/operation/d3d12/paging-batches.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { PageTableMirror } from '../../../../src/gpu/page-table.js';

interface Sent {
  writes: { offset: number; entries: number[] }[];
  copies: { from: number; to: number; bytes: number }[];
}

function fakes(): { table: PageTableMirror; encoder: GPUCommandEncoder; sent: Sent; source: GPUBuffer } {
  const sent: Sent = { writes: [], copies: [] };
  const buffer = { size: 4096 * 4 } as GPUBuffer;
  const source = { label: 'store' } as GPUBuffer;
  const device = {
    queue: {
      writeBuffer: (_b: GPUBuffer, offset: number, data: Uint32Array, start: number, count: number) =>
        sent.writes.push({ offset, entries: [...data.subarray(start, start + count)] }),
    },
  } as unknown as GPUDevice;
  const encoder = {
    copyBufferToBuffer: (from: GPUBuffer, fromOffset: number, to: GPUBuffer, toOffset: number, bytes: number) => {
      expect(from).toBe(source);
      expect(to).toBe(buffer);
      sent.copies.push({ from: fromOffset, to: toOffset, bytes });
    },
  } as unknown as GPUCommandEncoder;
  return { table: new PageTableMirror(device, 1 << 20, buffer, (_what, fn) => fn()), encoder, sent, source };
}

describe('flushThrough', () => {
  test('runs that fit are written into the room and copied at its offset; nothing stays dirty', () => {
    const { table, encoder, sent, source } = fakes();
    table.writeOne(3, 0x31);
    table.writeOne(4, 0x41);
    // Past the mirror's merge gap (1,024 entries): a run of its own.
    table.writeOne(3000, 0x901);
    const room = new Uint8Array(64);
    table.flushThrough(encoder, source, room, 1024);
    expect(sent.writes).toEqual([]);
    expect(sent.copies).toEqual([
      { from: 1024, to: 3 * 4, bytes: 8 },
      { from: 1032, to: 3000 * 4, bytes: 4 },
    ]);
    expect([...new Uint32Array(room.buffer, 0, 3)]).toEqual([0x31, 0x41, 0x901]);
    table.flushThrough(encoder, source, room, 1024);
    table.flush();
    expect(sent.copies).toHaveLength(2);
    expect(sent.writes).toEqual([]);
  });

  test('a run past the room goes by a queue write; the room holds exactly what fits (both sides of the edge)', () => {
    const { table, encoder, sent, source } = fakes();
    table.writeOne(10, 0xa);
    for (let page = 2000; page < 2004; page++) table.writeOne(page, page);
    // 4 bytes for page 10, then 16 for pages 2000-2003: 20 do not fit in 16.
    table.flushThrough(encoder, source, new Uint8Array(16), 0);
    expect(sent.copies).toEqual([{ from: 0, to: 10 * 4, bytes: 4 }]);
    expect(sent.writes).toEqual([{ offset: 2000 * 4, entries: [2000, 2001, 2002, 2003] }]);

    const fits = fakes();
    fits.table.writeOne(10, 0xa);
    for (let page = 2000; page < 2003; page++) fits.table.writeOne(page, page);
    // 4 + 12 bytes: exactly the room.
    fits.table.flushThrough(fits.encoder, fits.source, new Uint8Array(16), 0);
    expect(fits.sent.writes).toEqual([]);
    expect(fits.sent.copies).toEqual([
      { from: 0, to: 10 * 4, bytes: 4 },
      { from: 4, to: 2000 * 4, bytes: 12 },
    ]);
  });

  test('with no room every run goes by a queue write, as flush() sends them', () => {
    const { table, encoder, sent, source } = fakes();
    table.writeOne(7, 7);
    table.flushThrough(encoder, source, new Uint8Array(0), 0);
    expect(sent.copies).toEqual([]);
    expect(sent.writes).toEqual([{ offset: 7 * 4, entries: [7] }]);
  });
});
