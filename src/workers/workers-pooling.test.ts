/**
 * Embeddings and rerank over `goodput worker` processes, for real: a
 * PostgreSQL server, the simulator in its own process and two workers on
 * loopback, driven by `goodput sweep --endpoint … --workers 2`. The levels
 * count what one process's do and are stored with their records; a pooling
 * record a worker wrote out of bounds, or not signed by the sweep's worker, is
 * refused on entry naming the row and the field. (Requests per second against
 * one process is workers-pooling.timing.test.ts.)
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type PoolingRecord, type PoolingResult, RUN_KINDS } from '../core/index.js';
import { runGoodput } from '../test-support/goodput-process.js';
import { useWorkerFleet } from '../test-support/worker-fleet.js';
import { patient } from '../test-support/patience.js';
import { SweepKey } from './share-auth.js';
import { shareRecords } from './share-records.js';
import { openWorkerDb } from './worker-db.js';

const fleet = useWorkerFleet(['p1', 'p2']);

/** A pooling sweep against the fleet's simulator over its two workers that must exit 0; its JSON result and stderr. */
async function overWorkers(args: readonly string[]): Promise<{ result: PoolingResult; stderr: string }> {
  const r = await runGoodput(
    [
      'sweep',
      '--url',
      fleet.sim().url,
      '--client-budget-ms',
      '1000',
      '--json',
      '-',
      '--workers',
      '2',
      '--database-url',
      fleet.db(),
      '--workers-wait',
      '30',
      ...args,
    ],
    {},
    180_000,
  );
  expect(r.code, r.stderr).toBe(0);
  return { result: JSON.parse(r.stdout) as PoolingResult, stderr: r.stderr };
}

const readRecords = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as PoolingRecord);

describe('goodput sweep --endpoint embeddings|rerank --workers 2', () => {
  it(
    'embeddings at 2 and 4 over two workers: every request counted, inputs/s reported, the run and its records stored',
    async () => {
      const raw = join(mkdtempSync(join(tmpdir(), 'goodput-pooling-workers-')), 'records.jsonl');
      const { result, stderr } = await overWorkers([
        '--endpoint',
        'embeddings',
        '--batch-size',
        '4',
        '--prompt-tokens',
        '16',
        '--levels',
        '2,4',
        '--requests-per-level',
        '16',
        '--warmup',
        '2',
        '--raw',
        raw,
        '--save',
      ]);
      expect(stderr).toMatch(/2 workers live: p\d \(.*\), p\d \(/);
      expect(stderr).not.toMatch(/sent from this process only/);
      expect(result.run.status).toBe('complete');
      expect(result.levels.map((l) => [l.concurrency, l.requests, l.failed])).toEqual([
        [2, 16, 0],
        [4, 16, 0],
      ]);
      for (const l of result.levels) {
        expect(l.itemsPerS).toBeGreaterThan(0);
        expect(l.inputTokensPerS).toBeGreaterThan(0);
        expect(l.dimension).toBe(384);
      }
      // Each level's warm-ups (dealt over the shares) and its measured requests, every sequence number once, on one clock.
      const records = readRecords(raw);
      for (const c of [2, 4]) {
        const level = records.filter((r) => r.concurrency === c);
        expect(level.map((r) => r.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 18 }, (_, i) => i));
        expect(level.filter((r) => r.warmup)).toHaveLength(2);
        expect(level.every((r) => r.outcome.kind === 'ok' && r.endNs >= r.sentNs && r.sentNs > 0)).toBe(true);
      }
      // Stored in the same PostgreSQL: the run, its two levels and all 36 records.
      const [run] = await fleet.query<{ id: number; status: string }>('SELECT id, status FROM runs ORDER BY id DESC LIMIT 1');
      expect(run?.status).toBe('complete');
      const [stored] = await fleet.query<{ levels: number; records: number }>(
        'SELECT (SELECT count(*)::int FROM levels WHERE run_id = $1) AS levels, (SELECT count(*)::int FROM records WHERE run_id = $1) AS records',
        [run?.id],
      );
      expect(stored).toEqual({ levels: 2, records: 36 });
      // The sweep's rows and jobs are gone once it ends.
      const [left] = await fleet.query<{ n: number }>('SELECT count(*)::int AS n FROM worker_records');
      expect(left?.n).toBe(0);
    },
    patient(240_000),
  );

  it(
    'rerank at 2 over two workers: documents/s reported, every request counted',
    async () => {
      const { result } = await overWorkers([
        '--endpoint',
        'rerank',
        '--documents',
        '4',
        '--prompt-tokens',
        '16',
        '--query-tokens',
        '8',
        '--levels',
        '2',
        '--requests-per-level',
        '8',
        '--no-save',
      ]);
      expect(result.run.endpoint).toBe('rerank');
      expect(result.levels.map((l) => [l.concurrency, l.requests, l.failed])).toEqual([[2, 8, 0]]);
      expect(result.levels[0]?.itemsPerS).toBeGreaterThan(0);
    },
    patient(240_000),
  );

  it(
    "a pooling record out of bounds or not signed by the sweep's worker is refused on entry, naming the row and the field",
    async () => {
      const w = await openWorkerDb(fleet.db(), { supervise: false });
      try {
        const sweep = 'cd'.repeat(12);
        const key = new SweepKey(Buffer.from('a1'.repeat(32), 'hex'), sweep);
        const share = `${sweep}/2/0`;
        const good: PoolingRecord = {
          seq: 0,
          concurrency: 2,
          warmup: false,
          sentNs: 1e9,
          endNs: 1.1e9,
          items: 4,
          inputTokens: 64,
          dimension: 384,
          outcome: { kind: 'ok' },
        };
        const huge = { ...good, seq: 1, dimension: 1e12 };
        const rows = [good, huge];
        const macs = rows.map((record) => key.sign('record', { share, record }));
        await w.shares.insertRecords(share, JSON.stringify(rows), JSON.stringify(macs));
        const read = await shareRecords(w, key, share, [0, 1], 2, RUN_KINDS.pooling.recordSchema);
        expect(read.records).toEqual([good]);
        expect(read.refused).toMatch(new RegExp(`^worker_records row \\(share ${share}, seq 1\\) is not a record: dimension: `));
        // Signed by anyone else: refused before it is read as a record.
        const other = `${sweep}/2/1`;
        await w.shares.insertRecords(
          other,
          JSON.stringify([good]),
          JSON.stringify([new SweepKey(Buffer.from('c3'.repeat(32), 'hex'), sweep).sign('record', { share: other, record: good })]),
        );
        const forged = await shareRecords(w, key, other, [0], 2, RUN_KINDS.pooling.recordSchema);
        expect(forged.records).toEqual([]);
        expect(forged.refused).toBe(`worker_records row (share ${other}, seq 0) is not signed by this sweep's worker: refused`);
        // A field a pooling record does not have (a text record's `client`) is refused by name: the schema is strict.
        const third = `${sweep}/2/2`;
        const stray = { ...good, client: 'worker p1' };
        await w.shares.insertRecords(third, JSON.stringify([stray]), JSON.stringify([key.sign('record', { share: third, record: stray })]));
        const strayRead = await shareRecords(w, key, third, [0], 2, RUN_KINDS.pooling.recordSchema);
        expect(strayRead.records).toEqual([]);
        expect(strayRead.refused).toMatch(/^worker_records row \(share \S+, seq 0\) is not a record: .*client/);
        await w.shares.deleteSweepRecords(sweep);
      } finally {
        await w.close();
      }
    },
    patient(60_000),
  );
});
