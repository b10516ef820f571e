/**
 * The capability matrix's rows and cells: every surface a run kind can meet
 * (commands, flags, the store, the API, the page, each export format,
 * receipts), and what a kind declares for each: it works (with the test file
 * that shows it), or it is refused with the reason the user reads. Each kind
 * declares its column beside its schemas (RUN_KINDS' `capabilities`); the
 * surfaces that refuse a kind take their words from it (`refusalOf`), so the
 * matrix in docs/capabilities.md (generated from it) and the behaviour cannot
 * drift apart.
 */

/** Every surface, in the order the matrix lists them, with what a user types or opens. */
export const SURFACES = {
  sweep: 'goodput sweep',
  contract: 'goodput run (a contract)',
  rerun: 'goodput rerun',
  capacity: 'goodput capacity',
  repeats: "a contract's repeats",
  sign: 'goodput run --sign or --key (a signed result; with --repeats, a signed set)',
  'contract-save': 'goodput run --save (a contract run stored)',
  'client-threads': '--client-threads',
  workers: '--workers',
  save: 'save and read back (--save, runs show, runs export)',
  'serve-save': 'save through a goodput serve (its ingest)',
  'api-start': "the API's Start (the page's run form)",
  page: "the page's run view",
  compare: 'goodput compare',
  report: 'goodput report',
  'stored-runs': 'a stored run by its id (goodput compare, report, receipt create)',
  'export-jsonl': 'goodput export --format jsonl',
  'export-csv': 'goodput export --format csv',
  'export-parquet-free-json': 'goodput export --format parquet-free-json',
  'export-markdown': 'goodput export --format markdown',
  'export-vllm': 'goodput export --format vllm',
  receipt: 'goodput receipt create',
  verify: 'goodput verify (a receipt of the kind)',
  reproduce: 'goodput reproduce (a receipt of the kind, rerun on your servers)',
  replay: 'goodput replay (a trace)',
  sessions: 'goodput sessions',
  agents: 'goodput replay of an agent trace (goodput trace synth)',
  dataset: 'goodput sweep --dataset (Parquet, JSONL, CSV or ShareGPT prompts)',
  'server-hooks': 'the server hooks (--reset-cache-between, --profile-level)',
  pools: "a disaggregated server's pools (--metrics-url ROLE=URL, --pool-gpus, --kv-link-gbps)",
  lora: "several LoRA adapters, chosen by weight (goodput sweep --lora; the API's and the page's Start: lora)",
  cancel: "requests given up on purpose (--cancel-after-ms, --cancel-after-tokens; the API's and the page's Start too)",
} as const;

export type SurfaceName = keyof typeof SURFACES;

/**
 * One cell: `works` names the test file (under src/) that drives the surface
 * with the kind; `refused` is the reason the surface gives, where `{endpoint}`,
 * `{an endpoint}` ("an embeddings", "a rerank") and `{format}` stand for what
 * the user gave.
 */
export type Capability = { readonly works: string } | { readonly refused: string };

/** A kind's column: a cell for every surface (the compiler refuses one that misses a surface). */
export type Capabilities = { readonly [S in SurfaceName]: Capability };

/** The words a surface fills a refusal's placeholders with. */
export interface RefusalWords {
  endpoint?: string;
  format?: string;
}

/** A refusal's reason with its placeholders filled. */
export function fillRefusal(reason: string, words: RefusalWords = {}): string {
  const e = words.endpoint ?? '';
  return reason
    .replaceAll('{an endpoint}', `${/^[aeiou]/.test(e) ? 'an' : 'a'} ${e}`)
    .replaceAll('{endpoint}', e)
    .replaceAll('{format}', words.format ?? '');
}
