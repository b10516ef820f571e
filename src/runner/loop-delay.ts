/**
 * Our own event-loop delay during a level. Node's histogram reports the whole
 * sampling interval, so the resolution is subtracted to leave the lateness.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Spread } from '../core/index.js';

const RESOLUTION_MS = 1;

/** `peek` reads the delay so far without stopping; `stop` reads it and stops. */
export interface LoopMonitor {
  peek(): Spread;
  stop(): Spread;
}

export function startLoopMonitor(): LoopMonitor {
  const h = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  h.enable();
  const late = (ns: number) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
  const read = (): Spread => ({ p50: late(h.percentile(50)), p99: late(h.percentile(99)), max: late(h.max) });
  return {
    peek: read,
    stop() {
      h.disable();
      return read();
    },
  };
}
