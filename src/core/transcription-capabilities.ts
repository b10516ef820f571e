/**
 * Speech to text's column of the capability matrix (core/capabilities.ts):
 * a sweep, saved and read back; every surface that reads text-generation or
 * pooling results, contracts, the API's Start and the page refuse it, in the
 * words below.
 */
import type { Capabilities } from './capabilities.js';

/** What every reader of result files says of a transcriptions result. */
const NOT_READ = 'a {endpoint} (speech to text) result, which this command does not read (docs/endpoints.md)';
/** What a contract says of its endpoint (the contract's schema lists the endpoints it takes). */
const NOT_A_CONTRACT = 'endpoint must be chat, completions, embeddings or rerank';
/** What the commands that replay text conversations say of another endpoint (their --endpoint choice). */
const TEXT_ENDPOINT = "--endpoint: '{endpoint}' is not one of chat, completions, responses";

export const TRANSCRIPTION_CAPABILITIES: Capabilities = {
  sweep: { works: 'cli/transcription-command.test.ts' },
  contract: { refused: NOT_A_CONTRACT },
  rerun: { refused: NOT_READ },
  capacity: { refused: NOT_A_CONTRACT },
  repeats: { refused: NOT_A_CONTRACT },
  sign: { refused: NOT_A_CONTRACT },
  'contract-save': { refused: NOT_A_CONTRACT },
  'client-threads': { refused: '{endpoint} (speech to text) is sent from one event loop: it has no client threads' },
  workers: { refused: '{endpoint} (speech to text) is sent from this process only: worker processes send text levels' },
  save: { works: 'cli/transcription-command.test.ts' },
  'serve-save': {
    refused:
      'stores text and pooling runs only: a {endpoint} (speech to text) run is saved to the database directly (--database-url, or --data while no goodput serve holds it)',
  },
  'api-start': {
    refused: 'endpoint: {endpoint} (speech to text) runs are not started from the page or the API: run goodput sweep --endpoint {endpoint} --save',
  },
  page: { refused: 'the page does not draw {endpoint} (speech to text) runs: read them with goodput runs show or goodput runs export' },
  compare: { refused: NOT_READ },
  report: { refused: NOT_READ },
  'stored-runs': { refused: 'a {endpoint} run; this reads text-generation runs' },
  'export-jsonl': { refused: NOT_READ },
  'export-csv': { refused: NOT_READ },
  'export-parquet-free-json': { refused: NOT_READ },
  'export-markdown': { refused: NOT_READ },
  'export-vllm': { refused: NOT_READ },
  receipt: { refused: NOT_READ },
  verify: { refused: 'no receipt is made of a {endpoint} (speech to text) run (goodput receipt create refuses it), so there is none to verify' },
  reproduce: { refused: 'no receipt is made of a {endpoint} (speech to text) run (goodput receipt create refuses it), so there is none to reproduce' },
  replay: { refused: TEXT_ENDPOINT },
  sessions: { refused: TEXT_ENDPOINT },
  agents: { refused: TEXT_ENDPOINT },
  dataset: { refused: '--dataset: does not apply to --endpoint transcriptions (speech to text)' },
  'server-hooks': { refused: '--reset-cache-between: does not apply to --endpoint transcriptions (speech to text)' },
  pools: { refused: '--metrics-url: does not apply to --endpoint transcriptions (speech to text)' },
  lora: { refused: '--lora: does not apply to --endpoint transcriptions (speech to text)' },
  cancel: { refused: '--cancel-after-ms: does not apply to --endpoint transcriptions (speech to text)' },
};
