/**
 * `goodput sweep --endpoint transcriptions --audio-seconds N`: the sweep flags
 * that mean something for speech to text → a transcription spec → runSweep →
 * table, JSON and raw records, and the run stored as any kind is. A flag that
 * means nothing for it, and a way of sending it has not (workers, client
 * threads), is refused by name rather than ignored.
 */
import pc from 'picocolors';
import {
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
import { type SpecInputOf, type SweepEvent, runSweep } from '../runner/index.js';
import { AfterMeasuring, writeResult } from './after-measuring.js';
import { EXIT } from './exit-codes.js';
import { sayWritten, writeRecords } from './files.js';
import { apiKeyFromEnv, badFlag, parseLevels, parseUrl, redactedCommand } from './parse-flags.js';
import { flagNumber } from './option-flags.js';
import { type SaveTarget, discardIfNothingFinished, startSaving } from './save-run.js';
import type { SweepFlags } from './sweep-flags.js';

/** Why a flag given is refused for speech to text (the catalogue says which options it reads), or null when it is read. */
function refusal(o: RunOption): string | null {
  if (o.endpoints.includes('transcriptions')) return null;
  if (o.flag === '--workers') return refusalOf('transcriptions', 'workers', { endpoint: 'transcriptions' });
  if (o.flag === '--client-threads') return refusalOf('transcriptions', 'client-threads', { endpoint: 'transcriptions' });
  return 'does not apply to --endpoint transcriptions (speech to text)';
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
    url: parseUrl('--url', f.url),
    apiKey: apiKey === '' ? undefined : apiKey,
    model: f.model,
    endpoint: 'transcriptions',
    levels: parseLevels('--levels', f.levels),
    audioSeconds: flagNumber('audioSeconds', f.audioSeconds),
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
  const c = color ? pc : pc.createColors(false);
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
  const rows = levels.map(row);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((x) => (x[i] as string).length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padStart(widths[i] as number)).join('  ');
  const out = [c.bold(line(head)), ...levels.map((l, i) => (l.failed > 0 ? c.red(line(rows[i] as string[])) : line(rows[i] as string[])))];
  for (const l of levels) for (const f of l.failures) out.push(c.red(`concurrency ${l.concurrency}: ${f.count} failed: ${clean(f.reason)}`));
  out.push('RTF: processing time over the audio’s duration (below 1: faster than real time).');
  return out;
}

/** The run's table as the sweep prints it. */
export function renderTranscriptionResult(r: TranscriptionResult, color: boolean): string {
  const c = color ? pc : pc.createColors(false);
  const what = `transcriptions ${clean(r.run.path)}: clips of ${r.run.audioSeconds} s, model ${clean(r.run.model)}`;
  if (r.levels.length === 0)
    return [what, c.red('No level finished: nothing was measured.'), ...(r.run.stopReason ? [c.yellow(clean(r.run.stopReason))] : [])].join('\n');
  return [what, ...transcriptionTable(r.levels, color), ...(r.run.stopReason ? [c.yellow(clean(r.run.stopReason))] : [])].join('\n');
}

/** A stored transcriptions run (`goodput runs show`): how it went, then its finished levels' table. */
export function storedTranscriptionText(r: RunDetail): string {
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

function progress(e: SweepEvent<'transcriptions'>): void {
  const err = process.stderr;
  if (e.kind === 'preflight') err.write(`the server transcribes on ${clean(e.path)} with model ${clean(e.model)}\n`);
  else if (e.kind === 'warning') err.write(`warning: ${clean(e.warning.message)}\n`);
  else if (e.kind === 'level-start') err.write(`level ${e.index + 1}/${e.total}: concurrency ${e.concurrency}, ${e.requests} requests\n`);
  else if (e.kind === 'level-end') err.write(`  done: ${e.level.requests} requests, ${e.level.failed} failed\n`);
}

/** Exit code of a finished run: stopped, server failed, no level without failures, or ok. */
function exitCode(r: TranscriptionResult): number {
  if (r.run.status === 'stopped') return EXIT.stopped;
  if (r.run.status === 'server-failed') return EXIT.serverFailed;
  return r.levels.some((l) => l.failed === 0) ? EXIT.ok : EXIT.noValidLevel;
}

/** Runs the sweep and writes what was asked: progress on stderr, raw records per level, JSON, the table, the stored run. */
export async function transcriptionSweepAndReport(
  spec: SpecInputOf<'transcriptions'>,
  out: { json?: string | undefined; raw?: string | undefined; save?: SaveTarget | null },
): Promise<number> {
  if (out.json !== undefined && out.json === out.raw) throw badFlag('--raw', 'must be a different file from --json');
  const saving = out.save ? await startSaving(spec, out.save) : null;
  const ctrl = new AbortController();
  const onSignal = () => ctrl.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let first = true;
  try {
    const result = await runSweep(spec, {
      signal: ctrl.signal,
      onEvent: (e) => {
        progress(e);
        saving?.onEvent(e);
      },
      afterLevel: async (level, records) => {
        if (out.raw) await writeRecords(out.raw, records, first);
        first = false;
        await saving?.afterLevel(level, records);
      },
      ...(saving ? { beforeLevel: () => saving.beforeLevel() } : {}),
    }).catch(async (err: unknown) => {
      await saving?.fail(err);
      throw err;
    });
    if (saving && (await discardIfNothingFinished(result, saving))) return EXIT.stopped;
    const after = new AfterMeasuring();
    const wrote = await writeResult(after, result, out.json, () => renderTranscriptionResult(result, process.stdout.isTTY === true));
    sayWritten([wrote, first ? undefined : out.raw]);
    await after.step('storing the run', () => saving?.finish(result, out));
    return after.code(exitCode(result));
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
