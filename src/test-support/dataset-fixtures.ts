/**
 * Production-shaped files written by the tests themselves (no downloads): an
 * Azure LLM inference trace CSV with its published columns and date format, a
 * ShareGPT JSON list, and a Parquet dataset written with hyparquet-writer.
 */
import { writeFileSync } from 'node:fs';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { mulberry32 } from '../core/index.js';

/** `2023-11-16 18:15:46.6805900`: the 2023 release's format (UTC, seven fraction digits). */
export function azureStamp(epochMs: number): string {
  const d = new Date(Math.floor(epochMs));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const fraction = Math.round((epochMs - Math.floor(epochMs / 1000) * 1000) * 10_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(fraction, 7)}`;
}

export interface AzureRow {
  /** ms from the first row, to the 0.1 µs the file writes. */
  atMs: number;
  context: number;
  generated: number;
}

/** `n` rows with exponential gaps of mean `meanGapMs` from 2023-11-16 18:15:46 UTC. */
export function writeAzureTrace(path: string, n: number, meanGapMs: number, seed = 5): AzureRow[] {
  const rand = mulberry32(seed);
  const start = Date.UTC(2023, 10, 16, 18, 15, 46);
  let t = 0;
  const rows = Array.from({ length: n }, (_, i) => {
    if (i > 0) t += Math.round(-Math.log(1 - rand()) * meanGapMs * 10_000) / 10_000;
    return { atMs: t, context: 20 + Math.floor(rand() * 200), generated: 4 + Math.floor(rand() * 20) };
  });
  writeFileSync(
    path,
    'TIMESTAMP,ContextTokens,GeneratedTokens\n' + rows.map((r) => `${azureStamp(start + r.atMs)},${r.context},${r.generated}`).join('\n') + '\n',
  );
  return rows;
}

/** A ShareGPT list of `n` conversations of two human turns, each answered; its first turns' words and answers' words. */
export function writeShareGpt(path: string, n: number, seed = 9): Array<{ prompt: string; answerWords: number }> {
  const rand = mulberry32(seed);
  const words = (k: number, w: string) => Array.from({ length: k }, (_, i) => `${w}${i}`).join(' ');
  const out = Array.from({ length: n }, (_, i) => ({ prompt: words(3 + Math.floor(rand() * 30), `q${i}x`), answerWords: 2 + Math.floor(rand() * 12) }));
  const list = out.map((c, i) => ({
    id: `conv${i}`,
    conversations: [
      { from: 'human', value: c.prompt },
      { from: 'gpt', value: words(c.answerWords, 'a') },
      { from: 'human', value: 'and then?' },
      { from: 'gpt', value: 'the end' },
    ],
  }));
  writeFileSync(path, JSON.stringify(list));
  return out;
}

/** A Parquet file of the given columns. */
export function writeParquet(path: string, columns: Array<{ name: string; data: unknown[]; type: 'STRING' | 'INT32' | 'INT64' | 'DOUBLE' }>): void {
  writeFileSync(path, Buffer.from(parquetWriteBuffer({ columnData: columns } as Parameters<typeof parquetWriteBuffer>[0])));
}
