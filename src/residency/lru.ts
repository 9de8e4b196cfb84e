/**
 * An intrusive least-recently-used list, as d3dx12residency.h keeps its tracked objects: the head is
 * the least recently used, the tail the most. O(1) insert, remove and touch (move to the tail).
 *
 * Invariants: a node is in at most one list; `prev`/`next` are null exactly when the node is not in
 * a list (or is at that end); `size` counts the nodes.
 */

export interface LruNode {
  prev: LruNode | null;
  next: LruNode | null;
  inList: boolean;
}

export class LruList<T extends LruNode> {
  private head: T | null = null;
  private tail: T | null = null;
  size = 0;

  /** Appends `node` as the most recently used. */
  push(node: T): void {
    if (node.inList) throw new Error('node is already in a list');
    node.prev = this.tail;
    node.next = null;
    if (this.tail) this.tail.next = node;
    else this.head = node;
    this.tail = node;
    node.inList = true;
    this.size++;
  }

  remove(node: T): void {
    if (!node.inList) return;
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next as T | null;
    if (node.next) node.next.prev = node.prev;
    else this.tail = node.prev as T | null;
    node.prev = null;
    node.next = null;
    node.inList = false;
    this.size--;
  }

  /** Marks `node` most recently used. */
  touch(node: T): void {
    this.remove(node);
    this.push(node);
  }

  /** From least to most recently used. */
  *[Symbol.iterator](): IterableIterator<T> {
    for (let node = this.head; node; node = node.next as T | null) yield node;
  }

  get first(): T | null {
    return this.head;
  }
}
