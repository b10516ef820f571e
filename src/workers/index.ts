/** workers/: goodput worker processes on other machines, coordinated through PostgreSQL. */
export { runWorker, WorkerError, WORKER_NAME, type WorkerOptions } from './worker.js';
export { startCoordinator, type Coordinator } from './coordinator.js';
export { MAX_CLOCK_UNCERTAINTY_MS, measureClockOffset, type ClockOffset } from './clock-offset.js';
export { openWorkerDb, type WorkerDb } from './worker-db.js';
export { WORKER_SECRET_ENV, SecretError, SweepKey, newWorkerSecret, parseWorkerSecret, registryKey } from './share-auth.js';
