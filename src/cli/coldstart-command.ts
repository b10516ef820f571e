/**
 * `goodput coldstart --cmd '…' --url U`: starts the server command (split
 * into argv without a shell: command-words.ts), times spawn → ready → first
 * token, stops its process group, three times by default; prints a table and
 * writes the runs as JSON. Ctrl-C stops the run under way and its server.
 */
import type { Command } from 'commander';
import { LIMITS, percentiles, sanitizeForTerminal } from '../core/index.js';
import { type ColdStartRun, coldStart } from '../runner/index.js';
import { commandWords } from './command-words.js';
import { CliError, EXIT, untilStopped } from './exit-codes.js';
import { sayWritten, writeFileAtomic } from './files.js';
import { apiKeyFromEnv, badFlag, parseNumber, parseUrl } from './parse-flags.js';

interface ColdStartFlags {
  cmd: string;
  url: string;
  runs: string;
  model?: string;
  readyTimeoutS: string;
  stopGraceS: string;
  apiKeyEnv?: string;
  json?: string;
}

/** What `--json` holds: the command as run, each run, and the spread of each figure. */
export interface ColdStartReport {
  kind: 'coldstart';
  command: string[];
  url: string;
  runs: ColdStartRun[];
  readyMs: Spread | null;
  firstTokenMs: Spread | null;
}
type Spread = { min: number; median: number; max: number };

function spread(xs: ReadonlyArray<number | null>): Spread | null {
  const s = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
  const p = percentiles(s, [50]);
  return p === null ? null : { min: s[0] as number, median: p.p50, max: s[s.length - 1] as number };
}

const cell = (x: number | null) => (x === null ? '—' : x.toFixed(0));

/** The table: one row per run, then the spread. */
export function renderColdStart(r: ColdStartReport): string {
  const rows = r.runs.map(
    (x) =>
      `${String(x.run).padStart(3)}  ${cell(x.readyMs).padStart(10)}  ${cell(x.firstTokenMs).padStart(14)}  ${x.failure === null ? '' : sanitizeForTerminal(x.failure)}`,
  );
  const line = (name: string, s: Spread | null) =>
    s === null ? `${name}: —` : `${name}: median ${s.median.toFixed(0)} ms (${s.min.toFixed(0)}–${s.max.toFixed(0)})`;
  return ['run  ready (ms)  first token (ms)', ...rows, line('ready', r.readyMs), line('first token', r.firstTokenMs)].join('\n');
}

async function coldStartAction(f: ColdStartFlags): Promise<void> {
  const words = commandWords(f.cmd);
  if (!words.ok) throw badFlag('--cmd', words.message);
  const url = parseUrl('--url', f.url);
  const runs = parseNumber('--runs', f.runs, { integer: true, min: 1, limit: 'coldStartRuns' });
  const waitMs = parseNumber('--ready-timeout-s', f.readyTimeoutS, { min: 0, exclusiveMin: true, limit: 'coldStartWaitS' }) * 1000;
  const stopMs = parseNumber('--stop-grace-s', f.stopGraceS, { min: 0, exclusiveMin: true, limit: 'processStopS' }) * 1000;
  const apiKey = apiKeyFromEnv(f.apiKeyEnv, 'GOODPUT_API_KEY');
  const target = { baseUrl: url, ...(apiKey === '' ? {} : { apiKey }) };
  const done = await untilStopped((signal) =>
    coldStart({
      argv: words.argv,
      target,
      ...(f.model === undefined ? {} : { model: f.model }),
      runs,
      waitMs,
      stopMs,
      signal,
      onRun: (r) =>
        process.stderr.write(
          `run ${r.run} of ${runs}: ${r.failure === null ? `ready ${cell(r.readyMs)} ms, first token ${cell(r.firstTokenMs)} ms` : sanitizeForTerminal(r.failure)}\n`,
        ),
    }),
  );
  const report: ColdStartReport = {
    kind: 'coldstart',
    command: words.argv,
    url,
    runs: done,
    readyMs: spread(done.map((r) => r.readyMs)),
    firstTokenMs: spread(done.map((r) => r.firstTokenMs)),
  };
  const json = JSON.stringify(report, null, 2) + '\n';
  if (f.json === '-') process.stdout.write(json);
  else process.stdout.write(renderColdStart(report) + '\n');
  if (f.json !== undefined && f.json !== '-') {
    await writeFileAtomic(f.json, json);
    sayWritten([f.json]);
  }
  const failed = done.length < runs || done.some((r) => r.failure !== null);
  if (failed) throw new CliError(done.length < runs ? EXIT.stopped : EXIT.serverFailed, '');
}

export function registerColdstartCommand(program: Command): void {
  program
    .command('coldstart')
    .description("time a server's cold start: process start → ready → first token, a few times")
    .requiredOption('--cmd <command>', 'the command that starts the server, run without a shell (quote words with spaces; pipes and redirections are refused)')
    .requiredOption('--url <url>', 'where the started server answers, e.g. http://127.0.0.1:8000')
    .option('--runs <n>', `cold starts to time, at most ${LIMITS.coldStartRuns.max}`, '3')
    .option('--model <name>', 'model to ask for the first token (default: the first the server lists)')
    .option('--ready-timeout-s <s>', `most each run waits from start to first token, seconds (at most ${LIMITS.coldStartWaitS.max})`, '600')
    .option(
      '--stop-grace-s <s>',
      `after each run: seconds between SIGTERM and SIGKILL to the server's process group (at most ${LIMITS.processStopS.max})`,
      '10',
    )
    .option('--api-key-env <name>', 'environment variable holding the API key (default: GOODPUT_API_KEY)')
    .option('--json <file|->', 'write the runs as JSON to a file, or to stdout with -')
    .action(coldStartAction);
}
