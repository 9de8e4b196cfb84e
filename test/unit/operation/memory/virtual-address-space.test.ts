import { describe, expect, test } from 'vitest';
import { VA_PAGE_SIZE, VirtualAddressSpace } from '../../../../src/memory/virtual-address-space.js';

describe('VirtualAddressSpace', () => {
  test('never hands out address 0, and leaves a guard page after each range', () => {
    const space = new VirtualAddressSpace(40);
    const a = space.reserve(VA_PAGE_SIZE);
    const b = space.reserve(2 * VA_PAGE_SIZE);
    expect(a?.address).toBe(BigInt(VA_PAGE_SIZE));
    expect(a?.pageCount).toBe(1);
    // a occupies page 1, its guard page 2, so b starts at page 3.
    expect(b?.firstPage).toBe(3);
    expect(b?.address).toBe(3n * BigInt(VA_PAGE_SIZE));
  });

  test('sizes round up to whole pages; an offset inside the first page is kept in the address', () => {
    const space = new VirtualAddressSpace(40);
    expect(space.reserve(1)?.pageCount).toBe(1);
    expect(space.reserve(VA_PAGE_SIZE + 1)?.pageCount).toBe(2);
    const small = space.reserve(4096, 61440);
    expect(small?.pageCount).toBe(1); // 61440 + 4096 = 65536: still one page
    expect(Number((small?.address ?? 0n) % BigInt(VA_PAGE_SIZE))).toBe(61440);
    expect(space.reserve(4097, 61440)?.pageCount).toBe(2);
  });

  test('1 TiB: a range of the whole space minus page 0 and the guard fits, one page more does not', () => {
    const space = new VirtualAddressSpace(40);
    const pages = 2 ** 40 / VA_PAGE_SIZE;
    expect(space.reserve((pages - 1) * VA_PAGE_SIZE)).toBeUndefined();
    const whole = space.reserve((pages - 2) * VA_PAGE_SIZE);
    expect(whole?.pageCount).toBe(pages - 2);
    expect(space.reserve(1)).toBeUndefined();
    space.release(whole as NonNullable<typeof whole>);
    expect(space.reserve(1)?.firstPage).toBe(1);
  });

  test('released ranges are reused', () => {
    const space = new VirtualAddressSpace(40);
    const a = space.reserve(VA_PAGE_SIZE);
    space.reserve(VA_PAGE_SIZE);
    space.release(a as NonNullable<typeof a>);
    expect(space.reserve(VA_PAGE_SIZE)?.address).toBe(a?.address);
  });

  test('address bits outside 32..47 are refused', () => {
    expect(() => new VirtualAddressSpace(31)).toThrow(RangeError);
    expect(() => new VirtualAddressSpace(48)).toThrow(RangeError);
    expect(new VirtualAddressSpace(32).sizeInBytes).toBe(2 ** 32);
  });
});
