/**
 * runs/: the stored-runs service the CLI and the API both sit on. The Catalog
 * (servers and runs, in this process or through another one's API), the
 * writer that stores a run as it happens, the recorder that feeds it a
 * sweep's events, and the HTTP plumbing the catalog's two wire ends (the read
 * door it opens, the remote catalog it calls) share with the API. A command
 * saves a run through here without loading the page's API. This file is the
 * folder's only door.
 */
export { ApiError, HTTP_STATUS, toApiError, type ApiErrorBody, type ApiErrorCode } from './api-error.js';
export { hostGuard, isLoopback, originGuard, tokenGuard } from './auth.js';
export { idParam, jsonBody } from './body.js';
export type { Catalog, RunWriter } from './catalog.js';
export { localCatalog } from './local-catalog.js';
export { remoteCatalog } from './remote-catalog.js';
export { openCatalog, type OpenCatalogOptions } from './open-catalog.js';
export { measuringGate, type MeasuringGate } from './read-door.js';
export { probeServer, notRunnableReason } from './probe.js';
export { recordSweep, type SweepRecorder } from './run-recorder.js';
export { beginRunOf } from './run-spec.js';
export { levelEventOf } from './stored-kinds.js';
export { targetKey } from './target-key.js';
export type { LevelProgress, LiveEvent, LiveSink, LiveState } from './live-events.js';
