/**
 * The Catalog through another process's API: a running `goodput serve` that
 * holds the embedded database, so CLI commands (and `sweep --save`) still work
 * (its token, when it needs one, comes from GOODPUT_TOKEN); or the read door
 * of a CLI command holding it (read-door.ts), for reads only.
 */
import { type ResultOf, kindOfEndpoint, refusalOf } from '../core/index.js';
import type { BeginRun, RunDetail, RunSummary, ServerInput, ServerView, StoredRecord, WorkerView } from '../store/index.js';
import { ApiError, type ApiErrorBody, type ApiErrorCode } from './api-error.js';
import type { Catalog, RunWriter } from './catalog.js';
import { ingestRoutesOf } from './stored-kinds.js';

export interface RemoteOptions {
  /** Bearer token, when the other process needs one. */
  token?: string | null;
  timeoutMs?: number;
  /** Who answers, in words (default "goodput serve"). */
  holder?: string;
  /** False for a CLI holder's read door: it has no page to point at. */
  page?: boolean;
}

export function remoteCatalog(baseUrl: string, o: RemoteOptions = {}): Catalog {
  const base = baseUrl.replace(/\/+$/, '');
  const { token = null, timeoutMs = 60_000, holder = 'goodput serve', page = true } = o;
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new ApiError('busy', `${holder} at ${base} holds the store but did not answer (${(err as Error).message}); is it still running?`);
    }
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    if (res.ok) return JSON.parse(text) as T;
    let e: ApiErrorBody['error'] | undefined;
    try {
      e = (JSON.parse(text) as ApiErrorBody).error;
    } catch {
      /* not our error body */
    }
    throw new ApiError((e?.code ?? 'internal') as ApiErrorCode, e?.message ?? `${holder} answered HTTP ${res.status}`, e?.field);
  }
  const enc = encodeURIComponent;
  const writer = (runId: number, routes: { level: string; finish: string }): RunWriter => {
    const post = (what: string, body: unknown = {}) => call<void>('POST', `/api/ingest/runs/${runId}/${what}`, body);
    return {
      runId,
      setModel: (model) => post('model', { model }),
      addWarning: (warning) => post('warnings', { warning }),
      saveLevel: (level, records) => post(routes.level, { level, records }),
      heartbeat: () => post('heartbeat'),
      finish: (result) => post(routes.finish, { result }),
      discard: (reason) => post('discard', { reason }),
      abandon: (reason) => post('abandon', { reason }),
    };
  };
  return {
    description: `the store of ${holder} at ${base}`,
    remoteUrl: page ? base : null,
    listServers: () => call<ServerView[]>('GET', '/api/servers'),
    liveWorkers: () => call<WorkerView[]>('GET', '/api/workers'),
    addServer: (input: ServerInput) => call<ServerView>('POST', '/api/servers', input),
    checkServer: (ref) => call<ServerView>('POST', `/api/servers/${enc(String(ref))}/check`),
    checkAllServers: () => call<ServerView[]>('POST', '/api/servers/check'),
    removeServer: (ref) => call<ServerView>('DELETE', `/api/servers/${enc(String(ref))}`),
    listRuns: () => call<RunSummary[]>('GET', '/api/runs'),
    getRun: (id) => call<RunDetail>('GET', `/api/runs/${id}`),
    exportRun: (id) => call<ResultOf>('GET', `/api/runs/${id}/result`),
    runRecords: (id, concurrency) => call<StoredRecord[]>('GET', `/api/runs/${id}/records${concurrency === undefined ? '' : `?concurrency=${concurrency}`}`),
    async beginRun(input: BeginRun) {
      const kind = kindOfEndpoint(input.spec.endpoint);
      const routes = ingestRoutesOf(kind);
      if (routes === null)
        throw new ApiError('bad-request', `${holder} ${refusalOf(kind, 'serve-save', { endpoint: String(input.spec.endpoint) })}`, 'endpoint');
      const { id } = await call<{ id: number }>('POST', '/api/ingest/runs', input);
      return writer(id, routes);
    },
    close: async () => {},
  };
}
