/**
 * The page's client of the goodput API: typed calls (an error carries the
 * API's code, message and field) and the live event stream of a run.
 */
import type { LiveEvent, StartRunBody } from '../../api/index.js';
import type { RequestRecord, SweepResult } from '../../core/index.js';
import type { RunDetail, RunSummary, ServerInput, ServerView, WorkerView } from '../../store/index.js';

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiFailure(0, 'offline', 'goodput serve did not answer. Is it still running?');
  }
  const text = await res.text();
  if (res.ok) return (text === '' ? undefined : JSON.parse(text)) as T;
  let e: { code?: string; message?: string; field?: string } = {};
  try {
    e = (JSON.parse(text) as { error: typeof e }).error ?? {};
  } catch {
    /* not an API error body */
  }
  throw new ApiFailure(res.status, e.code ?? 'error', e.message ?? `HTTP ${res.status}`, e.field);
}

/** Start's body as the page sends it: the server, the endpoint (left out for chat) and the form's fields by their body names (the API's schema checks them). */
export type StartInput = { serverId: number; endpoint?: StartRunBody['endpoint'] } & Record<string, unknown>;

export const api = {
  servers: () => call<ServerView[]>('GET', '/api/servers'),
  checkServers: () => call<ServerView[]>('POST', '/api/servers/check'),
  checkServer: (id: number) => call<ServerView>('POST', `/api/servers/${id}/check`),
  addServer: (input: Partial<ServerInput>) => call<ServerView>('POST', '/api/servers', input),
  runs: () => call<RunSummary[]>('GET', '/api/runs'),
  workers: () => call<WorkerView[]>('GET', '/api/workers'),
  run: (id: number) => call<RunDetail>('GET', `/api/runs/${id}`),
  result: (id: number) => call<SweepResult>('GET', `/api/runs/${id}/result`),
  records: (id: number) => call<RequestRecord[]>('GET', `/api/runs/${id}/records`),
  start: (body: StartInput) => call<{ runId: number }>('POST', '/api/runs', body),
  stop: (id: number) => call<{ stopping: boolean }>('POST', `/api/runs/${id}/stop`),
};

const KINDS: ReadonlyArray<LiveEvent['kind']> = ['snapshot', 'level-start', 'progress', 'level-end', 'pooling-level-end', 'warning', 'end'];

/** Follows a run's live events until its end. @returns a function that stops listening. */
export function followRun(runId: number, onEvent: (e: LiveEvent) => void): () => void {
  const source = new EventSource(`/api/runs/${runId}/events`);
  for (const kind of KINDS) {
    source.addEventListener(kind, (m) => {
      const e = JSON.parse((m as MessageEvent<string>).data) as LiveEvent;
      if (e.kind === 'end') source.close();
      onEvent(e);
    });
  }
  return () => source.close();
}
