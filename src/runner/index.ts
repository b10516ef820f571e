/** runner/: sweep orchestration, one driver per run kind behind runSweep. */
export { runSweep, kindOfSpec, specSchemaOf, type ClientsOf, type WorkerKindName, type DepsOf, type SpecInputOf, type SpecOf } from './run-kinds.js';
export type { SweepDeps } from './sweep.js';
export type { SweepEvent, SweepHooks } from './sweep-events.js';
export { sweepClient, targetUrls } from './sweep-client.js';
export { ANTHROPIC_VERSION, sameTargetProblem, sweepSpecSchema, levelOrder, requestsFor, targetOf, type SweepSpec, type SweepSpecInput } from './sweep-spec.js';
export { cancelOf, type CancelSpec } from './cancel-point.js';
export { checkSpecAdapters } from './lora-check.js';
export { SweepError, type SweepErrorCode } from './errors.js';
export { TOOL_VERSION } from './version.js';
export { levelResult, levelFromRecords } from './level-result.js';
export { findCapacity, type CapacityOptions } from './capacity.js';
export {
  capacityReportSchema,
  capacityProbeSchema,
  poolingCapacityReportSchema,
  type CapacityProbe,
  type CapacityReport,
  type PoolingCapacityProbe,
  type PoolingCapacityReport,
} from './capacity-report.js';
export { runShare, type ShareRun } from './run-share.js';
export { shareSeqs } from './share-parts.js';
export { type ClientThreads, type LevelOnThreads, type ThreadedLevel } from './client-threads.js';
export { recordBatches } from './record-batches.js';
export { endpointsOffered, routeOf } from './pooling-setup.js';
export { CLIENT_LOST } from './level-loop.js';
export { runPoolingShare, type PoolingSend, type PoolingSharePlan } from './pooling-share.js';
export type { PoolingShareResult, PoolingThreads } from './client-threads.js';
export { poolingSpecSchema, type PoolingSpec, type PoolingSpecInput } from './pooling-spec.js';
export { NO_RUN_STATE, runStateSchema, type RunState } from './run-state.js';
export { agentReplayOfText, agentReplaySpec, agentTraceSummary, traceReplaySpec } from './replay-spec.js';
export { imageFiles, imageFilesDigest } from './image-pool.js';
export { coldStart, type ColdStartOptions, type ColdStartRun } from './cold-start.js';
