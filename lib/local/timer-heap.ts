import type { Clock } from '../platform/clock.ts';

/** Timers as a port (defaults to the globals, looked up at call time so fake timers apply). */
export interface Timers {
  setTimeout(callback: () => void, ms: number): NodeJS.Timeout;
  clearTimeout(handle: NodeJS.Timeout): void;
}

export const systemTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle),
};

interface Entry<T> {
  dueMs: number;
  seq: number;
  item: T;
}

/** A timer that fires this early counts as on time (node rounds delays to whole ms). */
const EARLY_MS = 1;
/** setTimeout's largest delay. */
const MAX_DELAY_MS = 2 ** 31 - 1;

const before = <T>(a: Entry<T>, b: Entry<T>) => a.dueMs < b.dueMs || (a.dueMs === b.dueMs && a.seq < b.seq);

/**
 * Fires each item at its due time: a min-heap of due times with ONE timeout armed to the earliest,
 * re-armed as items come and go, so every item fires on its own time (no per-tick batching).
 * Items due at the same time fire together, in insertion order.
 */
export function createTimerHeap<T>(deps: { clock: Clock; timers: Timers; onDue(items: T[]): void }) {
  const heap: Entry<T>[] = [];
  let seq = 0;
  let handle: NodeJS.Timeout | undefined;
  let armedFor = Number.POSITIVE_INFINITY;

  const swap = (i: number, j: number) => {
    const a = heap[i];
    const b = heap[j];
    if (!a || !b) return;
    heap[i] = b;
    heap[j] = a;
  };

  const up = (start: number) => {
    let i = start;
    for (;;) {
      const parent = (i - 1) >> 1;
      const child = heap[i];
      const above = heap[parent];
      if (i === 0 || !child || !above || !before(child, above)) return;
      swap(i, parent);
      i = parent;
    }
  };

  const down = (start: number) => {
    let i = start;
    for (;;) {
      let smallest = i;
      for (const c of [2 * i + 1, 2 * i + 2]) {
        const candidate = heap[c];
        const current = heap[smallest];
        if (candidate && current && before(candidate, current)) smallest = c;
      }
      if (smallest === i) return;
      swap(i, smallest);
      i = smallest;
    }
  };

  const pop = (): Entry<T> | undefined => {
    const top = heap[0];
    const last = heap.pop();
    if (top && last && heap.length > 0) {
      heap[0] = last;
      down(0);
    }
    return top;
  };

  const disarm = () => {
    if (handle) deps.timers.clearTimeout(handle);
    handle = undefined;
    armedFor = Number.POSITIVE_INFINITY;
  };

  const arm = () => {
    const earliest = heap[0];
    if (!earliest) return disarm();
    if (handle && armedFor <= earliest.dueMs) return;
    disarm();
    const delay = Math.min(MAX_DELAY_MS, Math.max(0, earliest.dueMs - deps.clock.now()));
    armedFor = earliest.dueMs;
    handle = deps.timers.setTimeout(fire, delay);
  };

  function fire() {
    handle = undefined;
    armedFor = Number.POSITIVE_INFINITY;
    const due = takeDue();
    if (due.length > 0) deps.onDue(due);
  }

  function takeDue(): T[] {
    const now = deps.clock.now();
    const due: T[] = [];
    for (let top = heap[0]; top && top.dueMs <= now + EARLY_MS; top = heap[0]) {
      pop();
      due.push(top.item);
    }
    arm();
    return due;
  }

  return {
    /** Fires `item` at `dueMs` (at once when that is past). */
    add(dueMs: number, item: T): void {
      heap.push({ dueMs, seq: seq++, item });
      up(heap.length - 1);
      arm();
    },
    /** Removes and returns the items due now (for a consumer that pulls instead of waiting to be fired). */
    takeDue,
    /** Drops every pending item and the timer; returns the dropped items. */
    clear(): T[] {
      disarm();
      return heap.splice(0).map((entry) => entry.item);
    },
    get size(): number {
      return heap.length;
    },
  };
}
