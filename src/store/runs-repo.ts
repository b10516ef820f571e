/**
 * Runs: a row is written at start (`running`, with its owner's pid, host and a
 * heartbeat), levels are added as they end (levels-repo.ts), and the row is
 * completed with the result's contract, warnings and cards at the end. The
 * interrupted rule (liveness.ts) is applied whenever runs are read or begun.
 */
import { type ResultOf, type Warning, kindOfResult } from '../core/index.js';
import { ownerGoneReason } from './liveness.js';
import { type SqlDriver, type SqlExecutor, UNIQUE_VIOLATION, rowIdInRange, sqlState } from './sql-driver.js';
import { StoreError } from './store-error.js';
import type { BeginRun, RunDetail, RunSummary } from './types.js';
import { RUN_SUMMARY_SELECT, type RunRow, detailOf, summaryOf } from './run-rows.js';
import type { LevelsRepo } from './levels-repo.js';
import { resultRowOf } from './stored-kinds.js';

interface RunningRow {
  id: number;
  target_url: string;
  owner_pid: number;
  owner_host: string;
  heartbeat_age_ms: number;
  levels: number[] | null;
}

const RUNNING = `SELECT id, target_url, owner_pid, owner_host,
  (EXTRACT(EPOCH FROM (now() - heartbeat_at)) * 1000)::float8 AS heartbeat_age_ms,
  (SELECT array_agg(concurrency ORDER BY concurrency) FROM levels l WHERE l.run_id = runs.id) AS levels
  FROM runs WHERE status = 'running'`;

export class RunsRepo {
  constructor(
    private readonly db: SqlDriver,
    private readonly levels: LevelsRepo,
  ) {}

  /** Rewrites running runs whose owner is gone as `interrupted`. @returns the ids rewritten. */
  async reap(tx: SqlExecutor = this.db, targetUrl?: string): Promise<number[]> {
    const rows = await tx.query<RunningRow>(targetUrl === undefined ? RUNNING : `${RUNNING} AND target_url = $1`, targetUrl === undefined ? [] : [targetUrl]);
    const reaped: number[] = [];
    for (const r of rows) {
      const why = ownerGoneReason({ pid: r.owner_pid, host: r.owner_host, heartbeatAgeMs: r.heartbeat_age_ms });
      if (why === null) continue;
      const kept = r.levels && r.levels.length > 0 ? `levels ${r.levels.join(', ')} are kept` : 'no level had finished';
      await tx.query(`UPDATE runs SET status = 'interrupted', stop_reason = $2, ended_at = heartbeat_at WHERE id = $1 AND status = 'running'`, [
        r.id,
        `interrupted: ${why}; ${kept}`,
      ]);
      reaped.push(r.id);
    }
    return reaped;
  }

  /**
   * Records a run's start. @throws StoreError 'run-in-progress' when a live run
   * already targets the same server (levels must not contend).
   */
  async begin(input: BeginRun): Promise<number> {
    try {
      return await this.db.transaction(async (tx) => {
        await this.reap(tx, input.targetUrl);
        const rows = await tx.query<{ id: number }>(
          `INSERT INTO runs (server_id, server_name, target_url, model, status, spec, owner_pid, owner_host)
           VALUES ($1, $2, $3, $4, 'running', $5::jsonb, $6, $7) RETURNING id`,
          [input.serverId, input.serverName, input.targetUrl, input.spec.model, JSON.stringify(input.spec), input.ownerPid, input.ownerHost],
        );
        return (rows[0] as { id: number }).id;
      });
    } catch (err) {
      if (sqlState(err) !== UNIQUE_VIOLATION) throw err;
      const busy = (
        await this.db.query<{ id: number; owner_pid: number; owner_host: string }>(
          `SELECT id, owner_pid, owner_host FROM runs WHERE status = 'running' AND target_url = $1`,
          [input.targetUrl],
        )
      )[0];
      const who = busy ? `run ${busy.id} (pid ${busy.owner_pid} on ${busy.owner_host})` : 'another run';
      throw new StoreError(
        'run-in-progress',
        `${who} against ${input.targetUrl} is still in progress; ` +
          'a second run would make the levels of both contend, so it is refused. Wait for it to finish, or stop it.',
        'serverId',
      );
    }
  }

  async setModel(id: number, model: string): Promise<void> {
    await this.db.query('UPDATE runs SET model = $2 WHERE id = $1', [id, model]);
  }

  /** Appends a warning as it is raised, so it is stored even if the run never ends. */
  async addWarning(id: number, w: Warning): Promise<void> {
    await this.db.query(`UPDATE runs SET warnings = warnings || $2::jsonb WHERE id = $1`, [id, JSON.stringify([w])]);
  }

  async heartbeat(id: number): Promise<void> {
    await this.db.query(`UPDATE runs SET heartbeat_at = now() WHERE id = $1 AND status = 'running'`, [id]);
  }

  /**
   * Stores how the run ended: status, the run's contract (`run`) and warnings, with what its kind keeps of the
   * rest (stored-kinds.ts): a text run's cards and other result fields; nothing more of an embeddings or rerank
   * run, whose peak and capacity are derived from its stored levels when read.
   */
  async finish(id: number, result: ResultOf): Promise<void> {
    const { run, warnings } = result;
    const row = resultRowOf(kindOfResult(result), result);
    await this.db.query(
      `UPDATE runs SET status = $2, stop_reason = $3, run_info = $4::jsonb, warnings = $5::jsonb, cards = COALESCE($6::jsonb, cards), extras = $7::jsonb,
       model = $8, ended_at = now() WHERE id = $1`,
      [
        id,
        run.status,
        run.stopReason,
        JSON.stringify(run),
        JSON.stringify(warnings),
        'cards' in row ? JSON.stringify(row.cards) : null,
        JSON.stringify(row.extras),
        run.model,
      ],
    );
  }

  /** Ends a run that broke without a result: kept as `interrupted`, its finished levels with it. */
  async abandon(id: number, reason: string): Promise<void> {
    await this.db.query(`UPDATE runs SET status = 'interrupted', stop_reason = $2, ended_at = now() WHERE id = $1 AND status = 'running'`, [
      id,
      `interrupted: ${reason}`,
    ]);
  }

  /** Deletes a run that never started measuring (its preflight was refused): nothing half-done is kept. */
  async discard(id: number): Promise<void> {
    await this.db.query('DELETE FROM runs WHERE id = $1', [id]);
  }

  /** The run history, newest first. */
  async list(limit = 200): Promise<RunSummary[]> {
    await this.reap();
    const rows = await this.db.query<RunRow>(`${RUN_SUMMARY_SELECT} ORDER BY r.started_at DESC, r.id DESC LIMIT $1`, [limit]);
    return rows.map(summaryOf);
  }

  /** One run with its finished levels. @throws StoreError 'not-found'. */
  async get(id: number): Promise<RunDetail> {
    if (!rowIdInRange(id)) throw new StoreError('not-found', `there is no run ${id}`);
    await this.reap();
    const row = (await this.db.query<RunRow>(`${RUN_SUMMARY_SELECT} WHERE r.id = $1`, [id]))[0];
    if (!row) throw new StoreError('not-found', `there is no run ${id}`);
    return detailOf(row, await this.levels.levels(id));
  }
}
