/**
 * The one interface the CLI commands, the HTTP routes and the page's run
 * manager use for servers and stored runs. Two implementations: local (the
 * store in this process, local-catalog.ts) and remote (a `goodput serve` that
 * holds the embedded store, remote-catalog.ts), so a command behaves the same
 * whichever process owns the database.
 */
import type { LevelOf, RecordOf, ResultOf, Warning } from '../core/index.js';
import type { BeginRun, RunDetail, RunSummary, ServerInput, ServerView, StoredRecord, WorkerView } from '../store/index.js';

/** Writes one run, of any kind, as it happens. Calls are made in order; each resolves when stored. */
export interface RunWriter {
  readonly runId: number;
  setModel(model: string): Promise<void>;
  addWarning(w: Warning): Promise<void>;
  /** Commits a finished level of the run's kind and all its raw records at once. */
  saveLevel(level: LevelOf, records: readonly RecordOf[]): Promise<void>;
  heartbeat(): Promise<void>;
  /** Stores how the run ended (complete, stopped or server-failed) with its result. */
  finish(result: ResultOf): Promise<void>;
  /** Removes a run that never started measuring (refused at preflight), saying why. */
  discard(reason: string): Promise<void>;
  /** Ends a run that broke without a result: it is kept, as `interrupted`, with the reason. */
  abandon(reason: string): Promise<void>;
}

export interface Catalog {
  /** Where the data lives, in words (no password). */
  readonly description: string;
  /** The page's base URL when this catalog goes through a running goodput serve; null when local. */
  readonly remoteUrl: string | null;
  listServers(): Promise<ServerView[]>;
  /** Probes the server, then registers it with that status (a stopped server can be registered). */
  addServer(input: ServerInput): Promise<ServerView>;
  /** Probes one server (by id or name) and stores its status. */
  checkServer(ref: string | number): Promise<ServerView>;
  /** Probes every server at once and stores their status. */
  checkAllServers(): Promise<ServerView[]>;
  /** @throws 'run-in-progress' while a run against it is in progress. */
  removeServer(ref: string | number): Promise<ServerView>;
  listRuns(): Promise<RunSummary[]>;
  /** `goodput worker` processes seen in the last few seconds (empty on the embedded store: workers meet in PostgreSQL). */
  liveWorkers(): Promise<WorkerView[]>;
  getRun(id: number): Promise<RunDetail>;
  /** The result JSON of a finished run (the schema of `sweep --json`; an embeddings or rerank run's own). */
  exportRun(id: number): Promise<ResultOf>;
  runRecords(id: number, concurrency?: number): Promise<StoredRecord[]>;
  /** @throws 'run-in-progress' when another run targets the same server. */
  beginRun(input: BeginRun): Promise<RunWriter>;
  close(): Promise<void>;
}
