/**
 * `goodput sessions --url URL`: multi-turn conversations, each turn sent with
 * the conversation so far (the model's own answers included) after a think time,
 * from a ShareGPT-style file or synthetic; levels are sessions at once (or, with
 * --session-rate, sessions started per second). Reported per turn index and per
 * session under the usual table.
 */
import type { Command } from 'commander';
import { LIMITS, type LevelResult, limitMessage, sanitizeForTerminal as clean } from '../core/index.js';
import type { SweepSpecInput } from '../runner/index.js';
import { type Range, loadShareGpt, syntheticSessions } from '../workload/index.js';
import { AfterMeasuring } from './after-measuring.js';
import { asUsageErrors } from './contract-errors.js';
import { CliError, EXIT } from './exit-codes.js';
import { badFlag, parseNumber, refuseGivenFlags } from './parse-flags.js';
import { saveTarget } from './save-run.js';
import { addSweepOptions, sweepAndReport } from './sweep-command.js';
import { specFromFlags } from './text-view.js';
import type { SweepFlags } from './sweep-flags.js';
import { observeFromFlags } from './observe-flags.js';
import { spendGuardFromFlags } from './spend-guard.js';

interface SessionsFlags extends SweepFlags {
  conversations?: string;
  sessions: string;
  turns: string;
  userTokens: string;
  answerTokens: string;
  thinkS: string;
  sessionRate?: boolean;
  compareEndpoints?: boolean;
}

/** Sweep flags a session run decides itself. */
const FROM_SESSIONS: Readonly<Record<string, string>> = {
  outputTokens: "--output-tokens: each turn's output cap comes from its conversation (or --answer-tokens)",
  promptTokens: "--prompt-tokens: each turn's message comes from its conversation (or --user-tokens)",
  requestsPerLevel: '--requests-per-level: a level sends every turn of every session (set --sessions)',
  warmup: '--warmup: sessions run no warm-ups',
  tools: '--tools: a session carries text answers turn to turn; tool calls run in goodput sweep',
  toolChoice: '--tool-choice: a session carries text answers turn to turn; tool calls run in goodput sweep',
  jsonSchema: '--json-schema: a session carries text answers turn to turn; structured output runs in goodput sweep',
  schemaControl: '--schema-control: a session carries text answers turn to turn; structured output runs in goodput sweep',
};

/** `A..B` (or `A`): two numbers, A ≤ B, within [min, max]. */
export function parseRange(flag: string, text: string, o: { integer: boolean; min: number; max: number }): Range {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:\.\.\s*(\d+(?:\.\d+)?))?\s*$/.exec(text);
  const a = Number(m?.[1]);
  const b = m?.[2] === undefined ? a : Number(m[2]);
  const ok = m !== null && a <= b && a >= o.min && b <= o.max && (!o.integer || (Number.isInteger(a) && Number.isInteger(b)));
  if (!ok)
    throw badFlag(
      flag,
      `'${text}' is not a range A..B of ${o.integer ? 'whole numbers' : 'numbers'} from ${o.min} to ${o.max} with A ≤ B (e.g. ${o.integer ? '3..8' : '0.5..2'})`,
    );
  return [a, b];
}

/**
 * The same sessions through chat (history resent) and the Responses API (previous_response_id), per level
 * and turn: what each turn sent, the prompt the server counted, its cache hits, TTFT.
 */
export function endpointComparison(chat: readonly LevelResult[], responses: readonly LevelResult[]): string[] {
  const n = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : x.toFixed(0));
  const p50 = (x: { p50: number } | null) => (x === null ? 'n/a' : x.p50.toFixed(1));
  return chat.flatMap((c, i) => {
    const r = responses[i];
    if (!c.sessions || !r?.sessions) return [];
    const byTurn = new Map(r.sessions.turns.map((t) => [t.turn, t]));
    return [
      '',
      `Chat vs Responses at ${clean(c.load?.label ?? String(c.concurrency))}: ${c.sessions.completed} and ${r.sessions.completed} of ${c.sessions.sessions} sessions completed every turn`,
      '  turn  bytes sent chat/responses  prompt tokens chat/responses  cached chat/responses  TTFT p50 chat/responses (ms)',
      ...c.sessions.turns.map((t) => {
        const u = byTurn.get(t.turn);
        const pair = (a: string, b: string, w: number) => `${a}/${b}`.padStart(w);
        return `  ${String(t.turn).padStart(4)}  ${pair(n(t.requestBodyBytesMean), n(u?.requestBodyBytesMean), 25)}  ${pair(n(t.promptTokensMean), n(u?.promptTokensMean), 28)}  ${pair(n(t.cachedPromptTokensMean), n(u?.cachedPromptTokensMean), 21)}  ${pair(p50(t.ttftMs), p50(u?.ttftMs ?? null), 28)}`;
      }),
    ];
  });
}

/** Per-turn and per-session lines under the table. */
export function sessionLines(levels: readonly LevelResult[]): string[] {
  const ms = (x: { p50: number; p95: number } | null) => (x === null ? 'n/a' : `${x.p50.toFixed(1)}/${x.p95.toFixed(1)}`);
  const n = (x: number | null) => (x === null ? 'n/a' : x.toFixed(0));
  return levels.flatMap((l) => {
    const s = l.sessions;
    if (!s) return [];
    return [
      '',
      `Sessions at ${clean(l.load?.label ?? String(l.concurrency))}: ${s.completed} of ${s.sessions} completed every turn · session time p50/p95 ${ms(s.durationMs)} ms · tokens per session: prompt ${n(s.promptTokensMean)}, output ${n(s.outputTokensMean)}`,
      '  turn  requests  TTFT p50/p95 (ms)  TPOT p50/p95 (ms)  prompt tokens  cached  bytes sent',
      ...s.turns.map(
        (t) =>
          `  ${String(t.turn).padStart(4)}  ${String(t.requests).padStart(8)}  ${ms(t.ttftMs).padStart(17)}  ${ms(t.tpotMs).padStart(17)}  ${n(t.promptTokensMean).padStart(13)}  ${n(t.cachedPromptTokensMean).padStart(6)}  ${n(t.requestBodyBytesMean ?? null).padStart(10)}`,
      ),
    ];
  });
}

export function registerSessionsCommand(program: Command): void {
  const cmd = addSweepOptions(
    program.command('sessions').description("multi-turn conversations: each turn carries the conversation so far, the model's answers included"),
  )
    .option('--conversations <file>', 'a ShareGPT-style JSON file: [{ "conversations": [{ "from": "human" | "gpt", "value": … }] }]')
    .option('--sessions <n>', 'sessions per level (synthetic; or the first N conversations of the file)', '16')
    .option('--turns <a..b>', 'synthetic: turns per session', '3..8')
    .option('--user-tokens <a..b>', 'synthetic: words per user message', '64..256')
    .option('--answer-tokens <a..b>', 'synthetic: output cap per answer', '64..256')
    .option('--think-s <a..b>', 'think time before each turn after the first, seconds (uniform)', '1..3')
    .option('--session-rate', 'levels are sessions started per second (Poisson, --seed) instead of sessions at once')
    .option(
      '--compare-endpoints',
      'run the same sessions through chat (history resent) and then the Responses API (previous_response_id), and print the comparison',
    );
  cmd.action(async (flags: SessionsFlags) => {
    refuseGivenFlags(cmd, FROM_SESSIONS);
    const count = parseNumber('--sessions', flags.sessions, { integer: true, min: 1, limit: 'requestsPerLevel' });
    const thinkS = parseRange('--think-s', flags.thinkS, { integer: false, min: 0, max: 3600 });
    const seed = parseNumber('--seed', flags.seed, { integer: true });
    const base = specFromFlags(flags, process.argv.slice(2));
    let prompts: SweepSpecInput['prompts'];
    if (flags.conversations !== undefined) {
      const { source, skipped } = await asUsageErrors(() => loadShareGpt(flags.conversations as string, { maxSessions: count, thinkS, seed }));
      if (skipped > 0) process.stderr.write(`goodput: ${skipped} conversation(s) without a human message followed by an answer were skipped\n`);
      prompts = source;
    } else {
      prompts = syntheticSessions({
        sessions: count,
        seed,
        thinkS,
        turns: parseRange('--turns', flags.turns, { integer: true, min: 1, max: LIMITS.sessionTurns.max }),
        userTokens: parseRange('--user-tokens', flags.userTokens, { integer: true, min: 1, max: LIMITS.promptTokens.max }),
        answerTokens: parseRange('--answer-tokens', flags.answerTokens, { integer: true, min: 1, max: LIMITS.outputTokens.max }),
      });
    }
    const turns = prompts.kind === 'sessions' ? prompts.sessions.reduce((a, s) => a + s.turns.length, 0) : 0;
    if (turns > LIMITS.requestsPerLevel.max) throw badFlag('--sessions', `${limitMessage('requestsPerLevel', turns, 'turns')}; use fewer sessions`);
    const spec: SweepSpecInput = {
      ...base,
      prompts,
      warmup: 0,
      requestsPerLevel: 'auto',
      // Turns share their conversation's prefix on purpose: no per-request cache salt (each session starts with a word of its own).
      cache: 'warm',
      ...(flags.sessionRate ? { arrival: { kind: 'rate' as const, process: 'poisson' as const, seed } } : {}),
    };
    if (flags.compareEndpoints === true) return compareEndpoints(spec, flags);
    const { code: measured, result } = await sweepAndReport(spec, {
      json: flags.json,
      raw: flags.raw,
      save: saveTarget(flags, false, 'goodput sessions'),
      spend: spendGuardFromFlags(flags),
      observe: observeFromFlags(flags),
    });
    const after = new AfterMeasuring();
    if (flags.json !== '-') await after.step('rendering the sessions', () => process.stdout.write(sessionLines(result.levels).join('\n') + '\n'));
    const code = after.code(measured);
    if (code !== EXIT.ok) throw new CliError(code, '');
  });
}

/** `--compare-endpoints`: the sessions through chat, then through the Responses API, then the comparison. */
async function compareEndpoints(spec: SweepSpecInput, flags: SessionsFlags): Promise<void> {
  if (flags.json !== undefined || flags.raw !== undefined)
    throw badFlag('--compare-endpoints', 'runs two sweeps: write each with its own goodput sessions --endpoint chat|responses --json run');
  const runs: LevelResult[][] = [];
  for (const endpoint of ['chat', 'responses'] as const) {
    process.stderr.write(`sessions through ${endpoint}\n`);
    const { code: measured, result } = await sweepAndReport(
      { ...spec, endpoint },
      { save: saveTarget(flags, false, 'goodput sessions'), spend: spendGuardFromFlags(flags), observe: observeFromFlags(flags) },
    );
    const after = new AfterMeasuring();
    await after.step('rendering the sessions', () => process.stdout.write(sessionLines(result.levels).join('\n') + '\n'));
    const code = after.code(measured);
    if (code !== EXIT.ok) throw new CliError(code, '');
    runs.push(result.levels);
  }
  process.stdout.write(endpointComparison(runs[0] ?? [], runs[1] ?? []).join('\n') + '\n');
}
