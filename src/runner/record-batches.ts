/**
 * Records leaving the client that sent them (a client thread, a worker process)
 * in batches, never one message or row per request: a batch leaves as JSON when
 * it holds `max` records or its oldest is `maxMs` old (so progress stays live),
 * and whatever is left at flush().
 */
import type { RequestRecord } from '../core/index.js';

export interface RecordBatches<T = RequestRecord> {
  add(r: T): void;
  flush(): void;
}

export function recordBatches<T = RequestRecord>(max: number, maxMs: number, send: (json: string, count: number) => void): RecordBatches<T> {
  let batch: T[] = [];
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (batch.length === 0) return;
    const json = JSON.stringify(batch);
    const count = batch.length;
    batch = [];
    send(json, count);
  };
  return {
    add(r) {
      batch.push(r);
      if (batch.length >= max) flush();
      else timer ??= setTimeout(flush, maxMs);
    },
    flush,
  };
}
