/**
 * The API in-process for tests: an in-memory PGlite store, the app, and a
 * fast simulator to register. Requests go through `app.request()`.
 */
import type { Hono } from 'hono';
import { RunHub, RunManager, createApp } from '../api/index.js';
import { type Catalog, localCatalog } from '../runs/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { type Store, openPgliteDriver, storeOnDriver } from '../store/index.js';
import { patient } from './patience.js';

/** Parsed JSON of a test response (tests read fields freely). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface ApiHarness {
  app: Hono;
  store: Store;
  catalog: Catalog;
  manager: RunManager;
  sim: SimServer;
  /** JSON request helper: method, path, body → status and parsed JSON. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: Json }>;
  close(): Promise<void>;
}

export async function apiHarness(
  o: { token?: string; writeToken?: string; host?: string; decodeStepMs?: number; loraAdapters?: Array<{ name: string }> } = {},
): Promise<ApiHarness> {
  const store = await storeOnDriver(await openPgliteDriver(), 'PGlite in memory');
  const sim = await startSimulator({
    port: 0,
    prefillBaseMs: 2,
    prefillMsPerToken: 0,
    decodeStepMs: o.decodeStepMs ?? 0.5,
    decodeMsPerExtraSeq: 0,
    ...(o.loraAdapters === undefined ? {} : { loraAdapters: o.loraAdapters }),
  });
  const hub = new RunHub();
  const catalog = localCatalog(store, { hub, probeTimeoutMs: 1500 });
  const manager = new RunManager(store, catalog, hub);
  const app = createApp({
    catalog,
    manager,
    hub,
    token: o.token ?? null,
    writeToken: o.writeToken ?? o.token ?? null,
    host: o.host ?? '127.0.0.1',
    webDir: '/nonexistent',
  });
  return {
    app,
    store,
    catalog,
    manager,
    sim,
    async call(method, path, body, headers = {}) {
      const res = await app.request(path, {
        method,
        headers: { host: '127.0.0.1:7878', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
      return { status: res.status, json };
    },
    async close() {
      await manager.stopAll();
      await sim.close();
      await store.close();
    },
  };
}

/** Reads an SSE response until its `end` event (bounded by `timeoutMs`), returning the events' data. */
export async function readEvents(res: Response, timeoutMs = 30_000, onEvent: (e: Json) => void = () => {}): Promise<Json[]> {
  const events: Json[] = [];
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const deadline = Date.now() + patient(timeoutMs);
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block.split('\n').find((l) => l.startsWith('data: '));
      if (data) {
        events.push(JSON.parse(data.slice(6)));
        onEvent(events.at(-1));
      }
    }
    if (events.at(-1)?.kind === 'end') break;
  }
  await reader.cancel().catch(() => {});
  return events;
}
