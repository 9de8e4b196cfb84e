/**
 * LruList, the intrusive least-recently-used list of the residency manager (d3dx12residency.h keeps
 * its tracked objects in one): head = least recently used, tail = most; O(1) push, remove, touch.
 * Invariants: a node is in at most one list; prev/next are null exactly at the ends or outside a
 * list; size counts the nodes.
 */
import { describe, expect, test } from 'vitest';
import { LruList, type LruNode } from '../../../src/residency/lru.js';
import { Random } from '../../../src/validate/random.js';

interface Node extends LruNode {
  name: string;
}

const node = (name: string): Node => ({ name, prev: null, next: null, inList: false });
const names = (list: LruList<Node>): string[] => [...list].map((n) => n.name);

/** Checks every link both ways, the size and the ends. */
function expectConsistent(list: LruList<Node>): void {
  const nodes = [...list];
  expect(list.size).toBe(nodes.length);
  expect(list.first).toBe(nodes[0] ?? null);
  nodes.forEach((n, i) => {
    expect(n.inList, n.name).toBe(true);
    expect(n.prev, `${n.name}.prev`).toBe(nodes[i - 1] ?? null);
    expect(n.next, `${n.name}.next`).toBe(nodes[i + 1] ?? null);
  });
}

function listOf(...ns: Node[]): LruList<Node> {
  const list = new LruList<Node>();
  for (const n of ns) list.push(n);
  return list;
}

describe('LruList', () => {
  test('an empty list: size 0, no first, iterates nothing', () => {
    const list = new LruList<Node>();
    expect(list.size).toBe(0);
    expect(list.first).toBeNull();
    expect(names(list)).toEqual([]);
  });

  test('push appends as most recently used: iteration runs from least to most recently used', () => {
    const [a, b, c] = [node('a'), node('b'), node('c')];
    const list = listOf(a, b, c);
    expect(names(list)).toEqual(['a', 'b', 'c']);
    expect(list.first).toBe(a);
    expect(list.size).toBe(3);
    expectConsistent(list);
  });

  test('touch moves a node to the tail, from the head, the middle or the tail', () => {
    const [a, b, c, d] = [node('a'), node('b'), node('c'), node('d')];
    const list = listOf(a, b, c, d);
    list.touch(a);
    expect(names(list)).toEqual(['b', 'c', 'd', 'a']);
    expectConsistent(list);
    list.touch(c);
    expect(names(list)).toEqual(['b', 'd', 'a', 'c']);
    expectConsistent(list);
    list.touch(c);
    expect(names(list)).toEqual(['b', 'd', 'a', 'c']);
    expect(list.first).toBe(b);
    expect(list.size).toBe(4);
    expectConsistent(list);
  });

  test('touch of the only node keeps it', () => {
    const a = node('a');
    const list = listOf(a);
    list.touch(a);
    expect(names(list)).toEqual(['a']);
    expectConsistent(list);
  });

  test('a sequence of touches leaves the nodes in order of last use', () => {
    const nodes = ['a', 'b', 'c', 'd', 'e'].map(node);
    const list = listOf(...nodes);
    const uses = [2, 0, 4, 2, 1, 3, 0];
    for (const i of uses) list.touch(nodes[i] as Node);
    // Last uses: a at 6, b at 4, c at 3, d at 5, e at 2.
    expect(names(list)).toEqual(['e', 'c', 'b', 'd', 'a']);
    expectConsistent(list);
  });

  test('remove unlinks the head, the middle and the tail, and clears the node\'s links', () => {
    const [a, b, c, d] = [node('a'), node('b'), node('c'), node('d')];
    const list = listOf(a, b, c, d);
    list.remove(b);
    expect(names(list)).toEqual(['a', 'c', 'd']);
    expect(b).toMatchObject({ prev: null, next: null, inList: false });
    expectConsistent(list);
    list.remove(a);
    expect(names(list)).toEqual(['c', 'd']);
    expect(list.first).toBe(c);
    expect(a).toMatchObject({ prev: null, next: null, inList: false });
    expectConsistent(list);
    list.remove(d);
    expect(names(list)).toEqual(['c']);
    expect(d).toMatchObject({ prev: null, next: null, inList: false });
    expectConsistent(list);
    list.remove(c);
    expect(names(list)).toEqual([]);
    expect(list.first).toBeNull();
    expect(list.size).toBe(0);
  });

  test('removing a node that is not in a list changes nothing', () => {
    const [a, b, outside] = [node('a'), node('b'), node('outside')];
    const list = listOf(a, b);
    list.remove(outside);
    list.remove(outside);
    expect(names(list)).toEqual(['a', 'b']);
    expect(list.size).toBe(2);
    list.remove(a);
    list.remove(a);
    expect(names(list)).toEqual(['b']);
    expect(list.size).toBe(1);
    expectConsistent(list);
  });

  test('pushing a node that is in a list throws and changes nothing', () => {
    const [a, b] = [node('a'), node('b')];
    const list = listOf(a, b);
    expect(() => list.push(a)).toThrow(/already in a list/);
    const other = new LruList<Node>();
    expect(() => other.push(b)).toThrow(/already in a list/);
    expect(names(list)).toEqual(['a', 'b']);
    expect(other.size).toBe(0);
    expectConsistent(list);
  });

  test('a removed node can be pushed again, to the tail, also into another list', () => {
    const [a, b, c] = [node('a'), node('b'), node('c')];
    const list = listOf(a, b, c);
    list.remove(a);
    list.push(a);
    expect(names(list)).toEqual(['b', 'c', 'a']);
    expectConsistent(list);
    list.remove(c);
    const other = listOf(c);
    expect(names(other)).toEqual(['c']);
    expect(names(list)).toEqual(['b', 'a']);
    expectConsistent(list);
    expectConsistent(other);
  });

  test('many nodes: order and size stay right through pushes, touches and removes', () => {
    const nodes = Array.from({ length: 200 }, (_, i) => node(`n${i}`));
    const list = listOf(...nodes);
    const model = nodes.map((n) => n.name);
    const random = new Random(12345);
    for (let step = 0; step < 2000; step++) {
      const n = nodes[random.below(nodes.length)] as Node;
      const op = random.below(3);
      const at = model.indexOf(n.name);
      if (op === 0) {
        list.touch(n);
        if (at >= 0) model.splice(at, 1);
        model.push(n.name);
      } else if (op === 1) {
        list.remove(n);
        if (at >= 0) model.splice(at, 1);
      } else if (!n.inList) {
        list.push(n);
        model.push(n.name);
      }
    }
    expect(names(list)).toEqual(model);
    expectConsistent(list);
  });
});
