/**
 * `goodput replay TRACE --url URL`: every request of a recorded trace sent at its
 * recorded offset (open loop), with its own prompt and output lengths and shared
 * prefixes, at one or more speeds. The trace is read and validated whole before
 * anything is sent or stored. The result is a sweep result whose levels are the
 * speeds; sending lateness is each level's schedule lag.
 */
import type { Command } from 'commander';
import { LIMITS, limitMessage } from '../core/index.js';
import { type SweepSpecInput, agentReplaySpec, agentTraceSummary, traceReplaySpec } from '../runner/index.js';
import { DEFAULT_BLOCK_TOKENS, type AgentTrace, type Trace, agentTraceFormat, parseWindow, readAgentTrace, readTrace } from '../workload/index.js';
import { asUsageErrors } from './contract-errors.js';
import { CliError, EXIT } from './exit-codes.js';
import { badFlag, parseNumber, refuseGivenFlags } from './parse-flags.js';
import { saveTarget } from './save-run.js';
import { addSweepOptions, sweepAndReport } from './sweep-command.js';
import { specFromFlags, toolsFromFlags } from './text-view.js';
import { readReplayDataset } from './dataset-flags.js';
import { addRunOptions, groupKeys } from './option-flags.js';
import type { SweepFlags } from './sweep-flags.js';
import { observeFromFlags } from './observe-flags.js';
import { spendGuardFromFlags } from './spend-guard.js';

export interface ReplayFlags extends SweepFlags {
  /** A dataset's column mapping, its send times included: the file is read as a dataset (dataset-flags.ts). */
  column?: string;
  speed: string;
  window?: string;
  maxConcurrency?: string;
  blockTokens: string;
  strict?: boolean;
}

/** Sweep flags a replay takes from its trace instead: naming one is a mistake worth saying. */
const FROM_TRACE: Readonly<Record<string, string>> = {
  levels: "--levels: a replay's levels are speeds: give --speed 1,2,4",
  outputTokens: "--output-tokens: each request's output length comes from the trace",
  promptTokens: "--prompt-tokens: each request's prompt length comes from the trace",
  requestsPerLevel: '--requests-per-level: a replay sends every request of the trace (slice it with --window)',
  warmup: '--warmup: a replay sends no warm-ups (they would shift the recorded schedule)',
};

/** Replay flags an agent trace decides itself. */
const FROM_AGENT_TRACE: Readonly<Record<string, string>> = {
  window: '--window: an agent trace is replayed whole (every job with all its sub-agents)',
  maxConcurrency: '--max-concurrency: an agent trace follows its own graph (each turn waits for its tool and its sub-agents)',
  blockTokens: '--block-tokens: an agent trace states its block size (block_tokens in its header, block_size in AgentX)',
  strict: '--strict: an agent trace starts its sub-agents from its graph, not from timestamps',
};

/** `--speed 1` or `1,2,4`: every bad value named at once. */
export function parseSpeeds(text: string): number[] {
  const items = text.split(',').map((s) => s.trim());
  const max = LIMITS.traceSpeed.max;
  const bad = items.filter((s) => !/^\d+(\.\d+)?$/.test(s) || !(Number(s) > 0) || Number(s) > max);
  if (bad.length > 0)
    throw badFlag(
      '--speed',
      `${bad.map((s) => `'${s}'`).join(', ')} ${bad.length === 1 ? 'is not a speed' : 'are not speeds'} above 0 and at most ${max} (1 = as recorded, 2 = twice as fast)`,
    );
  if (items.length > LIMITS.levels.max) throw badFlag('--speed', limitMessage('levels', items.length, 'speeds'));
  return items.map(Number);
}

/** The replay flags, after the sweep's (shared with `goodput utilisation`); `--column` as the catalogue declares it, for a dataset with its send times. */
export function addReplayOptions(cmd: Command): Command {
  const notColumn = groupKeys('arrival')
    .map((k) => k.flag)
    .filter((f) => f !== '--column');
  return addRunOptions(addSweepOptions(cmd), 'arrival', notColumn)
    .option('--speed <list>', 'time compression, comma-separated: 1 = as recorded, 2 = twice as fast; one level each', '1')
    .option('--window <start..end>', "replay only the requests from START to END seconds after the trace's first")
    .option('--max-concurrency <n>', 'a safety cap on requests in flight; a request due while it binds waits (counted and reported)')
    .option('--block-tokens <n>', 'prompt tokens per Mooncake hash id', String(DEFAULT_BLOCK_TOKENS))
    .option('--strict', 'refuse a trace whose timestamps go backwards instead of sorting it');
}

/** Flags and trace → the replay's spec; every flag and the whole trace checked before anything is sent. */
export async function replaySpec(cmd: Command, path: string, flags: ReplayFlags): Promise<{ spec: SweepSpecInput; trace: Trace | AgentTrace }> {
  refuseGivenFlags(cmd, FROM_TRACE);
  const speeds = parseSpeeds(flags.speed);
  if (flags.column === undefined && (await asUsageErrors(() => agentTraceFormat(path))) !== null) {
    refuseGivenFlags(cmd, FROM_AGENT_TRACE);
    const base = { ...specFromFlags(flags, process.argv.slice(2)), ...(await toolsFromFlags(flags)) };
    const trace = await asUsageErrors(() => readAgentTrace(path));
    process.stderr.write(`${agentTraceSummary(trace)}\n`);
    return { spec: { ...base, ...agentReplaySpec(trace, speeds) }, trace };
  }
  const window = flags.window === undefined ? null : await asUsageErrors(async () => parseWindow(flags.window as string));
  const maxConcurrency =
    flags.maxConcurrency === undefined ? null : parseNumber('--max-concurrency', flags.maxConcurrency, { integer: true, min: 1, limit: 'concurrency' });
  const blockTokens = parseNumber('--block-tokens', flags.blockTokens, { integer: true, min: 1, limit: 'traceBlockTokens' });
  const base = { ...specFromFlags(flags, process.argv.slice(2)), ...(await toolsFromFlags(flags)) };
  const o = { window, strict: flags.strict === true };
  // With a column mapping the file is a dataset whose rows carry their send times.
  const trace = flags.column === undefined ? await asUsageErrors(() => readTrace(path, o)) : await readReplayDataset(path, flags.column, o);
  for (const w of trace.warnings) process.stderr.write(`goodput: ${w}\n`);
  const skipped = [
    trace.skipped.failed > 0 ? `${trace.skipped.failed} failed in the log` : '',
    trace.skipped.outsideWindow > 0 ? `${trace.skipped.outsideWindow} outside the window` : '',
  ].filter(Boolean);
  const spanS = (trace.requests.at(-1)?.atMs ?? 0) / 1000;
  process.stderr.write(
    `trace ${trace.format}: ${trace.requests.length} requests over ${spanS.toFixed(1)} s${skipped.length ? ` (left out: ${skipped.join(', ')})` : ''}; sha256 ${trace.sha256.slice(0, 12)}…\n`,
  );
  const spec: SweepSpecInput = { ...base, ...traceReplaySpec(trace, speeds, { blockTokens, maxConcurrency }) };
  return { spec, trace };
}

export function registerReplayCommand(program: Command): void {
  const cmd = addReplayOptions(
    program
      .command('replay')
      .description(
        'replay a request trace (Mooncake JSONL, BurstGPT or Azure CSV, goodput JSONL), or a dataset with a timestamp column (--column), at its recorded times',
      )
      .argument('<trace>', 'the trace file'),
  );
  cmd.action(async (path: string, flags: ReplayFlags) => {
    const { spec } = await replaySpec(cmd, path, flags);
    const { code } = await sweepAndReport(spec, {
      json: flags.json,
      raw: flags.raw,
      save: saveTarget(flags, false, 'goodput replay'),
      spend: spendGuardFromFlags(flags),
      observe: observeFromFlags(flags),
    });
    if (code !== EXIT.ok) throw new CliError(code, '');
  });
}
