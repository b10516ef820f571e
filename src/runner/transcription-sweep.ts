/**
 * sweepTranscription: a speech-to-text sweep, the transcriptions kind's driver
 * (run-kinds.ts), reached through runSweep. Its spec, its preflight (the model,
 * and one short clip proving the route is served), and each concurrency level
 * ascending: warm-ups, then the measured requests in closed loops, every one
 * a seeded synthetic WAV clip of the spec's length (workload's synthetic
 * audio, the clips chat's audio inputs send), summarised from its records.
 */
import { z } from 'zod';
import {
  LIMITS,
  SCHEMA_VERSION,
  TRANSCRIPTION_ENDPOINTS,
  TRANSCRIPTION_PATH,
  type TranscriptionLevel,
  type TranscriptionRecord,
  type TranscriptionResult,
  type Warning,
  levelsSchema,
  limitedCount,
  limitedInt,
  limitMessage,
  numericDefault,
  transcriptionLevel,
  urlCredentialProblem,
} from '../core/index.js';
import {
  type Clock,
  type Target,
  type TranscriptionClient,
  type TranscriptionClip,
  createTranscriptionClient,
  monotonicNs,
  preflight,
} from '../client/index.js';
import { syntheticWav } from '../workload/index.js';
import { SweepError } from './errors.js';
import type { SweepEvent, SweepHooks } from './sweep-events.js';
import './transcription-events.js';
import { levelOrder } from './sweep-spec.js';
import { TOOL_VERSION } from './version.js';

export const transcriptionSpecSchema = z
  .object({
    url: z
      .url({ protocol: /^https?$/, error: 'url must be an http(s) URL, e.g. http://127.0.0.1:8000' })
      .refine((u) => urlCredentialProblem(u) === null, { error: (i) => `url ${urlCredentialProblem(String(i.input))}` }),
    apiKey: z.string().min(1).optional(),
    model: z.string().min(1).optional(),
    endpoint: z.enum(TRANSCRIPTION_ENDPOINTS),
    levels: levelsSchema
      .refine((l) => l.every((c) => Number.isInteger(c)), 'each level must be a whole number of requests in flight')
      .refine((l) => l.every((c) => c <= LIMITS.concurrency.max), { error: (i) => limitMessage('concurrency', Math.max(...(i.input as number[])), 'level') }),
    /** Seconds of every clip (8 kHz mono WAV drawn from the seed). */
    audioSeconds: z
      .number({ error: 'audioSeconds must be a number of seconds' })
      .positive('audioSeconds must be above 0')
      .max(LIMITS.audioSeconds.max, { error: (i) => limitMessage('audioSeconds', Number(i.input), 'audioSeconds') }),
    /** Requests per level; 'auto' = max(8, 4 × concurrency). */
    requestsPerLevel: z.union([limitedInt('requestsPerLevel', 'requests per level'), z.literal('auto')]).default('auto'),
    warmup: limitedCount('warmupRequests', 'warm-up').default(numericDefault('warmup')),
    seed: z.number().int().default(numericDefault('seed')),
    /** Whole-request limit, ms. */
    timeoutMs: z.number().positive().default(600_000),
    command: z.string().default(''),
  })
  .strict();

export type TranscriptionSpec = z.infer<typeof transcriptionSpecSchema>;
export type TranscriptionSpecInput = z.input<typeof transcriptionSpecSchema>;

/** What a transcription sweep takes besides its spec: the hooks every kind offers, and a clock (tests). */
export interface TranscriptionDeps extends SweepHooks<'transcriptions'> {
  clock?: Clock;
}

/** Distinct clips a run cycles through: enough that no two requests in flight carry one clip below 8 streams. */
const CLIPS = 8;

/** Measured requests of a level: the fixed count, or max(8, 4 × concurrency). */
const requestsAt = (spec: TranscriptionSpec, c: number) => (spec.requestsPerLevel === 'auto' ? Math.max(8, 4 * c) : spec.requestsPerLevel);

function parseSpec(input: TranscriptionSpecInput): TranscriptionSpec {
  const parsed = transcriptionSpecSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new SweepError('bad-input', `${issue?.path.join('.') || 'spec'}: ${issue?.message ?? 'invalid'}`);
}

/** The served model, and one short clip sent (as a warm-up) proving the route answers. */
async function preflightRoute(target: Target, spec: TranscriptionSpec, client: TranscriptionClient): Promise<string> {
  const pre = await preflight(target, spec.model);
  if (!pre.ok) throw new SweepError('preflight-refused', `${spec.url} cannot be benchmarked: ${pre.message}`);
  const probe = await client.send(pre.model, { wav: syntheticWav(1, spec.seed, CLIPS), seconds: 1 }, { seq: 0, concurrency: 1, warmup: true });
  if (probe.outcome.kind !== 'ok') {
    const o = probe.outcome;
    const why = o.kind === 'http-error' ? `HTTP ${o.status}: ${o.message}` : o.kind === 'aborted' ? 'aborted' : o.message;
    throw new SweepError('preflight-refused', `${spec.url} does not transcribe on ${TRANSCRIPTION_PATH}: a 1-second clip got ${why}`);
  }
  return pre.model;
}

/** A speech-to-text sweep: the transcriptions kind's driver (run-kinds.ts); callers go through runSweep. */
export async function sweepTranscription(input: TranscriptionSpecInput, deps: TranscriptionDeps = {}): Promise<TranscriptionResult> {
  const spec = parseSpec(input);
  const emit = deps.onEvent ?? (() => {});
  const signal = deps.signal ?? new AbortController().signal;
  const target = { baseUrl: spec.url, apiKey: spec.apiKey };
  const order = levelOrder(spec.levels);
  const clock = deps.clock ?? monotonicNs;
  const client = createTranscriptionClient(target, { connections: order[order.length - 1] as number, clock, timeoutMs: spec.timeoutMs });
  const startedAt = new Date().toISOString();
  const warnings: Warning[] = [];
  const run = { spec, client, signal, emit, deps, warnings, order, model: '', clips: [] as TranscriptionClip[] };
  let end: LevelsEnd;
  try {
    run.model = await preflightRoute(target, spec, client);
    emit({ kind: 'preflight', model: run.model, path: TRANSCRIPTION_PATH });
    run.clips = Array.from({ length: CLIPS }, (_, i) => ({ wav: syntheticWav(spec.audioSeconds, spec.seed, i), seconds: spec.audioSeconds }));
    end = await transcriptionLevels(run);
  } finally {
    await client.close();
  }
  return transcriptionResult(spec, { model: run.model, startedAt, warnings, ...end });
}

interface Run {
  spec: TranscriptionSpec;
  client: TranscriptionClient;
  signal: AbortSignal;
  emit(e: SweepEvent<'transcriptions'>): void;
  deps: TranscriptionDeps;
  warnings: Warning[];
  order: number[];
  model: string;
  clips: TranscriptionClip[];
}

interface LevelsEnd {
  levels: TranscriptionLevel[];
  status: TranscriptionResult['run']['status'];
  stopReason: string | null;
}

/** The levels in order, each stored (afterLevel) before the next starts, until the last, a stop or a server that stopped answering. */
async function transcriptionLevels(run: Run): Promise<LevelsEnd> {
  const levels: TranscriptionLevel[] = [];
  let base = 0;
  for (const [index, c] of run.order.entries()) {
    if (run.signal.aborted) break;
    await run.deps.beforeLevel?.();
    const requests = requestsAt(run.spec, c);
    run.emit({ kind: 'level-start', concurrency: c, index, total: run.order.length, requests });
    const records = await sendLevel(run, c, requests, base);
    base += run.spec.warmup + requests;
    if (run.signal.aborted) break;
    const measured = records.filter((r) => !r.warmup);
    if (measured.length > 0 && measured.every((r) => r.outcome.kind === 'connection-error')) {
      const last = measured[measured.length - 1]?.outcome;
      const why = last?.kind === 'connection-error' ? last.message : '';
      return {
        levels,
        status: 'server-failed',
        stopReason: `the server stopped answering during the concurrency-${c} level: ${why}. ${levels.length} level(s) complete`,
      };
    }
    const level = transcriptionLevel(c, records);
    levels.push(level);
    run.emit({ kind: 'level-end', level, records });
    await run.deps.afterLevel?.(level, records);
    if (level.failed > 0) {
      const warning = {
        code: 'failed-requests',
        message: `concurrency ${c}: ${level.failed} of ${level.requests} requests failed (${level.failures.map((f) => `${f.count}× ${f.reason}`).join('; ')})`,
      };
      run.warnings.push(warning);
      run.emit({ kind: 'warning', warning });
    }
  }
  if (run.signal.aborted) return { levels, status: 'stopped', stopReason: `stopped by the user; ${levels.length} level(s) complete` };
  return { levels, status: 'complete', stopReason: null };
}

/** One level: its warm-ups, then its measured requests, each over `c` closed loops; records warm-ups first, in send order. */
async function sendLevel(run: Run, c: number, requests: number, base: number): Promise<TranscriptionRecord[]> {
  let done = 0;
  let failed = 0;
  const loops = async (from: number, n: number, warmup: boolean): Promise<TranscriptionRecord[]> => {
    const out: TranscriptionRecord[] = [];
    let next = 0;
    const loop = async () => {
      while (next < n && !run.signal.aborted) {
        const seq = from + next++;
        const r = await run.client.send(run.model, run.clips[seq % CLIPS] as TranscriptionClip, { seq, concurrency: c, warmup }, run.signal);
        out.push(r);
        if (!warmup) {
          done++;
          if (r.outcome.kind !== 'ok') failed++;
        }
        run.emit({ kind: 'request', concurrency: c, done, failed, requests, warmup });
      }
    };
    await Promise.all(Array.from({ length: Math.min(c, n) }, loop));
    return out.sort((a, b) => a.seq - b.seq);
  };
  const warm = await loops(base, run.spec.warmup, true);
  return [...warm, ...(await loops(base + run.spec.warmup, requests, false))];
}

function transcriptionResult(spec: TranscriptionSpec, r: LevelsEnd & { model: string; startedAt: string; warnings: Warning[] }): TranscriptionResult {
  return {
    schemaVersion: SCHEMA_VERSION,
    run: {
      url: spec.url,
      model: r.model,
      endpoint: spec.endpoint,
      path: TRANSCRIPTION_PATH,
      audioSeconds: spec.audioSeconds,
      levelsRequested: spec.levels,
      requestsPerLevel: spec.requestsPerLevel,
      warmupPerLevel: spec.warmup,
      seed: spec.seed,
      command: spec.command,
      startedAt: r.startedAt,
      endedAt: new Date().toISOString(),
      status: r.status,
      stopReason: r.stopReason,
      toolVersion: TOOL_VERSION,
    },
    warnings: r.warnings,
    levels: r.levels,
  };
}
