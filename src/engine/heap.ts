// V8 sizes its heap for the machine (gigabytes on a server) and leaves what one stage
// promoted and then dropped in old space until the heap nears that size: on 10,000 vhosts
// the peak was four times the live data. Looking between stages, and collecting where the
// heap has grown well past what was live at the last collection, keeps the peak near the
// live data of the largest stage. A full collection costs ~150 ms at that size; small
// trees never grow enough to trigger one.

import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collector: (() => void) | null | undefined;

/** V8's full collection (`--expose-gc` turned on for new contexts: the way jest-leak-detector gets it). */
function fullCollection(): (() => void) | null {
  if (collector === undefined) {
    const own = (globalThis as { gc?: () => void }).gc;
    try {
      if (own) collector = own;
      else {
        setFlagsFromString('--expose-gc');
        collector = runInNewContext('gc') as () => void;
      }
    } catch {
      collector = null;
    }
  }
  return collector;
}

export class HeapWatch {
  private live = 0;

  /** `growth`: how many times the last live size the heap may reach, plus `slack` bytes. */
  constructor(private readonly growth = 1.5, private readonly slack = 64 * 1024 * 1024) {}

  /**
   * Between stages: collect if the heap grew past the limit, or (`dropped`: the stage let go
   * of most of what it held) if it holds more than the slack at all. True if it collected.
   */
  between(dropped = false): boolean {
    const used = getHeapStatistics().used_heap_size;
    if (used <= (dropped ? 0 : this.live * this.growth) + this.slack) return false;
    const gc = fullCollection();
    if (!gc) return false;
    gc();
    this.live = getHeapStatistics().used_heap_size;
    return true;
  }
}
