/**
 * store/: stored runs and the server registry. One schema and one set of SQL
 * over a narrow driver port, with two back ends: PGlite (embedded, the default)
 * and PostgreSQL. This file is the folder's only door.
 */
export { type SqlDriver, type SqlExecutor, type SqlParam, MAX_ROW_ID, rowIdInRange } from './sql-driver.js';
export { openPgliteDriver } from './pglite-driver.js';
export { openPgDriver, pgClientExecutor, redactDatabaseUrl } from './pg-driver.js';
export { MIGRATIONS, migrate, type Migration } from './migrations.js';
export { StoreError, type StoreErrorCode } from './store-error.js';
export type * from './types.js';
export { isPoolingSpec } from './types.js';
export { serverInputSchema, type ServerInput } from './server-input.js';
export { HEARTBEAT_INTERVAL_MS, STALE_AFTER_MS, ownerGoneReason, pidAlive } from './liveness.js';
export { exportResult } from './export-result.js';
export {
  type StoreFlags,
  type StoreLocation,
  type ResolvedLocation,
  describeLocation,
  goodputHome,
  resolveStoreLocation,
  storeConfigured,
} from './location.js';
export { type LockHolder, currentHolder, lockPathOf } from './embedded-lock.js';
export { type Store, holderText, openStore, storeOnDriver } from './store.js';
export type { ServersRepo } from './servers-repo.js';
export type { RunsRepo } from './runs-repo.js';
export type { LevelsRepo, StoredRecord } from './levels-repo.js';
export { type SignedWorkerRow, type WorkerRegistration, type WorkerView, WORKER_LOST_AFTER_MS, WorkersRepo, liveWorkers } from './workers-repo.js';
export { type RecordReadBounds, type RecordRow, type ShareRow, type ShareRowInput, WorkerSharesRepo } from './worker-shares-repo.js';
export { advisoryLock, advisoryUnlock, databaseAnswers, databaseNowMs, listenOn, notifyChannel } from './pg-signals.js';
