/** workers/: goodput worker processes on other machines, coordinated through PostgreSQL. */
export { runWorker, WorkerError, WORKER_NAME, type WorkerOptions } from './worker.js';
export { startCoordinator, liveWorkers, type Coordinator, type LiveWorker } from './coordinator.js';
export { MAX_CLOCK_UNCERTAINTY_MS, measureClockOffset, type ClockOffset } from './clock-offset.js';
export { openWorkerDb, LOST_AFTER_MS, type WorkerDb } from './worker-db.js';
