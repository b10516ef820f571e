/**
 * Text generation's column of the capability matrix (core/capabilities.ts):
 * every surface serves it, each shown by the test file named.
 */
import type { Capabilities } from './capabilities.js';

export const TEXT_CAPABILITIES: Capabilities = {
  sweep: { works: 'cli/cli.test.ts' },
  contract: { works: 'cli/contract-commands.test.ts' },
  rerun: { works: 'cli/contract-commands.test.ts' },
  capacity: { works: 'cli/contract-commands.test.ts' },
  repeats: { works: 'cli/render-repeats.test.ts' },
  sign: { works: 'publish/run-set-e2e.test.ts' },
  'contract-save': { works: 'cli/contract-commands.test.ts' },
  'client-threads': { works: 'cli/late-failures.test.ts' },
  workers: { works: 'workers/workers.test.ts' },
  save: { works: 'cli/save-run.test.ts' },
  'serve-save': { works: 'api/ingest-bounds.test.ts' },
  'api-start': { works: 'api/api-runs.test.ts' },
  page: { works: 'web/run-page-axis.test.ts' },
  compare: { works: 'cli/compare-results.test.ts' },
  report: { works: 'cli/compare-sets.test.ts' },
  'stored-runs': { works: 'cli/compare-sets.test.ts' },
  'export-jsonl': { works: 'cli/contract-commands.test.ts' },
  'export-csv': { works: 'cli/contract-commands.test.ts' },
  'export-parquet-free-json': { works: 'cli/contract-commands.test.ts' },
  'export-markdown': { works: 'cli/export-vllm.test.ts' },
  'export-vllm': { works: 'cli/export-vllm.test.ts' },
  receipt: { works: 'cli/receipt-publish.test.ts' },
  verify: { works: 'cli/verify-command.test.ts' },
  reproduce: { works: 'cli/reproduce.timing.test.ts' },
  replay: { works: 'cli/replay-command.test.ts' },
  sessions: { works: 'cli/sessions-command.test.ts' },
  agents: { works: 'cli/agents-replay.test.ts' },
  dataset: { works: 'cli/replay-datasets.test.ts' },
  'server-hooks': { works: 'cli/server-hooks.test.ts' },
  pools: { works: 'runner/disagg.test.ts' },
  lora: { works: 'cli/lora-adapters.test.ts' },
  cancel: { works: 'cli/cancel-requests.test.ts' },
};
