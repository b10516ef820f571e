/** contract/: the benchmark contract (goodput.yaml) — schema, loading, hashing, diffs, running it and searching its capacity. */
export { contractSchema, type Contract, type ContractInput, WITHHELD_URL } from './contract-schema.js';
export { loadContract, validateContract } from './load-contract.js';
export { contractHash, hashedPart } from './contract-hash.js';
export { verifiedContract, type VerifiedContract } from './verified-contract.js';
export { diffContracts, describeDifferences, type ContractDifference } from './contract-diff.js';
export { ContractError, type ContractErrorCode, describeIssues } from './errors.js';
export { checkServer } from './server-facts.js';
export { collectServerAccount } from './server-account.js';
export { prepareCells, type PreparedCell, type PreparedRun } from './prepare-cells.js';
export { assembleResult, costOf } from './assemble-result.js';
export { recordsSha256, type StoredRecord } from './records-hash.js';
export { runContract, type RunContractOptions } from './run-contract.js';
export { providerPolicySchema, type ProviderPolicy, type RunPolicy, declaredPolicy, recordedPolicy } from './provider-policy.js';
export { contractCapacity, contractCapacitySchema, type ContractCapacity, type CapacityRunOptions } from './contract-capacity.js';
export { combineRepeats, repeatsProblem, runsOf, MIN_REPEATS } from './repeat-runs.js';
export { runPoolingContract, combinePoolingRuns, poolingSpecOf, poolingRecordsSha256, type PoolingRunOptions } from './run-pooling-contract.js';
export {
  poolingContractCapacity,
  poolingContractCapacitySchema,
  type PoolingContractCapacity,
  type PoolingCapacityRunOptions,
} from './run-pooling-contract.js';
// The pooling endpoints are core's fact; named here too for the callers that decide a contract's path by it.
export { isPoolingEndpoint } from '../core/index.js';
