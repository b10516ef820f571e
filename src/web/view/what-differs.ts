/**
 * "What differs" between compared runs, computed once for the terminal, the
 * report and the page: the model file the server loaded, the declared
 * precision and quantization, the engine and its version, the server's
 * settings, every other contract field that is not the same, and the
 * run facts (workload, levels, location, hardware, cost). A run is then named
 * by what sets it apart ("run 2 · stories260K-Q8_0.gguf · q8_0").
 */
import { type RunInfo, type ServerAccount, leafDifferences } from '../../core/index.js';

/** What a compared run brings to its differences. */
export interface DiffSource {
  label: string;
  run: RunInfo;
  /** The resolved contract (goodput run); absent or null for a sweep's result. */
  contract?: Record<string, unknown> | null | undefined;
  contractHash?: string | null | undefined;
  /** What the server said about itself when the run started. */
  serverAccount?: ServerAccount | undefined;
}

export interface ContractDiff {
  field: string;
  values: string[];
  /** A workload field: the figures would not measure the same thing, so no differences are computed. */
  workload: boolean;
  /** Names the run in headers when it differs ("model file", "quantization", …). */
  identity: boolean;
}

type Getter = (r: DiffSource) => unknown;
const contractAt = (r: DiffSource, section: string, key: string): unknown => {
  const s = r.contract?.[section];
  return s !== null && typeof s === 'object' ? (s as Record<string, unknown>)[key] : undefined;
};
const declared =
  (section: string, key: string): Getter =>
  (r) =>
    r.contract ? (contractAt(r, section, key) ?? 'not declared') : 'not declared (no contract)';
const account =
  (get: (a: ServerAccount) => unknown): Getter =>
  (r) =>
    r.serverAccount ? (get(r.serverAccount) ?? 'not reported') : 'not recorded';

/** The named fields, in the order they are listed: identity first, then the workload, then where and on what it ran. */
const FIELDS: ReadonlyArray<{ field: string; get: Getter; workload?: true; identity?: true; covers?: RegExp }> = [
  { field: 'model file', get: account((a) => a.props?.modelFile), identity: true },
  { field: 'model', get: (r) => r.run.model, workload: true, identity: true, covers: /^model\.name$/ },
  { field: 'precision', get: declared('model', 'precision'), identity: true, covers: /^model\.precision$/ },
  { field: 'quantization', get: declared('model', 'quantization'), identity: true, covers: /^model\.quantization$/ },
  { field: 'model revision', get: declared('model', 'revision'), covers: /^model\.revision$/ },
  {
    field: 'engine',
    get: (r) => (r.run.engine ? `${r.run.engine.name}${r.run.engine.version ? ` ${r.run.engine.version}` : ''}` : 'not recorded'),
    identity: true,
  },
  { field: 'server version', get: account((a) => a.version) },
  { field: 'server build', get: account((a) => a.props?.build) },
  { field: 'server context (tokens)', get: account((a) => a.props?.contextTokens) },
  { field: 'server header', get: account((a) => a.server) },
  {
    field: 'sampling sent',
    get: (r) =>
      Object.entries(r.run.engine?.sampling ?? {})
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none',
  },
  { field: 'endpoint', get: (r) => r.run.endpoint, workload: true, covers: /^server\.endpoint$/ },
  { field: 'output tokens', get: (r) => r.run.outputTokens, workload: true, covers: /^workload\.outputTokens/ },
  { field: 'prompt tokens', get: (r) => r.run.promptTokens, workload: true, covers: /^workload\.prompts\.tokens/ },
  { field: 'length forced', get: (r) => (r.run.forceLength ? 'yes' : 'no'), workload: true, covers: /^decoding\.ignoreEos$/ },
  { field: 'thinking', get: (r) => r.run.thinking, workload: true, covers: /^thinking$/ },
  { field: 'temperature', get: (r) => r.run.temperature, workload: true, covers: /^decoding\.temperature$/ },
  { field: 'arrival', get: (r) => r.run.arrival?.kind ?? 'concurrency', workload: true, covers: /^load\.pattern\.kind$/ },
  { field: 'requests per level', get: (r) => r.run.requestsPerLevel, workload: true, covers: /^workload\.requestsPerLevel$/ },
  { field: 'warm-up per level', get: (r) => r.run.warmupPerLevel, workload: true, covers: /^workload\.warmup$/ },
  { field: 'levels', get: (r) => [...new Set(r.run.levelsRequested)].sort((a, b) => a - b).join(', '), covers: /^load\.levels/ },
  { field: 'server', get: (r) => r.run.url, covers: /^server\.(url|apiKeyEnv)$/ },
  { field: 'GPU label', get: (r) => r.run.gpuLabel ?? 'none', covers: /^hardware\.label$/ },
  { field: 'hourly cost (USD)', get: (r) => r.run.hourlyCostUsd ?? 'none', covers: /^hardware\.gpuHourlyUsd$/ },
];

const show = (v: unknown): string => (v === undefined ? '(absent)' : typeof v === 'string' ? v : JSON.stringify(v));

/** Every field whose value is not the same in all runs, with each run's value: the named fields, then the contract's other paths. */
export function contractDiffs(runs: readonly DiffSource[]): ContractDiff[] {
  const named = FIELDS.flatMap(({ field, get, workload, identity }) => {
    const values = runs.map((r) => String(get(r)));
    return new Set(values).size > 1 ? [{ field, values, workload: workload === true, identity: identity === true }] : [];
  });
  // The contract's other fields, when every run carries one: a run without a contract would differ in all of them.
  const contracts = runs.map((r) => r.contract);
  const rest = contracts.every((c) => c !== null && c !== undefined)
    ? leafDifferences(contracts)
        .filter((d) => !FIELDS.some((f) => f.covers?.test(d.path)))
        .map((d) => ({ field: `contract ${d.path}`, values: d.values.map(show), workload: false, identity: false }))
    : [];
  return [...named, ...rest];
}

/** One sentence on the contracts themselves: the same (by sha256), different, or not recorded for some runs. */
export function contractNote(runs: readonly DiffSource[]): string {
  const hashes = runs.map((r) => r.contractHash ?? null);
  const without = runs.filter((_, i) => hashes[i] === null).map((r) => r.label);
  if (without.length === runs.length) return "No run recorded a contract (results of goodput sweep): the fields below are compared from the runs' own facts.";
  if (without.length > 0) return `${without.join(', ')} recorded no contract (not written by goodput run): the contract's fields are compared where recorded.`;
  if (new Set(hashes).size === 1) return `Same contract (sha256 ${hashes[0]}); only where and when it ran may differ.`;
  return `The contracts differ (sha256 ${runs.map((r, i) => `${(hashes[i] as string).slice(0, 12)}… ${r.label}`).join(', ')}): read these differences before any number.`;
}

const shortValue = (field: string, v: string): string => (field === 'quantization' && v === 'none' ? 'no quantization' : v);

/**
 * Each run's name in headers: its label and, when they differ between runs,
 * what sets it apart (model file, quantization, precision, model, engine; at most three).
 */
export function runTitles(runs: readonly DiffSource[], diffs: readonly ContractDiff[]): string[] {
  const apart = diffs.filter((d) => d.identity).slice(0, 3);
  return runs.map((r, i) => [r.label, ...apart.map((d) => shortValue(d.field, d.values[i] ?? ''))].join(' · '));
}
