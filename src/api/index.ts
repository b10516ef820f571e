/**
 * api/: the HTTP API of the Benchmarks page (Hono), the run manager behind
 * its Start/Stop and live progress over SSE. The stored runs it serves (the
 * Catalog, the writer, the recorders) are runs/'s. This file is the folder's
 * only door.
 */
export { createApp, type AppDeps } from './app.js';
export { RunHub } from './run-hub.js';
export { RunManager } from './run-manager.js';
export { startServe, ServeError, type ServeOptions, type Serving } from './serve.js';
export { defaultWebDir } from './static-files.js';
export { startRunSchema, startRunSchemaOf, type StartPoolingRunBody, type StartRunBody, type StartTextRunBody } from './start-run-schema.js';
/** What the page's live view receives: declared with the writers that publish it. */
export type { LevelProgress, LiveEvent, LiveState } from '../runs/index.js';
