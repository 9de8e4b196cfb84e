/**
 * SerialQueue, what deferred releases wait in (Dawn's SerialQueue): items come out by serial, oldest
 * first, each exactly once; both sides of the boundary serial; out-of-order serials refused.
 */
import { describe, expect, test } from 'vitest';
import { SerialQueue } from '../../../../src/memory/serial-queue.js';

describe('SerialQueue', () => {
  test('takeUpTo returns the items of every serial up to and including it, oldest first', () => {
    //  serial:  1      2      2      4
    //  item:    a      b      c      d
    const queue = new SerialQueue<string>();
    queue.enqueue(1, 'a');
    queue.enqueue(2, 'b');
    queue.enqueue(2, 'c');
    queue.enqueue(4, 'd');
    expect(queue.size).toBe(4);
    expect(queue.takeUpTo(0)).toEqual([]);
    expect(queue.takeUpTo(1)).toEqual(['a']); // the boundary serial is included
    expect(queue.takeUpTo(3)).toEqual(['b', 'c']); // 4 is above 3: it stays
    expect(queue.size).toBe(1);
    expect(queue.takeUpTo(4)).toEqual(['d']);
    expect(queue.takeUpTo(100)).toEqual([]); // each item once
    expect(queue.size).toBe(0);
  });

  test('one enqueue may hold several items; none is a no-op', () => {
    const queue = new SerialQueue<number>();
    queue.enqueue(3, 1, 2, 3);
    queue.enqueue(3);
    expect([queue.size, queue.lastSerial]).toEqual([3, 3]);
    expect(queue.takeUpTo(2)).toEqual([]);
    expect(queue.takeUpTo(3)).toEqual([1, 2, 3]);
  });

  test('a serial below the last one enqueued is refused and changes nothing; the same serial is fine', () => {
    const queue = new SerialQueue<string>();
    queue.enqueue(5, 'a');
    expect(() => queue.enqueue(4, 'b')).toThrow(RangeError);
    expect(() => queue.enqueue(Number.NaN, 'b')).toThrow(RangeError);
    expect(queue.size).toBe(1);
    queue.enqueue(5, 'c');
    expect(queue.takeUpTo(5)).toEqual(['a', 'c']);
  });

  test('lastSerial of an empty queue is 0, then the newest serial', () => {
    const queue = new SerialQueue<string>();
    expect(queue.lastSerial).toBe(0);
    queue.enqueue(7, 'x');
    expect(queue.lastSerial).toBe(7);
    queue.takeUpTo(7);
    expect(queue.lastSerial).toBe(0);
  });
});
