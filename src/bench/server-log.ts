/**
 * The simulator's own per-request log (`goodput sim --request-log`), read after it
 * stopped: the server's TTFT of each request (first token written − request read),
 * keyed by the request id the client sent, so a client's TTFT can be set beside it.
 */
import { readFileSync } from 'node:fs';
import { percentiles } from '../core/index.js';

/** Request id → the server's own TTFT, ms. */
export function serverTtfts(logPath: string): Map<string, number> {
  const server = new Map<string, number>();
  for (const line of readFileSync(logPath, 'utf8').split('\n')) {
    if (line === '') continue;
    const e = JSON.parse(line) as { id: string | null; arrivalMs: number; firstWriteMs: number | null };
    if (e.id !== null && e.firstWriteMs !== null) server.set(e.id, e.firstWriteMs - e.arrivalMs);
  }
  return server;
}

/** Our TTFT minus the server's for each request the log knows, ms. */
export function clientMinusServer(rows: ReadonlyArray<{ id: string | undefined; ttftMs: number | null }>, server: ReadonlyMap<string, number>): number[] {
  return rows.flatMap((r) => {
    const theirs = r.id === undefined ? undefined : server.get(r.id);
    return r.ttftMs === null || theirs === undefined ? [] : [r.ttftMs - theirs];
  });
}

/** "p50/p99 (n)" of `xs`, ms, or — when empty. */
export function spreadText(xs: readonly number[]): string {
  const p = percentiles(xs, [50, 99]);
  return p === null ? '—' : `${p.p50.toFixed(2)}/${p.p99.toFixed(2)} (${xs.length})`;
}
