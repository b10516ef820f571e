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
  type TranscriptionRecord,
  type TranscriptionResult,
  type Warning,
  limitMessage,
  numericDefault,
  transcriptionLevel,
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
import { runEnd, type LevelAt, type LevelsEnd, failedWarning, parseSpec, sweepLevels, sweepTalk, unanswered } from './level-loop.js';
import type { SweepHooks } from './sweep-events.js';
import './transcription-events.js';
import { closedLoopRequests, concurrencyLevels, countFields, levelOrder, serverFields } from './sweep-spec.js';

export const transcriptionSpecSchema = z
  .object({
    ...serverFields,
    endpoint: z.enum(TRANSCRIPTION_ENDPOINTS),
    levels: concurrencyLevels,
    /** Seconds of every clip (8 kHz mono WAV drawn from the seed). */
    audioSeconds: z
      .number({ error: 'audioSeconds must be a number of seconds' })
      .positive('audioSeconds must be above 0')
      .max(LIMITS.audioSeconds.max, { error: (i) => limitMessage('audioSeconds', Number(i.input), 'audioSeconds') }),
    ...countFields,
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
  const spec = parseSpec(transcriptionSpecSchema, input);
  const talk = sweepTalk<'transcriptions'>(deps);
  const target = { baseUrl: spec.url, apiKey: spec.apiKey };
  const order = levelOrder(spec.levels);
  const clock = deps.clock ?? monotonicNs;
  const client = createTranscriptionClient(target, { connections: order[order.length - 1] as number, clock, timeoutMs: spec.timeoutMs });
  const startedAt = new Date().toISOString();
  let model = '';
  let end: LevelsEnd<'transcriptions'>;
  try {
    model = await preflightRoute(target, spec, client);
    talk.emit({ kind: 'preflight', model, path: TRANSCRIPTION_PATH });
    const clips = Array.from({ length: CLIPS }, (_, i) => ({ wav: syntheticWav(spec.audioSeconds, spec.seed, i), seconds: spec.audioSeconds }));
    const send = { spec, client, signal: talk.signal, model, clips };
    end = await sweepLevels<'transcriptions'>(talk, deps, {
      order,
      warmup: spec.warmup,
      requestsAt: (c) => closedLoopRequests(spec, c),
      level: async (at, done) => {
        const records = await sendLevel(send, at);
        if (talk.signal.aborted) return { kind: 'aborted' };
        const level = transcriptionLevel(at.concurrency, records);
        return unanswered<'transcriptions'>(records, at.concurrency, done) ?? { kind: 'level', level, records, later: () => failedWarning(level) };
      },
    });
  } finally {
    await client.close();
  }
  return transcriptionResult(spec, { model, startedAt, warnings: talk.warnings, ...end });
}

/** What sending a level reads. */
interface Send {
  spec: TranscriptionSpec;
  client: TranscriptionClient;
  signal: AbortSignal;
  model: string;
  clips: TranscriptionClip[];
}

/** One level: its warm-ups, then its measured requests, each over `c` closed loops; records warm-ups first, in send order. */
async function sendLevel(run: Send, at: LevelAt<'transcriptions'>): Promise<TranscriptionRecord[]> {
  const c = at.concurrency;
  const loops = async (from: number, n: number, warmup: boolean): Promise<TranscriptionRecord[]> => {
    const out: TranscriptionRecord[] = [];
    let next = 0;
    const loop = async () => {
      while (next < n && !run.signal.aborted) {
        const seq = from + next++;
        const r = await run.client.send(run.model, run.clips[seq % CLIPS] as TranscriptionClip, { seq, concurrency: c, warmup }, run.signal);
        out.push(r);
        at.onRecord(r);
      }
    };
    await Promise.all(Array.from({ length: Math.min(c, n) }, loop));
    return out.sort((a, b) => a.seq - b.seq);
  };
  const warm = await loops(at.offset, run.spec.warmup, true);
  return [...warm, ...(await loops(at.offset + run.spec.warmup, at.requests, false))];
}

function transcriptionResult(
  spec: TranscriptionSpec,
  r: LevelsEnd<'transcriptions'> & { model: string; startedAt: string; warnings: Warning[] },
): TranscriptionResult {
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
      ...runEnd(spec.command, r),
    },
    warnings: r.warnings,
    levels: r.levels,
  };
}
