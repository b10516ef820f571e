/**
 * The Catalog over a store in this process. Probes go out from here; run
 * writes also go to the live hub (when given) so the page can follow runs
 * that other processes send in through the API.
 */
import { type RunKindName, kindOfEndpoint } from '../core/index.js';
import { type BeginRun, type RunDetail, type ServerView, type Store, type StoredRecord, StoreError, exportResult, liveWorkers } from '../store/index.js';
import type { Catalog, RunWriter } from './catalog.js';
import { probeServer } from './probe.js';
import { levelEventOf } from './stored-kinds.js';
import { targetKey } from './target-key.js';
import type { LiveSink } from './live-events.js';

export interface LocalCatalogOptions {
  /** The serve's live hub: what is stored is also told to the page following the run. */
  hub?: LiveSink;
  /** Probe timeout per step, ms. Default 3000. */
  probeTimeoutMs?: number;
}

export function localCatalog(store: Store, opts: LocalCatalogOptions = {}): Catalog {
  const hub = opts.hub;
  const probe = async (s: ServerView) => probeServer({ baseUrl: s.baseUrl, apiKey: await store.servers.secret(s.id), model: s.model }, opts.probeTimeoutMs);
  const check = async (ref: string | number) => {
    const s = await store.servers.get(ref);
    return store.servers.setStatus(s.id, await probe(s));
  };
  const writer = (runId: number, kind: RunKindName): RunWriter => ({
    runId,
    setModel: (model) => store.runs.setModel(runId, model),
    async addWarning(w) {
      await store.runs.addWarning(runId, w);
      hub?.publish(runId, { kind: 'warning', warning: w });
    },
    async saveLevel(level, records) {
      await store.levels.save(runId, level, records);
      hub?.publish(runId, levelEventOf(kind, level));
    },
    heartbeat: () => store.runs.heartbeat(runId),
    async finish(result) {
      await store.runs.finish(runId, result);
      hub?.publish(runId, { kind: 'end', status: result.run.status, reason: result.run.stopReason });
    },
    async discard(reason) {
      await store.runs.discard(runId);
      hub?.publish(runId, { kind: 'end', status: 'refused', reason });
    },
    async abandon(reason) {
      await store.runs.abandon(runId, reason);
      hub?.publish(runId, { kind: 'end', status: 'interrupted', reason });
    },
  });
  return {
    description: store.description,
    remoteUrl: null,
    listServers: () => store.servers.list(),
    liveWorkers: () => liveWorkers(store.driver),
    async addServer(input) {
      const status = await probeServer({ baseUrl: input.baseUrl, apiKey: input.apiKey ?? null, model: input.model ?? null }, opts.probeTimeoutMs);
      return store.servers.add(input, status);
    },
    checkServer: check,
    async checkAllServers() {
      const all = await store.servers.list();
      return Promise.all(all.map((s) => check(s.id)));
    },
    async removeServer(ref) {
      const s = await store.servers.get(ref);
      const busy = (await store.runs.list()).find((r) => r.serverId === s.id && r.status === 'running');
      if (busy) throw new StoreError('run-in-progress', `run ${busy.id} against server "${s.name}" is in progress; stop it before removing the server`);
      await store.servers.remove(s.id);
      return s;
    },
    listRuns: () => store.runs.list(),
    getRun: (id): Promise<RunDetail> => store.runs.get(id),
    async exportRun(id) {
      return exportResult(await store.runs.get(id));
    },
    async runRecords(id, concurrency): Promise<StoredRecord[]> {
      await store.runs.get(id);
      return store.levels.records(id, concurrency);
    },
    async beginRun(input: BeginRun) {
      // An unknown serverId would otherwise surface as a raw foreign-key violation (a 500).
      if (input.serverId !== null)
        await store.servers.get(input.serverId).catch((err: unknown) => {
          if (err instanceof StoreError && err.code === 'not-found')
            throw new StoreError('not-found', `serverId: no server with id ${input.serverId} is registered`, 'serverId');
          throw err;
        });
      // A sweep given only a URL is filed under the registered server at that URL, if there is one.
      const server = input.serverId === null ? (await store.servers.list()).find((s) => targetKey(s.baseUrl) === input.targetUrl) : undefined;
      const id = await store.runs.begin(server ? { ...input, serverId: server.id, serverName: server.name } : input);
      hub?.open(id);
      return writer(id, kindOfEndpoint(input.spec.endpoint));
    },
    close: () => store.close(),
  };
}
