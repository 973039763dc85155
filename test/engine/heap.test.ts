// The heap watch between stages: it collects only where the heap grew past the limit, and a
// collection gives back what a stage dropped.
import { getHeapStatistics } from 'node:v8';
import { HeapWatch } from '../../src/engine/heap.js';

describe('HeapWatch', () => {
  it('does nothing while the heap stays under the slack', () => {
    const watch = new HeapWatch(1.5, Number.MAX_SAFE_INTEGER);
    expect(watch.between()).toBe(false);
    expect(watch.between(true)).toBe(false);
  });

  it('collects what a stage dropped once the heap is past the limit, then waits for growth', () => {
    const watch = new HeapWatch(1.5, 8 * 1024 * 1024);
    watch.between(true);
    // A stage's garbage: about 40 MB promoted (kept across allocations) and then dropped.
    let held: string[][] | null = [];
    for (let i = 0; i < 200; i++) held.push(Array.from({ length: 5000 }, (_, j) => `${i}:${j}:`.repeat(4)));
    const before = getHeapStatistics().used_heap_size;
    held = null;
    expect(watch.between()).toBe(true);
    const after = getHeapStatistics().used_heap_size;
    expect(before - after).toBeGreaterThan(20 * 1024 * 1024);
    // Right after a collection the heap is at the live size: no second one.
    expect(watch.between()).toBe(false);
  });
});
