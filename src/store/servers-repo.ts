/**
 * Registered servers. The API key is written here and read back only by
 * `secret()`, for the process that runs a sweep; every view leaves it out.
 */
import { type SqlExecutor, UNIQUE_VIOLATION, isoTime, rowIdInRange, sqlState } from './sql-driver.js';
import { StoreError } from './store-error.js';
import type { ServerInput } from './server-input.js';
import type { ServerStatus, ServerView } from './types.js';

interface ServerRow {
  id: number;
  name: string;
  base_url: string;
  has_api_key: boolean;
  model: string | null;
  engine: string | null;
  gpu_label: string | null;
  hourly_cost_usd: number | null;
  status: ServerStatus['state'];
  status_detail: string | null;
  status_model: string | null;
  status_checked_at: unknown;
  created_at: unknown;
}

const COLUMNS = `id, name, base_url, api_key IS NOT NULL AS has_api_key, model, engine, gpu_label, hourly_cost_usd,
  status, status_detail, status_model, status_checked_at, created_at`;

function view(r: ServerRow): ServerView {
  return {
    id: r.id,
    name: r.name,
    baseUrl: r.base_url,
    hasApiKey: r.has_api_key,
    model: r.model,
    engine: r.engine,
    gpuLabel: r.gpu_label,
    hourlyCostUsd: r.hourly_cost_usd,
    status: { state: r.status, detail: r.status_detail, model: r.status_model, checkedAt: isoTime(r.status_checked_at) },
    createdAt: isoTime(r.created_at),
  };
}

export class ServersRepo {
  constructor(private readonly db: SqlExecutor) {}

  /** Registers a server with its first probe's status. @throws StoreError 'duplicate' when the name is taken. */
  async add(input: ServerInput, status: ServerStatus): Promise<ServerView> {
    try {
      const rows = await this.db.query<ServerRow>(
        `INSERT INTO servers (name, base_url, api_key, model, engine, gpu_label, hourly_cost_usd, status, status_detail, status_model, status_checked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::timestamptz) RETURNING ${COLUMNS}`,
        [
          input.name,
          input.baseUrl,
          input.apiKey ?? null,
          input.model ?? null,
          input.engine ?? null,
          input.gpuLabel ?? null,
          input.hourlyCostUsd ?? null,
          status.state,
          status.detail,
          status.model,
          status.checkedAt,
        ],
      );
      return view(rows[0] as ServerRow);
    } catch (err) {
      if (sqlState(err) === UNIQUE_VIOLATION) throw new StoreError('duplicate', `a server named "${input.name}" is already registered`, 'name');
      throw err;
    }
  }

  async list(): Promise<ServerView[]> {
    return (await this.db.query<ServerRow>(`SELECT ${COLUMNS} FROM servers ORDER BY name`)).map(view);
  }

  /** A server by id, or by name when `ref` is not a number. @throws StoreError 'not-found'. */
  async get(ref: number | string): Promise<ServerView> {
    const byId = typeof ref === 'number' || /^\d+$/.test(ref);
    if (byId && !rowIdInRange(Number(ref))) throw new StoreError('not-found', `no server with id ${ref} is registered`);
    const rows = await this.db.query<ServerRow>(`SELECT ${COLUMNS} FROM servers WHERE ${byId ? 'id = $1' : 'name = $1'}`, [byId ? Number(ref) : ref]);
    if (rows.length === 0) throw new StoreError('not-found', `no server ${byId ? `with id ${ref}` : `named "${ref}"`} is registered`);
    return view(rows[0] as ServerRow);
  }

  /** Removes a server; its runs stay, keeping the server's name. */
  async remove(id: number): Promise<void> {
    await this.db.query('DELETE FROM servers WHERE id = $1', [id]);
  }

  async setStatus(id: number, s: ServerStatus): Promise<ServerView> {
    const rows = await this.db.query<ServerRow>(
      `UPDATE servers SET status = $2, status_detail = $3, status_model = $4, status_checked_at = $5::timestamptz WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, s.state, s.detail, s.model, s.checkedAt],
    );
    if (rows.length === 0) throw new StoreError('not-found', `no server with id ${id} is registered`);
    return view(rows[0] as ServerRow);
  }

  /** The key for the process that runs a sweep. Never put it in a response, a file or a log. */
  async secret(id: number): Promise<string | null> {
    const rows = await this.db.query<{ api_key: string | null }>('SELECT api_key FROM servers WHERE id = $1', [id]);
    return rows[0]?.api_key ?? null;
  }
}
