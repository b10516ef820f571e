/**
 * The pooling kind's (embeddings, rerank) column of the capability matrix
 * (core/capabilities.ts). Its result is a level table, not per-request text
 * records: the readers of text results and the per-request export formats
 * refuse it, in the words below.
 */
import type { Capabilities } from './capabilities.js';

/** What a reader of text-generation results says of a pooling result. */
const TEXT_RESULTS_ONLY = '{an endpoint} result: this command reads text-generation results only (docs/endpoints.md)';
/** What a per-request export format says. */
const LEVELS_ONLY = "{an endpoint} result exports as csv or markdown (one row per level); '{format}' is for text-generation records";
/** What the commands that replay text conversations say of another endpoint (their --endpoint choice). */
const TEXT_ENDPOINT = "--endpoint: '{endpoint}' is not one of chat, completions, responses";

export const POOLING_CAPABILITIES: Capabilities = {
  sweep: { works: 'cli/pooling-command.test.ts' },
  contract: { works: 'cli/pooling-contract.test.ts' },
  rerun: { works: 'cli/pooling-contract.test.ts' },
  capacity: { works: 'cli/pooling-contract.test.ts' },
  repeats: { works: 'cli/pooling-contract.test.ts' },
  sign: { works: 'publish/pooling-run-set-e2e.test.ts' },
  'contract-save': { works: 'cli/pooling-contract.test.ts' },
  'client-threads': { works: 'cli/pooling-command.test.ts' },
  workers: { works: 'workers/workers-pooling.test.ts' },
  save: { works: 'cli/pooling-store.test.ts' },
  'serve-save': { works: 'api/api-pooling.test.ts' },
  'api-start': { works: 'api/api-pooling.test.ts' },
  page: { works: 'web/pooling-page.test.ts' },
  compare: { refused: TEXT_RESULTS_ONLY },
  report: { refused: TEXT_RESULTS_ONLY },
  'stored-runs': { refused: '{an endpoint} run; this reads text-generation runs' },
  'export-jsonl': { refused: LEVELS_ONLY },
  'export-csv': { works: 'cli/pooling-command.test.ts' },
  'export-parquet-free-json': { refused: LEVELS_ONLY },
  'export-markdown': { works: 'cli/pooling-command.test.ts' },
  'export-vllm': { refused: LEVELS_ONLY },
  receipt: { works: 'cli/pooling-receipt.test.ts' },
  verify: { works: 'cli/pooling-receipt.test.ts' },
  reproduce: { works: 'cli/reproduce-pooling.test.ts' },
  replay: { refused: TEXT_ENDPOINT },
  sessions: { refused: TEXT_ENDPOINT },
  agents: { refused: TEXT_ENDPOINT },
  dataset: { refused: '--dataset: does not apply to --endpoint {endpoint}' },
  'server-hooks': { refused: '--reset-cache-between: does not apply to --endpoint {endpoint}' },
  pools: { refused: '--metrics-url: does not apply to --endpoint {endpoint}' },
  lora: { refused: '--lora: does not apply to --endpoint {endpoint}' },
  cancel: { refused: '--cancel-after-ms: does not apply to --endpoint {endpoint}' },
};
