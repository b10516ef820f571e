/**
 * api/: the HTTP API of the Benchmarks page (Hono), the run manager behind
 * its Start/Stop, live progress over SSE, and the Catalog that CLI commands
 * use whichever process holds the store. This file is the folder's only door.
 */
export { ApiError, HTTP_STATUS, toApiError, type ApiErrorBody, type ApiErrorCode } from './api-error.js';
export type { Catalog, RunWriter } from './catalog.js';
export { localCatalog } from './local-catalog.js';
export { remoteCatalog } from './remote-catalog.js';
export { openCatalog, type OpenCatalogOptions } from './open-catalog.js';
export { measuringGate, type MeasuringGate } from './read-door.js';
export { probeServer, notRunnableReason } from './probe.js';
export { recordPoolingSweep, recordSweep, type PoolingRecorder, type SweepRecorder } from './run-recorder.js';
export { beginPoolingRunOf, beginRunOf, runSpecOf } from './run-spec.js';
export { targetKey } from './target-key.js';
export { createApp, type AppDeps } from './app.js';
export { RunHub } from './run-hub.js';
export { RunManager } from './run-manager.js';
export { startServe, ServeError, type ServeOptions, type Serving } from './serve.js';
export { isLoopback } from './auth.js';
export { defaultWebDir } from './static-files.js';
export { startRunSchema, startRunSchemaOf, type StartPoolingRunBody, type StartRunBody, type StartTextRunBody } from './start-run-schema.js';
export type { LevelProgress, LiveEvent, LiveState } from './live-events.js';
