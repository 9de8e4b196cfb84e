/**
 * CpuStores (src/memory/cpu-stores.ts): an eviction gets back a store of exactly its size that a
 * restore freed, and the idle stores stay within their cap, the least recently freed dropped first.
 */
import { describe, expect, test } from 'vitest';
import { CpuStores } from '../../../../src/memory/cpu-stores.js';

describe('CpuStores', () => {
  test('a freed store is handed to the next take of its size, not of another size', () => {
    const stores = new CpuStores(1024);
    const a = stores.take(256);
    expect(a.byteLength).toBe(256);
    stores.giveBack(a);
    expect(stores.idleBytesForTesting).toBe(256);
    const other = stores.take(128);
    expect(other).not.toBe(a);
    expect(stores.take(256)).toBe(a);
    expect(stores.idleBytesForTesting).toBe(0);
    // Nothing idle of that size: a new store.
    expect(stores.take(256)).not.toBe(a);
  });

  test('idle stores stay within the cap: the least recently freed go first; one larger than the cap is not kept', () => {
    const stores = new CpuStores(1024);
    const [first, second, third] = [stores.take(512), stores.take(512), stores.take(512)];
    stores.giveBack(first);
    stores.giveBack(second);
    expect(stores.idleBytesForTesting).toBe(1024);
    stores.giveBack(third);
    expect(stores.idleBytesForTesting).toBe(1024);
    // first was dropped: the two kept are second and third (the most recently freed is taken first).
    expect(stores.take(512)).toBe(third);
    expect(stores.take(512)).toBe(second);
    expect(stores.take(512)).not.toBe(first);
    stores.giveBack(new Uint8Array(2048));
    expect(stores.idleBytesForTesting).toBe(0);
  });
});
