/**
 * Everything a contract run needs before the first request: the tokenizer,
 * the corpus (its hash checked against the contract's, when recorded), the
 * matrix cells in order and every prompt of every cell. A prompt length that
 * cannot be hit or a corpus that changed stops here, before anything is sent.
 * The resolved contract freezes what was found: hashes and the tokenizer used.
 */
import { basename } from 'node:path';
import { createHash } from 'node:crypto';
import { type CellKey, type ImageInputs, type TokenizerInfo, type ToolsSpec, canonicalJson, imageInputsLabel } from '../core/index.js';
import { type SweepSpecInput, levelOrder, requestsFor, sweepSpecSchema } from '../runner/index.js';
import {
  type CellSpec,
  type Corpus,
  type TokenCounter,
  buildCellPrompts,
  cellPrime,
  expandMatrix,
  loadCorpus,
  loadTools,
  readTrace,
  replayParts,
  resolveTokenizer,
  agentReplayParts,
  agentTraceFormat,
  readAgentTrace,
} from '../workload/index.js';
import type { Contract } from './contract-schema.js';
import { ContractError } from './errors.js';
import { type RunPolicy, declaredPolicy } from './provider-policy.js';

export interface PreparedCell {
  cell: CellSpec;
  key: CellKey;
  spec: SweepSpecInput;
}

export interface PreparedRun {
  /** The contract with hashes filled in and `auto` resolved to the tokenizer actually used. */
  resolved: Contract;
  tokenizer: TokenizerInfo;
  cells: PreparedCell[];
}

export interface PrepareOptions {
  url: string;
  apiKey?: string;
  /** Unique per run: salts cold prompts so no run shares a prefix with another. */
  runId: string;
  command: string;
  /** The contract's tools once read (set by prepareCells). */
  tools?: ToolsSpec | null;
  /** The pacing and retries to run under; absent: the contract's `provider` section (its defaults when it has none). */
  policy?: RunPolicy;
}

function checkHash(field: string, declared: string | undefined, actual: string, path: string): void {
  if (declared !== undefined && declared !== actual) {
    throw new ContractError(
      'mismatch',
      `${field}: ${path} has sha256 ${actual}, but the contract records ${declared}: the content changed, so this would be a different experiment`,
    );
  }
}

export async function tokenizerOf(c: Contract, opts: PrepareOptions): Promise<{ counter: TokenCounter; resolved: Contract['model']['tokenizer'] }> {
  const counter = await resolveTokenizer(c.model.tokenizer, { url: opts.url, model: c.model.name, apiKey: opts.apiKey });
  const t = c.model.tokenizer;
  if (t.kind === 'file') checkHash('model.tokenizer.sha256', t.sha256, counter.info.sha256 ?? '', t.path);
  const resolved = t.kind === 'file' ? { ...t, sha256: counter.info.sha256 ?? undefined } : ({ kind: counter.info.kind } as Contract['model']['tokenizer']);
  return { counter, resolved };
}

/** The contract's tools, read and checked (every schema compiled); a file's hash checked against the contract's. */
async function toolsOf(c: Contract): Promise<{ tools: ToolsSpec | null; resolved: Contract }> {
  const t = c.workload.tools;
  if (t === undefined) return { tools: null, resolved: c };
  const tools = await loadTools(t.kind === 'builtin' ? String(t.count) : t.path, t.choice);
  if (t.kind === 'builtin') return { tools, resolved: c };
  const sha256 = createHash('sha256').update(canonicalJson(tools.tools)).digest('hex');
  checkHash('workload.tools.sha256', t.sha256, sha256, t.path);
  return { tools, resolved: { ...c, workload: { ...c.workload, tools: { ...t, sha256 } } } };
}

/** The text endpoint a contract's cells run; embeddings and rerank contracts run as pooling sweeps (run-pooling-contract.ts). */
function textEndpoint(c: Contract): 'chat' | 'completions' {
  const e = c.server.endpoint;
  if (e === 'embeddings' || e === 'rerank') throw new ContractError('bad-contract', `server.endpoint: ${e} is not a text-generation contract`);
  return e;
}

/** Fields every cell's sweep spec shares, with the cell's images (null: none). */
function baseSpec(c: Contract, opts: PrepareOptions, images: ImageInputs | null): Omit<SweepSpecInput, 'arrival' | 'outputTokens' | 'promptTokens' | 'cache'> {
  return {
    tools: opts.tools ?? null,
    images,
    audio: c.workload.audio ?? null,
    lora: c.workload.lora ?? null,
    imageBaseUrl: images?.delivery === 'url' ? (c.server.imageBaseUrl ?? null) : null,
    url: opts.url,
    // The first target is the run's url (server.url, or --url in its place).
    fleet: c.server.fleet === undefined ? null : { urls: [opts.url, ...c.server.fleet.targets], route: c.server.fleet.route },
    disagg: c.server.pools ?? null,
    apiKey: opts.apiKey,
    model: c.model.name,
    endpoint: textEndpoint(c),
    levels: c.load.levels,
    requestsPerLevel: c.workload.requestsPerLevel,
    warmup: c.workload.warmup,
    thinking: c.thinking === 'on',
    forceLength: c.decoding.ignoreEos,
    temperature: c.decoding.temperature,
    topP: c.decoding.topP,
    seed: c.decoding.seed,
    slo: { ...c.slo, qualityFloor: c.slo.qualityFloor ?? c.quality.floor },
    hourlyCostUsd: c.hardware.gpuHourlyUsd ?? null,
    baselineRateUsdPer1M: c.hardware.baselineRateUsdPer1M ?? null,
    gpuLabel: c.hardware.label,
    ...(opts.policy ?? declaredPolicy(c.provider)),
    command: opts.command,
  };
}

/** A trace contract: one cell, the trace read (its sha256 checked against the contract's, then pinned) and replayed. */
async function prepareTrace(
  c: Contract,
  pattern: Extract<Contract['load']['pattern'], { kind: 'trace' }>,
  counter: TokenCounter,
  tokenizer: Contract['model']['tokenizer'],
  opts: PrepareOptions,
): Promise<PreparedRun> {
  if ((await agentTraceFormat(pattern.path)) !== null) return prepareAgentTrace(c, pattern, counter, tokenizer, opts);
  const trace = await readTrace(pattern.path, { window: pattern.window ?? null, strict: pattern.strict });
  checkHash('load.pattern.sha256', pattern.sha256, trace.sha256, pattern.path);
  const resolved: Contract = { ...c, model: { ...c.model, tokenizer }, load: { ...c.load, pattern: { ...pattern, sha256: trace.sha256 } } };
  const parts = replayParts(trace, { blockTokens: pattern.blockTokens, maxConcurrency: pattern.maxConcurrency });
  const cache = c.workload.cache[0] ?? { kind: 'cold' as const };
  const spec: SweepSpecInput = {
    ...baseSpec(c, opts, c.workload.images?.[0] ?? null),
    ...parts,
    requestsPerLevel: 'auto',
    warmup: 0,
    outputTokens: trace.requests.reduce((m, r) => Math.max(m, r.outputTokens), 1),
    promptTokens: Math.max(1, Math.round(trace.requests.reduce((a, r) => a + r.promptTokens, 0) / trace.requests.length)),
    // Requests share the trace's blocks on purpose: no per-request cache salt (the run's salt word keeps runs apart).
    cache: 'warm',
  };
  const key: CellKey = { prompt: `trace ${basename(pattern.path)}`, promptTokens: null, outputTokens: null, cache: cache.kind, sharedPrefixTokens: 0 };
  return { resolved, tokenizer: counter.info, cells: [{ cell: { index: 0, promptTokens: null, outputTokens: null, cache, images: null }, key, spec }] };
}

/** An agent-trace contract: one cell, the graph read and checked whole (its sha256 pinned), replayed at the contract's speeds. */
async function prepareAgentTrace(
  c: Contract,
  pattern: Extract<Contract['load']['pattern'], { kind: 'trace' }>,
  counter: TokenCounter,
  tokenizer: Contract['model']['tokenizer'],
  opts: PrepareOptions,
): Promise<PreparedRun> {
  const decided = [pattern.window ? 'window' : '', pattern.strict ? 'strict' : '', pattern.maxConcurrency !== null ? 'maxConcurrency' : ''].filter(Boolean);
  if (decided.length > 0)
    throw new ContractError('bad-contract', `load.pattern.${decided[0]}: ${pattern.path} is an agent trace, replayed whole along its own graph`);
  const trace = await readAgentTrace(pattern.path);
  checkHash('load.pattern.sha256', pattern.sha256, trace.sha256, pattern.path);
  const resolved: Contract = { ...c, model: { ...c.model, tokenizer }, load: { ...c.load, pattern: { ...pattern, sha256: trace.sha256 } } };
  const turns = trace.source.sessions.flatMap((s) => s.turns);
  const spec: SweepSpecInput = {
    ...baseSpec(c, opts, c.workload.images?.[0] ?? null),
    ...agentReplayParts(trace),
    requestsPerLevel: 'auto',
    warmup: 0,
    outputTokens: turns.reduce((m, t) => Math.max(m, t.o), 1),
    promptTokens: Math.max(1, Math.round(turns.reduce((a, t) => a + t.p, 0) / turns.length)),
    // Turns resend their sessions' history and share the trace's blocks on purpose: no per-request cache salt.
    cache: 'warm',
  };
  const cache = c.workload.cache[0] ?? { kind: 'cold' as const };
  const key: CellKey = { prompt: `agent trace ${basename(pattern.path)}`, promptTokens: null, outputTokens: null, cache: cache.kind, sharedPrefixTokens: 0 };
  return { resolved, tokenizer: counter.info, cells: [{ cell: { index: 0, promptTokens: null, outputTokens: null, cache, images: null }, key, spec }] };
}

/** Resolves the contract and builds every cell's sweep spec with its prompts. */
export async function prepareCells(given: Contract, givenOpts: PrepareOptions): Promise<PreparedRun> {
  const { tools, resolved: c } = await toolsOf(given);
  const opts = { ...givenOpts, tools };
  const { counter, resolved: tokenizer } = await tokenizerOf(c, opts);
  if (c.load.pattern.kind === 'trace') return prepareTrace(c, c.load.pattern, counter, tokenizer, opts);
  const p = c.workload.prompts;
  if (p.kind === 'trace') throw new ContractError('bad-contract', 'workload.prompts: kind trace needs load.pattern kind trace');
  let corpus: Corpus | null = null;
  if (p.kind !== 'synthetic') {
    corpus = await loadCorpus(p.kind, p.path, counter);
    checkHash('workload.prompts.sha256', p.sha256, corpus.sha256, p.path);
  }
  const prompts = p.kind === 'synthetic' ? p : { ...p, sha256: corpus?.sha256 };
  const resolved: Contract = { ...c, model: { ...c.model, tokenizer }, workload: { ...c.workload, prompts } };
  if (c.workload.outputTokens === undefined)
    throw new ContractError('bad-contract', `workload.outputTokens: required for server.endpoint ${c.server.endpoint}`);
  const cells = expandMatrix({
    prompts: p.kind === 'synthetic' ? { kind: 'synthetic', tokens: p.tokens } : { kind: 'corpus' },
    outputTokens: c.workload.outputTokens === 'trace' ? 'corpus' : c.workload.outputTokens,
    cache: c.workload.cache,
    images: c.workload.images ?? [null],
  });
  const out: PreparedCell[] = [];
  for (const cell of cells) out.push(await prepareCell(c, cell, counter, corpus, opts));
  return { resolved, tokenizer: counter.info, cells: out };
}

async function prepareCell(c: Contract, cell: CellSpec, counter: TokenCounter, corpus: Corpus | null, opts: PrepareOptions): Promise<PreparedCell> {
  const pattern = c.load.pattern;
  if (pattern.kind === 'trace') throw new ContractError('bad-contract', 'load.pattern: a trace is prepared by prepareTrace');
  const base: SweepSpecInput = {
    ...baseSpec(c, opts, cell.images),
    arrival: pattern,
    // Each cell draws images and clips of its own (the same on every run of the contract): no engine cache serves one cell from another.
    ...(cell.index === 0 ? {} : { mediaSeed: c.decoding.seed + cell.index }),
    outputTokens: cell.outputTokens ?? (corpus?.items ?? []).reduce((m, i) => Math.max(m, i.outputTokens ?? 1), 1),
    promptTokens: cell.promptTokens ?? 1,
    // A primed cell's prompts share their prefix as a warm cell's do: no cache control is sent.
    cache: cell.cache.kind === 'cold' ? 'cold' : 'warm',
  };
  const parsed = sweepSpecSchema.parse(base);
  const count = levelOrder(parsed.levels).reduce((n, level) => n + parsed.warmup + requestsFor(parsed, level), 0);
  const p = c.workload.prompts;
  if (p.kind === 'trace') throw new ContractError('bad-contract', 'workload.prompts: kind trace needs load.pattern kind trace');
  const seed = p.kind === 'synthetic' ? c.decoding.seed + cell.index : p.seed;
  const items = await buildCellPrompts(counter, {
    source: cell.promptTokens !== null ? { kind: 'synthetic', tokens: cell.promptTokens } : { kind: 'corpus', items: corpus?.items ?? [] },
    cache: cell.cache,
    count,
    seed,
    salt: `${opts.runId}x${cell.index}`,
    outputFromCorpus: cell.outputTokens === null,
  });
  let promptTokens = cell.promptTokens;
  if (promptTokens === null) {
    let sum = 0;
    for (const item of items) sum += await counter.count(item.text);
    promptTokens = Math.max(1, Math.round(sum / items.length));
  }
  const key: CellKey = {
    prompt: cell.promptTokens !== null ? `synthetic ${cell.promptTokens} tokens` : `${p.kind} ${p.kind === 'synthetic' ? '' : basename(p.path)}`,
    promptTokens: cell.promptTokens,
    outputTokens: cell.outputTokens,
    cache: cell.cache.kind,
    sharedPrefixTokens: cell.cache.kind === 'cold' ? 0 : cell.cache.sharedPrefixTokens,
    ...(cell.images === null ? {} : { images: imageInputsLabel(cell.images) }),
  };
  const prime = await cellPrime(counter, cell.cache, seed);
  const serverHooks = prime === null ? {} : { serverHooks: { prime } };
  return { cell, key, spec: { ...base, promptTokens, prompts: { kind: 'list', items }, ...serverHooks } };
}
