/**
 * A share's raw records as the coordinator takes them back, counted rather
 * than believed: only rows at the share's own sequence numbers, each signed by
 * the sweep's worker, measured in the database before any is fetched, read in
 * bounded batches and passing its kind's record schema. And the records a lost
 * text worker never wrote, failed naming it, so the level still counts every request.
 */
import type { z } from 'zod';
import { type RecordOf, type RequestRecord, adapterAt } from '../core/index.js';
import { type LevelOnThreads, type SweepSpec, shareSeqs } from '../runner/index.js';
import type { RecordRow } from '../store/index.js';
import type { SweepKey } from './share-auth.js';
import type { WorkerDb } from './worker-db.js';

/** A worker_records row whose text is larger than this is refused unread, bytes (measured uncompressed, in the database). */
const MAX_RECORD_ROW_BYTES = 16 * 1024 * 1024;
/** Records are fetched in batches of at most this much text and this many rows: the coordinator's memory is bounded whatever the table holds. */
const RECORD_BATCH_BYTES = MAX_RECORD_ROW_BYTES;
const RECORD_BATCH_ROWS = 500;

/**
 * A share's records, counted rather than believed: only rows at its own
 * sequence numbers `seqList` (its warm-ups and its part of the level), each signed by
 * this sweep's worker, measured in the database before any is fetched (its
 * text, uncompressed), read in bounded batches and passing the kind's record
 * schema (`recordSchema`: a field out of bounds is refused naming it). Any
 * other row is refused naming it; with rows outside its sequence numbers the
 * share's records are not believed at all (the level becomes invalid, saying why).
 */
export async function shareRecords(
  w: WorkerDb,
  key: SweepKey,
  k: string,
  seqList: readonly number[],
  concurrency: number,
  recordSchema: z.ZodType,
): Promise<{ records: RecordOf[]; refused: string | null }> {
  const extra = await w.shares.recordsOutside(k, seqList);
  if (extra.n > 0)
    return {
      records: [],
      refused: `worker_records holds ${extra.n} row(s) of share ${k} outside its sequence numbers (first: seq ${extra.first}): written by someone other than its worker, so none of the share's rows is believed`,
    };
  const records: RecordOf[] = [];
  let refused: string | null = null;
  const check = (r: RecordRow) => {
    const row = `worker_records row (share ${k}, seq ${r.seq})`;
    let why: string | null = null;
    if (r.size > MAX_RECORD_ROW_BYTES) why = `${row} holds ${r.size} bytes, above ${MAX_RECORD_ROW_BYTES}: refused unread`;
    else if (!key.verify('record', { share: k, record: r.record }, r.mac)) why = `${row} is not signed by this sweep's worker: refused`;
    else {
      const parsed = recordSchema.safeParse(r.record);
      if (!parsed.success)
        why = `${row} is not a record: ${parsed.error.issues[0]?.path.join('.') || 'record'}: ${parsed.error.issues[0]?.message ?? 'invalid'}`;
      else {
        const rec = parsed.data as RecordOf;
        if (rec.seq !== r.seq || rec.concurrency !== concurrency) why = `${row} names seq ${rec.seq} at level ${rec.concurrency}: refused`;
        else records.push(rec);
      }
    }
    if (why !== null) refused ??= why;
  };
  await w.shares.recordBatches(k, seqList, { maxRowBytes: MAX_RECORD_ROW_BYTES, batchBytes: RECORD_BATCH_BYTES, batchRows: RECORD_BATCH_ROWS }, (rows) =>
    rows.forEach(check),
  );
  return { records, refused };
}

/**
 * The requests of a lost worker's share that it never recorded, as failed records
 * naming it, at `atNs` on the worker's clock (when it was found lost): in flight or
 * never sent, the coordinator cannot tell, and counts them all.
 */
export function lostRecords(
  spec: SweepSpec,
  level: LevelOnThreads,
  share: { index: number; count: number },
  have: readonly RequestRecord[],
  why: string,
  client: string,
  at: number,
): RequestRecord[] {
  const atNs = Math.round(at);
  const seen = new Set(have.map((r) => r.seq));
  return shareSeqs(spec, level.concurrency, level.requests, share)
    .filter((q) => !seen.has(q))
    .map((seq) => ({
      seq,
      concurrency: level.concurrency,
      warmup: false,
      targetSendNs: atNs,
      sendNs: atNs,
      headersNs: null,
      firstTokenNs: null,
      firstAnswerNs: null,
      chunkNs: [],
      chunkTokens: [],
      chunkTokensExact: false,
      endNs: atNs,
      outputTokens: 0,
      outputTokenSource: 'chunks',
      reasoningTokens: null,
      reasoningChunks: 0,
      promptTokens: null,
      cachedPromptTokens: null,
      finishReason: null,
      httpStatus: null,
      outcome: { kind: 'client-lost', message: why },
      client,
      // The adapter the request was drawn to, so a level's adapters still add up to it.
      ...(spec.lora === null ? {} : { adapter: adapterAt(spec.lora, spec.seed, level.concurrency, seq) }),
    }));
}
