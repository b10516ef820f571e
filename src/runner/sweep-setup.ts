/**
 * A text sweep's steps before its first level: preflight, the warnings the
 * spec alone earns, the engine and what it refuses, the prompts counted in the
 * server's tokens; and the image server it opens for its lifetime. runSweep
 * (sweep.ts) calls them in order and turns what they find into its events.
 */
import { randomBytes } from 'node:crypto';
import { SHORT_OUTPUT_TOKENS, type TokenizerInfo, type Warning } from '../core/index.js';
import { type Dialect, type StreamingClient, type Target, preflight } from '../client/index.js';
import type { PromptSource } from '../workload/index.js';
import type { ClientThreads } from './client-threads.js';
import { checkContext } from './context-check.js';
import { EngineChecks } from './engine-checks.js';
import { type EngineSetup, resolveEngine } from './engine-setup.js';
import { SweepError } from './errors.js';
import { checkAdapters } from './lora-check.js';
import { type ImageServer, startImageServer } from './image-server.js';
import type { RunTelemetry } from './level-telemetry.js';
import type { RatePacer } from './rate-pacer.js';
import type { LevelHooks } from './level-loop.js';
import { levelHooksFor } from './server-hooks.js';
import { endpointsOffered } from './pooling-setup.js';
import { exactPrompts, hasBuiltLengths, runCounter } from './prompt-lengths.js';
import type { RunState } from './run-state.js';
import { type SweepSpec, levelOrder, requestsFor } from './sweep-spec.js';

/** What prepareSweep reports as it finds it (the sweep turns each into its event). */
export interface SetupListener {
  preflight(model: string, models: string[]): void;
  engine(engine: EngineSetup): void;
  warn(w: Warning): void;
}

/** What the sweep settled before opening anything: the model, the engine, the run's id, the level order and the exact prompts. */
export interface PreparedSweep {
  model: string;
  engine: EngineSetup;
  runId: string;
  order: number[];
  /** Prompts of exactly their lengths in the server's tokens, with how they were counted; null when the prompts are given as text. */
  lengths: { prompts: PromptSource; info: TokenizerInfo } | null;
  checks: EngineChecks;
  /** The server hooks around each level (a cache reset, the profiler); null when none was asked for. */
  hooks: LevelHooks | null;
}

/** What the sweep opens for its lifetime (closeSweep closes it, a stop included). */
export interface OpenSweep {
  /** The spec as sent: the exact prompts in place of the asked ones. */
  sendSpec: SweepSpec;
  /** What the sweep set for itself (its image server's address). */
  state: RunState;
  telemetry: RunTelemetry;
  imageServer: ImageServer | null;
  client: StreamingClient;
  threads: ClientThreads | null;
  /** Paces every level's sends to the provider's rate limit (--rate-limit); null: not paced. */
  pacer: RatePacer | null;
}

/** The warnings the spec alone earns, before anything is sent. */
function specWarnings(spec: SweepSpec): Warning[] {
  const out: Warning[] = [];
  if (spec.outputTokens < SHORT_OUTPUT_TOKENS) {
    out.push({
      code: 'short-output',
      message: `output length ${spec.outputTokens} is below ${SHORT_OUTPUT_TOKENS} tokens: per-request overhead dominates and real differences can vanish into it`,
    });
  }
  const underfilled = spec.arrival.kind === 'concurrency' ? spec.levels.filter((c) => requestsFor(spec, c) < c) : [];
  if (underfilled.length > 0) {
    out.push({
      code: 'underfilled-level',
      message: `concurrency ${underfilled.join(', ')}: ${spec.requestsPerLevel} requests per level never put that many requests in flight at once; use more requests per level (or 'auto')`,
    });
  }
  if (spec.thinking)
    out.push({ code: 'thinking-on', message: 'thinking is on: reasoning tokens are counted, and results are not comparable with thinking-off runs' });
  return out;
}

/** What the engine cannot do with this spec: refused, or (a length it cannot force on the Responses API) warned about. */
function checkDialect(spec: SweepSpec, dialect: Dialect, warn: (w: Warning) => void): void {
  if (dialect.generatesText === false) {
    throw new SweepError('bad-input', `endpoint ${spec.endpoint}: ${dialect.label} generates no text; it offers ${endpointsOffered(dialect)}`);
  }
  // Ollama's native chat takes images but no audio: a clip would be dropped, not measured.
  if (spec.audio !== null && dialect.kind === 'ollama-native')
    throw new SweepError('bad-input', `audio: ${dialect.label}'s native API takes no audio; use --engine ollama (its /v1 API)`);
  if (spec.images?.delivery === 'url' && dialect.kind === 'ollama-native')
    throw new SweepError(
      'bad-input',
      `images.delivery: ${dialect.label}'s native API takes images as base64 only, no URLs; send them as data or use --engine ollama (its /v1 API)`,
    );
  if (spec.endpoint === 'responses' && dialect.api.paths.responses === null) {
    throw new SweepError('bad-input', `endpoint responses: ${dialect.label} has no Responses API (/v1/responses); use --endpoint chat`);
  }
  if (spec.endpoint === 'messages' && dialect.api.paths.messages === null) {
    throw new SweepError(
      'bad-input',
      `endpoint messages: ${dialect.label} has no Messages API (/v1/messages); use --endpoint chat, or --engine generic for a server that speaks it`,
    );
  }
  if (spec.endpoint === 'messages' && spec.forceLength) {
    warn({
      code: 'cannot-force-length',
      message: "Anthropic's Messages API has no ignore_eos or min_tokens: actual lengths are checked and requests that end short are flagged",
    });
  }
  // An engine that turns Responses into chat requests takes the chat's length keys.
  if (spec.endpoint === 'responses' && spec.forceLength && dialect.responsesMode !== 'via-chat') {
    warn({
      code: 'cannot-force-length',
      message: 'the Responses API has no ignore_eos or min_tokens: actual lengths are checked and requests that end short are flagged',
    });
  }
}

/**
 * Preflight, the engine and the exact prompts: everything settled before the
 * sweep opens anything. What it finds goes to `out` as it is found.
 * @throws SweepError when the server cannot be benchmarked or the engine refuses the spec.
 */
export async function prepareSweep(spec: SweepSpec, target: Target, out: SetupListener): Promise<PreparedSweep> {
  const pre = await preflight(target, spec.model);
  if (!pre.ok) throw new SweepError('preflight-refused', `${spec.url} cannot be benchmarked: ${pre.message}`);
  out.preflight(pre.model, pre.models);
  checkAdapters(spec.url, spec.lora, pre);
  for (const w of specWarnings(spec)) out.warn(w);
  // An Azure deployment is OpenAI's API: detection's GETs find nothing there.
  const engine = await resolveEngine(target, spec.azure !== null && spec.engine === 'auto' ? 'openai' : spec.engine, {
    model: pre.model,
    endpoint: spec.endpoint,
    thinking: spec.thinking,
    forceLength: spec.forceLength,
  });
  const { dialect } = engine;
  await checkFleet(spec, target, pre.model, dialect);
  checkDialect(spec, dialect, out.warn);
  // An engine without the routes a hook needs is refused here, before a request is sent.
  const hooks = await levelHooksFor(spec, target, dialect);
  // Synthetic and traced prompts are counted with the run's tokenizer; the server's own counter also says what its chat template adds, before anything is sent.
  const counter = hasBuiltLengths(spec.prompts) ? await runCounter(spec, pre.model) : null;
  const templated = spec.endpoint !== 'completions';
  const template = counter !== null && templated && engine.context !== null ? ((await counter.chatTemplateTokens?.()) ?? null) : null;
  checkContext(spec, engine.context, template);
  out.engine(engine);
  for (const w of engine.warnings) out.warn(w);
  const checks = new EngineChecks(dialect, spec.cache === 'cold', spec.prompts.kind === 'synthetic' ? spec.promptTokens : null);
  const order = levelOrder(spec.levels);
  const runId = randomBytes(4).toString('hex');
  // Prompts of exactly their lengths in the server's tokens, built before anything is measured.
  const lengths = counter !== null ? await exactPrompts(spec, order, runId, counter) : null;
  if (lengths && !lengths.info.exact) out.warn({ code: 'prompt-length-approximate', message: `prompt lengths are ${lengths.info.label}` });
  return { model: pre.model, engine, runId, order, lengths, checks, hooks };
}

/**
 * A fleet's other targets, each asked as the first was: it answers, serves the
 * model (and every --lora adapter), and speaks the same engine's dialect (the requests are built once for all).
 * @throws SweepError naming the target that cannot be benchmarked.
 */
async function checkFleet(spec: SweepSpec, target: Target, model: string, dialect: Dialect): Promise<void> {
  if (spec.fleet === null) return;
  for (const url of spec.fleet.urls.slice(1)) {
    const one = { ...target, baseUrl: url };
    const pre = await preflight(one, model);
    if (!pre.ok) throw new SweepError('preflight-refused', `${url} cannot be benchmarked: ${pre.message}`);
    // Each target serves its share of every adapter: one that lacks one would turn that share into 404s.
    checkAdapters(url, spec.lora, pre);
    if (spec.engine !== 'auto') continue;
    const other = await resolveEngine(one, 'auto', { model, endpoint: spec.endpoint, thinking: spec.thinking, forceLength: spec.forceLength });
    if (other.dialect.kind !== dialect.kind)
      throw new SweepError(
        'preflight-refused',
        `${url} cannot be benchmarked with ${spec.fleet.urls[0]}: it is ${other.dialect.label}, the first target is ${dialect.label}; a fleet's targets run one engine (or name it with --engine)`,
      );
  }
}

/** Images by URL: our own image server, for the sweep's lifetime; null when images go inline. Telemetry is closed when it cannot listen. */
export async function imageServerFor(spec: SweepSpec, telemetry: RunTelemetry): Promise<ImageServer | null> {
  if (spec.images?.delivery !== 'url') return null;
  return startImageServer(spec.imageBaseUrl).catch(async (err: unknown) => {
    await telemetry.close();
    throw new SweepError(
      'bad-input',
      `the image server could not listen on ${spec.imageBaseUrl ?? '127.0.0.1'}: ${err instanceof Error ? err.message : String(err)}`,
    );
  });
}

/** Closes what openSweep opened. */
export async function closeSweep(o: OpenSweep): Promise<void> {
  await o.threads?.close();
  await o.client.close();
  await o.telemetry.close();
  await o.imageServer?.close();
}
