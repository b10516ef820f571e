/**
 * Levels and their raw request records. A level and all its records are
 * committed together, in one transaction, when the level ends: a killed run
 * keeps every finished level whole and nothing of the level in flight.
 * A level is keyed on its value on the load axis (streams, req/s or burst
 * size): an open-loop level's `concurrency` is the peak it reached, which two
 * rate levels can share.
 */
import { type LevelOf, type PoolingRecord, type RecordOf, type RequestRecord, kindOfEndpoint } from '../core/index.js';
import type { SqlDriver } from './sql-driver.js';
import { levelRowOf } from './stored-kinds.js';

/** A raw record as stored: a text request's, or an embeddings or rerank request's. */
export type StoredRecord = RequestRecord | PoolingRecord;

/** Records per INSERT statement (one JSON parameter each, so the size is the only limit). */
const RECORDS_PER_STATEMENT = 500;

export class LevelsRepo {
  constructor(private readonly db: SqlDriver) {}

  /**
   * Stores one finished level with its records (warm-ups included, tagged),
   * filed by its run's kind (read from the run's endpoint): its columns are
   * that kind's (stored-kinds.ts).
   */
  async save(runId: number, level: LevelOf, records: readonly RecordOf[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [run] = await tx.query<{ endpoint: string | null }>(`SELECT spec->>'endpoint' AS endpoint FROM runs WHERE id = $1`, [runId]);
      const { key, columns } = levelRowOf(kindOfEndpoint(run?.endpoint), level);
      await tx.query(
        `INSERT INTO levels (run_id, concurrency, invalid, client_bound, failed, throughput_tok_s, items_per_s, result)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)`,
        [runId, key, ...columns, JSON.stringify(level)],
      );
      for (let i = 0; i < records.length; i += RECORDS_PER_STATEMENT) {
        const batch = records.slice(i, i + RECORDS_PER_STATEMENT);
        await tx.query(
          `INSERT INTO records (run_id, concurrency, seq, warmup, outcome, record)
           SELECT $1, $2, (e->>'seq')::int, (e->>'warmup')::boolean, e->'outcome'->>'kind', e
           FROM jsonb_array_elements($3::jsonb) AS e`,
          [runId, key, JSON.stringify(batch)],
        );
      }
    });
  }

  /** A run's finished levels, ascending, as stored (unknown: the reader checks them against its schema). */
  async levels(runId: number): Promise<unknown[]> {
    const rows = await this.db.query<{ result: unknown }>('SELECT result FROM levels WHERE run_id = $1 ORDER BY concurrency', [runId]);
    return rows.map((r) => r.result);
  }

  /** A run's raw records in level and send order; one level's when `concurrency` (the level's value on its axis) is given. */
  async records(runId: number, concurrency?: number): Promise<StoredRecord[]> {
    const rows =
      concurrency === undefined
        ? await this.db.query<{ record: StoredRecord }>('SELECT record FROM records WHERE run_id = $1 ORDER BY concurrency, seq', [runId])
        : await this.db.query<{ record: StoredRecord }>('SELECT record FROM records WHERE run_id = $1 AND concurrency = $2 ORDER BY seq', [runId, concurrency]);
    return rows.map((r) => r.record);
  }
}
