/**
 * Trace files written by the tests themselves (no downloads), shaped like the
 * public ones: a Mooncake-style JSONL with bursts and shared prefixes (a few
 * "system prompts" of one to three 512-token blocks that many requests start
 * with, then a tail of the request's own), and a BurstGPT-style CSV with
 * failures in its log.
 */
import { writeFileSync } from 'node:fs';
import { mulberry32 } from '../core/index.js';

export interface MooncakeRow {
  timestamp: number;
  input_length: number;
  output_length: number;
  hash_ids: number[];
}

/**
 * `n` requests over about `spanMs`: a steady background plus a burst of 30–60
 * requests within 20 ms every `burstEveryMs`. Shared leading blocks come from 12
 * prefixes; the last block (a partial one) is always the request's own.
 */
export function writeMooncakeTrace(path: string, n: number, spanMs: number, burstEveryMs = 1000, seed = 7): MooncakeRow[] {
  const rand = mulberry32(seed);
  const prefixes = Array.from({ length: 12 }, (_, k) => Array.from({ length: 1 + (k % 3) }, (_, b) => 1000 + k * 10 + b));
  const times: number[] = [];
  for (let t = burstEveryMs / 2; t < spanMs && times.length < n / 2; t += burstEveryMs) {
    const size = 30 + Math.floor(rand() * 31);
    for (let i = 0; i < size && times.length < n / 2; i++) times.push(Math.round(t + rand() * 20));
  }
  while (times.length < n) times.push(Math.round(rand() * spanMs));
  times.sort((a, b) => a - b);
  let own = 1_000_000;
  const rows = times.map((timestamp) => {
    const shared = rand() < 0.8 ? (prefixes[Math.floor(rand() * prefixes.length)] as number[]) : [];
    const tail = 1 + Math.floor(rand() * 300);
    return { timestamp, input_length: shared.length * 512 + tail, output_length: 4 + Math.floor(rand() * 13), hash_ids: [...shared, own++] };
  });
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return rows;
}

/** A BurstGPT-style CSV: `n` rows about `gapS` apart, every tenth a failure (0 response tokens). */
export function writeBurstGptTrace(path: string, n: number, gapS: number, seed = 3): Array<{ t: number; request: number; response: number }> {
  const rand = mulberry32(seed);
  const rows = Array.from({ length: n }, (_, i) => ({
    t: 100 + i * gapS,
    request: 20 + Math.floor(rand() * 200),
    response: i % 10 === 9 ? 0 : 4 + Math.floor(rand() * 20),
  }));
  writeFileSync(
    path,
    'Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n' +
      rows
        .map((r, i) => `${r.t.toFixed(3)},${i % 3 === 0 ? 'GPT-4' : 'ChatGPT'},${r.request},${r.response},${r.request + r.response},Conversation log`)
        .join('\n') +
      '\n',
  );
  return rows;
}

/** A small agent trace that runs: two root agents, one with a sub-agent after its first turn, one tool wait (the header line first). */
export const AGENT_TRACE_LINES: ReadonlyArray<Record<string, unknown>> = [
  { goodput: 'agents', block_tokens: 16 },
  {
    agent: 'a',
    t: 0,
    turns: [
      { in: 64, out: 4 },
      { in: 96, out: 4, wait: 0.01 },
      { in: 128, out: 4 },
    ],
  },
  { agent: 'a.1', parent: 'a', after: 1, turns: [{ in: 32, out: 4 }] },
  { agent: 'b', t: 0.05, turns: [{ in: 48, out: 4 }] },
];

/** Lines as a JSONL file's text. */
export const jsonl = (lines: readonly object[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
