/**
 * Speech to text (`goodput sweep --endpoint transcriptions --audio-seconds N`)
 * as the command line shows it: the sweep flags that mean something for it →
 * a transcription spec, its progress words, its table (latency, real-time
 * factor, words/s), and a stored run's text. A flag that means nothing for
 * it, and a way of sending it has not (workers, client threads), is refused
 * by name rather than ignored.
 */
import {
  LIMITS,
  RUN_OPTIONS,
  type RunOption,
  type TranscriptionLevel,
  type TranscriptionResult,
  optionKey,
  refusalOf,
  sanitizeForTerminal as clean,
  transcriptionLevelSchema,
} from '../core/index.js';
import type { RunDetail } from '../store/index.js';
import type { SpecInputOf } from '../runner/index.js';
import { apiKeyFromEnv, badFlag, oneUrl, parseLevels, redactedCommand } from './parse-flags.js';
import { flagNumber } from './option-flags.js';
import { type KindView, levelRows, wholeAnswerExit, wholeAnswerProgress, wholeAnswerText } from './kind-view.js';
import type { SweepFlags } from './sweep-flags.js';

/** Why a flag given is refused for speech to text (the catalogue says which options it reads), or null when it is read. */
function refusal(o: RunOption): string | null {
  if (o.endpoints.includes('transcriptions')) return null;
  if (o.flag === '--workers') return refusalOf('transcriptions', 'workers', { endpoint: 'transcriptions' });
  if (o.flag === '--client-threads') return refusalOf('transcriptions', 'client-threads', { endpoint: 'transcriptions' });
  return 'does not apply to --endpoint transcriptions (speech to text)';
}

/**
 * `--audio-seconds` read for speech to text: the limits table's bound is the
 * chat clip's, so a length past it is refused naming the request it would be.
 */
function clipSeconds(text: string): number {
  const seconds = Number(text);
  const { max } = LIMITS.audioSeconds;
  if (text.trim() !== '' && seconds > max)
    throw badFlag('--audio-seconds', `${seconds} is above the limit of ${max} seconds of synthetic audio in one transcription request`);
  return flagNumber('audioSeconds', text);
}

/** Flags → transcription spec input, or a CliError naming the flag. `given` says which flags the user set. */
export function transcriptionSpecFromFlags(
  f: SweepFlags & { audioSeconds?: string },
  argv: readonly string[],
  given: (key: string) => boolean,
): SpecInputOf<'transcriptions'> {
  for (const o of RUN_OPTIONS) {
    const why = given(optionKey(o)) ? refusal(o) : null;
    if (why !== null) throw badFlag(o.flag, why);
  }
  if (f.audioSeconds === undefined) throw badFlag('--audio-seconds', 'needs a length: --endpoint transcriptions sends a clip of that many seconds');
  const apiKey = f.apiKey ?? apiKeyFromEnv(f.apiKeyEnv, 'GOODPUT_API_KEY');
  return {
    url: oneUrl(f.url, 'transcriptions'),
    apiKey: apiKey === '' ? undefined : apiKey,
    model: f.model,
    endpoint: 'transcriptions',
    levels: parseLevels('--levels', f.levels),
    audioSeconds: clipSeconds(f.audioSeconds),
    requestsPerLevel: f.requestsPerLevel === 'auto' ? 'auto' : flagNumber('requestsPerLevel', f.requestsPerLevel),
    warmup: flagNumber('warmup', f.warmup),
    seed: flagNumber('seed', f.seed),
    timeoutMs: flagNumber('timeoutS', f.timeoutS) * 1000,
    command: redactedCommand(['goodput', ...argv]),
  };
}

const fmt = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? '—' : x.toFixed(digits));

/** One row per level (latency percentiles, real-time factor, words/s), then every failure reason. */
export function transcriptionTable(levels: readonly TranscriptionLevel[], color: boolean): string[] {
  const head = ['Concurrency', 'Requests/s', 'Latency p50 (ms)', 'p90 (ms)', 'p99 (ms)', 'RTF p50', 'RTF p90', 'Words/s', 'Audio s/s', 'Failed'];
  const row = (l: TranscriptionLevel) => [
    String(l.concurrency),
    fmt(l.requestsPerS),
    fmt(l.latencyMs?.p50),
    fmt(l.latencyMs?.p90),
    fmt(l.latencyMs?.p99),
    fmt(l.realTimeFactor?.p50, 3),
    fmt(l.realTimeFactor?.p90, 3),
    fmt(l.wordsPerS),
    fmt(l.audioSecondsPerS),
    `${l.failed}/${l.requests}`,
  ];
  return [...levelRows(levels, head, row, color), 'RTF: processing time over the audio’s duration (below 1: faster than real time).'];
}

/** The run's table as the sweep prints it. */
export function renderTranscriptionResult(r: TranscriptionResult, color: boolean): string {
  const what = `transcriptions ${clean(r.run.path)}: clips of ${r.run.audioSeconds} s, model ${clean(r.run.model)}`;
  return wholeAnswerText(what, r, color, () => transcriptionTable(r.levels, color));
}

/** A stored transcriptions run (`goodput runs show`): how it went, then its finished levels' table. */
function storedTranscriptionText(r: RunDetail): string {
  const spec = r.spec as unknown as { audioSeconds?: number };
  const levels = (r.levels as unknown[]).map((l) => transcriptionLevelSchema.parse(l));
  const out = [
    `run ${r.id} · ${r.status} · ${r.serverName === null ? r.targetUrl : `${r.serverName} (${r.targetUrl})`} · model ${r.model ?? 'not known'} · started ${r.startedAt} · transcriptions: clips of ${spec.audioSeconds ?? '?'} s`,
  ];
  for (const w of r.warnings) out.push(`warning: ${w.message}`);
  out.push('', ...(levels.length > 0 ? transcriptionTable(levels, false) : ['no level finished']));
  if (r.status === 'interrupted') out.push('', `${r.stopReason}. The levels above are kept; an interrupted run is not a result.`);
  else if (r.stopReason) out.push('', `Sweep ${r.status}: ${r.stopReason}`);
  return out.join('\n');
}

/** Speech to text's view for `goodput sweep`. */
export const TRANSCRIPTION_VIEW: KindView<'transcriptions'> = {
  fromFlags: async (f, given, argv) => ({ spec: transcriptionSpecFromFlags(f, argv, given) }),
  progress: () => wholeAnswerProgress<'transcriptions'>((e) => `the server transcribes on ${clean(e.path)} with model ${clean(e.model)}`),
  table: renderTranscriptionResult,
  exitCode: wholeAnswerExit,
  showsEmpty: true,
  storedText: storedTranscriptionText,
};
