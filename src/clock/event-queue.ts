/**
 * A binary min-heap of entries ordered by (time, seq), where `seq` is the insertion sequence the
 * queue stamps on every push. Equal times therefore pop in insertion order, on every run and
 * every machine: the order never depends on heap shape, object identity or hashing.
 *
 * Entries are intrusive: each carries its own heap index, so removing an arbitrary entry
 * (cancelling a timer) costs O(log n) and leaves no tombstone behind; `size` is always exact and
 * `peek` is O(1). Re-pushing an entry that was popped (a periodic timer re-arming) gives it a new
 * sequence number, i.e. it counts as a fresh insertion.
 */

/** The fields the queue reads and maintains on its entries. */
export interface QueueEntry {
  /** Due time, µs. Read by the queue; must not change while the entry is queued. */
  time: number;
  /** Insertion sequence, stamped by `push`. */
  seq: number;
  /** Position in the heap array, or -1 when not queued. Maintained by the queue. */
  heapIndex: number;
}

export class EventQueue<E extends QueueEntry> {
  readonly #heap: E[] = [];
  #nextSeq = 0;

  get size(): number {
    return this.#heap.length;
  }

  /** The entry that would pop next, without removing it. */
  peek(): E | undefined {
    return this.#heap[0];
  }

  /** True when `entry` is queued here (not popped, removed, or queued elsewhere). */
  contains(entry: E): boolean {
    return entry.heapIndex >= 0 && this.#heap[entry.heapIndex] === entry;
  }

  /** Queues `entry` at `entry.time`, after every entry already queued at that time. */
  push(entry: E): void {
    if (entry.heapIndex >= 0) throw new Error('entry is already queued');
    entry.seq = this.#nextSeq++;
    this.#heap.push(entry);
    this.#siftUp(entry, this.#heap.length - 1);
  }

  /** Removes and returns the earliest entry (lowest time, then lowest seq). */
  pop(): E | undefined {
    const heap = this.#heap;
    const top = heap[0];
    if (top === undefined) return undefined;
    const last = heap.pop() as E;
    if (last !== top) this.#siftDown(last, 0);
    top.heapIndex = -1;
    return top;
  }

  /** Removes `entry` if it is queued here; returns whether it was. */
  remove(entry: E): boolean {
    if (!this.contains(entry)) return false;
    const heap = this.#heap;
    const index = entry.heapIndex;
    const last = heap.pop() as E;
    if (last !== entry) {
      // The last entry fills the hole; it may belong above or below it.
      if (index > 0 && before(last, heap[(index - 1) >> 1] as E)) this.#siftUp(last, index);
      else this.#siftDown(last, index);
    }
    entry.heapIndex = -1;
    return true;
  }

  /** Moves `entry` up from hole `index` to its place. */
  #siftUp(entry: E, index: number): void {
    const heap = this.#heap;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex] as E;
      if (!before(entry, parent)) break;
      heap[index] = parent;
      parent.heapIndex = index;
      index = parentIndex;
    }
    heap[index] = entry;
    entry.heapIndex = index;
  }

  /** Moves `entry` down from hole `index` to its place. */
  #siftDown(entry: E, index: number): void {
    const heap = this.#heap;
    const length = heap.length;
    for (;;) {
      let childIndex = 2 * index + 1;
      if (childIndex >= length) break;
      let child = heap[childIndex] as E;
      const right = heap[childIndex + 1];
      if (right !== undefined && before(right, child)) {
        childIndex++;
        child = right;
      }
      if (!before(child, entry)) break;
      heap[index] = child;
      child.heapIndex = index;
      index = childIndex;
    }
    heap[index] = entry;
    entry.heapIndex = index;
  }
}

/** The total order: time, then insertion sequence (seqs are unique, so never equal). */
function before(a: QueueEntry, b: QueueEntry): boolean {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq);
}
