/**
 * The results table and the cards as terminal text. Columns follow the
 * Benchmarks page's order; an invalid level is never blank or zero: its row says
 * why, and its averages are shown dimmed and marked. Every string that came
 * from a server or a file goes through sanitizeForTerminal.
 */
import pc from 'picocolors';
import {
  type Cards,
  imageInputsLabel,
  type LevelAxis,
  type LevelResult,
  type SweepResult,
  heldPct,
  heldShort,
  levelAxis,
  levelValue,
  sanitizeForTerminal as clean,
  outputAsked,
  priceLine,
  providerCost,
  serverAddedLabel,
} from '../core/index.js';
import { levelNotes } from './level-notes.js';
import { renderTelemetry } from './render-telemetry.js';
import { fleetLines } from './render-fleet.js';
import { toolCallLines } from './render-tools.js';
import { agentLines } from './render-agents.js';

const fmt = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? '—' : x.toFixed(digits));

const HEADERS = [
  'Throughput tok/s',
  'Per-request tok/s',
  'TTFT p50 (ms)',
  'TTFT p95 (ms)',
  'TPOT p50 (ms)',
  'e2e p50 (ms)',
  'Failed',
  'GPU mem (MiB)',
  'Status',
];

function status(l: LevelResult): string {
  if (l.invalid) return `INVALID: ${clean(l.invalidReason ?? '')}`;
  // A provider's limit set the pace: no capacity is read from the level.
  if (l.rateLimit?.limited === true) return clean(l.rateLimit.reason ?? "limited by the provider's rate limit");
  if (l.clientBound.bound) return `client-bound: ${clean(l.clientBound.reason ?? '')}`;
  if (l.inFlight !== undefined && heldShort(l.inFlight)) return `not held: ${heldPct(l.inFlight)} % of ${l.inFlight.asked} in flight`;
  return 'ok';
}

/** "64 / 61": requests in flight at the sends (median / min); a closed loop below 95 % of C marked "!"; "—" without figures. */
function inFlightCell(l: LevelResult): string {
  const f = l.inFlight;
  if (f === undefined) return '—';
  return `${fmt(f.median, Number.isInteger(f.median) ? 0 : 1)} / ${f.min}${heldShort(f) ? ' !' : ''}`;
}

/** "3 (2 requests, 4.0 s waited)": retries after 429, 529 or 503, never hidden. */
function retriesCell(l: LevelResult): string {
  const r = l.retries;
  return r === undefined ? '0' : `${r.attempts} (${r.requests} request${r.requests === 1 ? '' : 's'}, ${(r.waitMs / 1000).toFixed(1)} s waited)`;
}

/** The level's place on its axis first; an open loop's peak in flight beside it; what the client held before the failures; retries when any level made one. */
function row(l: LevelResult, axis: LevelAxis, retries: boolean, held: boolean): string[] {
  const mem = l.gpuMemMiB.available ? fmt(l.gpuMemMiB.peak, 0) : 'n/a';
  return [
    axis.format(levelValue(l)),
    ...(axis.open ? [String(l.concurrency)] : []),
    fmt(l.throughputTokS),
    fmt(l.perRequestTokS?.mean),
    fmt(l.ttftMs?.p50),
    fmt(l.ttftMs?.p95),
    fmt(l.tpotMs?.p50, 2),
    fmt(l.e2eMs?.p50, 0),
    ...(axis.open ? [fmt(l.fromSchedule?.ttftMs?.p50), fmt(l.fromSchedule?.e2eMs?.p50, 0), fmt(l.load?.scheduleLagMs?.p99, 2)] : []),
    ...(held ? [inFlightCell(l)] : []),
    String(l.failed),
    ...(retries ? [retriesCell(l)] : []),
    mem,
    status(l),
  ];
}

/** The results table; `color` adds emphasis for a terminal. */
export function renderTable(levels: readonly LevelResult[], color: boolean): string {
  const c = color ? pc : pc.createColors(false);
  const axis = levelAxis(levels);
  // Open loops: latency from the scheduled send beside the usual (from the actual send), and the lag between them.
  const sched = axis.open ? ['TTFT p50 from schedule (ms)', 'e2e p50 from schedule (ms)', 'Schedule lag p99 (ms)'] : [];
  const base = HEADERS.slice(0, HEADERS.indexOf('Failed'));
  const retries = levels.some((l) => l.retries !== undefined);
  // Results of earlier versions hold no in-flight figures: their tables keep their columns.
  const held = levels.some((l) => l.inFlight !== undefined);
  const rest = HEADERS.slice(base.length);
  const headers = [
    axis.name,
    ...(axis.open ? ['Peak in flight'] : []),
    ...base,
    ...sched,
    // Beside the failures and the status that marks a level not held: the figures users read first stay first.
    ...(held ? ['In flight p50 / min'] : []),
    rest[0] as string,
    ...(retries ? ['Retries'] : []),
    ...rest.slice(1),
  ];
  const rows = levels.map((l) => row(l, axis, retries, held));
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padStart(widths[i] as number))).join('  ');
  const out = [c.bold(line(headers))];
  levels.forEach((l) => {
    const text = line(row(l, axis, retries, held));
    if (l.invalid) out.push(c.red(text));
    else if (l.clientBound.bound || l.rateLimit?.limited === true || heldShort(l.inFlight)) out.push(c.yellow(text));
    else out.push(text);
  });
  return out.join('\n');
}

export function renderCards(cards: Cards): string {
  const m = cards.model;
  const e = cards.engine;
  const p = cards.platform;
  const model = m.available
    ? `Model     single stream ${fmt(m.singleStreamTokS)} tok/s · TTFT p50 ${fmt(m.ttftMsP50)} ms · TPOT p50 ${fmt(m.tpotMsP50, 2)} ms (concurrency 1)${
        m.clientBound === undefined ? '' : ` · client-bound, timing not trusted: ${m.clientBound}`
      }`
    : `Model     not available: ${m.reason}`;
  const curve = e.curve
    .map((pt) => `${pt.level ?? pt.concurrency}→${fmt(pt.throughputTokS, 0)}${pt.invalid ? '(invalid)' : pt.clientBound ? '(client-bound)' : ''}`)
    .join(' ');
  const engine =
    e.peakThroughputTokS === null
      ? `Engine    no valid level to take a peak from · curve ${curve}`
      : `Engine    peak ${fmt(e.peakThroughputTokS)} tok/s at ${e.peakAt ?? `concurrency ${e.peakConcurrency}`}${e.notSaturated ? ` (${e.notSaturated}: the peak is a floor)` : ''} · curve ${curve}` +
        (e.excluded.length > 0 ? ` · excluded: ${e.excluded.map((x) => `${x.level ?? x.concurrency} (${clean(x.reason)})`).join('; ')}` : '');
  const mem =
    p.gpuMemMiBPeak === null
      ? `memory ${clean(p.gpuMemSource)}`
      : `memory peak ${fmt(p.gpuMemMiBPeak, 0)} of ${fmt(p.gpuMemMiBTotal, 0)} MiB (${clean(p.gpuMemSource)})`;
  const cost =
    p.costPer1MOutputTokensUsd === null
      ? p.basis
      : `$${p.hourlyCostUsd?.toFixed(2)}/h → $${p.costPer1MOutputTokensUsd.toFixed(2)} per 1M output tokens` +
        (p.savingPct === null
          ? ''
          : `, ${fmt(Math.abs(p.savingPct))}% ${p.savingPct >= 0 ? 'below' : 'above'} the $${p.baselineRateUsdPer1M?.toFixed(2)} baseline`) +
        `\n          basis: ${p.basis}`;
  const platform = `Platform  ${p.gpu === null ? 'GPU not recorded' : clean(p.gpu)} · ${mem}\n          ${cost}`;
  return [model, engine, platform].join('\n');
}

/**
 * How long the synthetic prompts were and how that was counted, with what the
 * server added on top (its usage minus what was sent); null without synthetic prompts.
 */
export function promptLine(levels: readonly LevelResult[]): string | null {
  const p = levels.find((l) => l.promptTokens.countedBy !== undefined)?.promptTokens;
  if (p?.countedBy === undefined) return null;
  // Sessions: each user message at its own length; what a turn carries besides (the model's answers) is not built here.
  if (p.sent === undefined || p.sent === null) return `prompts at their own lengths, ${clean(p.countedBy)}`;
  const added = levels.flatMap((l) => (typeof l.promptTokens.templateTokens === 'number' ? [l.promptTokens.templateTokens] : []));
  const mean = added.length > 0 ? added.reduce((a, x) => a + x, 0) / added.length : null;
  const template =
    mean === null ? '' : ` · the server counted ${fmt(p.sent + mean)}: ${fmt(mean)} tokens of its own (${serverAddedLabel(levels)}) reported apart`;
  const each = levels.some((l) => l.load?.kind === 'trace') ? `at the trace's own lengths (mean ${fmt(p.sent)} tokens)` : `${p.sent} tokens each`;
  return `prompts ${each}, ${clean(p.countedBy)}${template}`;
}

/** What images every request carried, and the prompt tokens the server counted with them; null without images. */
export function imagesLine(levels: readonly LevelResult[]): string | null {
  const images = levels.find((l) => l.images !== undefined)?.images;
  if (images === undefined) return null;
  const counted = levels.flatMap((l) => (l.promptTokens.mean === null ? [] : [l.promptTokens.mean]));
  const served =
    counted.length > 0 ? ` · the server counted ${fmt(counted.reduce((a, x) => a + x, 0) / counted.length)} prompt tokens per request, images included` : '';
  const how = images.delivery === 'url' ? 'served by goodput on its own HTTP server and fetched by the server' : 'sent inline as data URLs';
  return `images ${imageInputsLabel(images)} (synthetic, drawn from the seed, ${how})${served}`;
}

/** The audio clip every request carried; null without audio. */
export function audioLine(levels: readonly LevelResult[]): string | null {
  const audio = levels.find((l) => l.audio !== undefined)?.audio;
  if (audio === undefined) return null;
  const counted = levels.flatMap((l) => (l.promptTokens.mean === null ? [] : [l.promptTokens.mean]));
  const served =
    counted.length > 0 ? ` · the server counted ${fmt(counted.reduce((a, x) => a + x, 0) / counted.length)} prompt tokens per request, audio included` : '';
  return `audio ${audio.seconds} s of 8 kHz mono WAV per request (synthetic, drawn from the seed, sent inline as input_audio)${served}`;
}

/** "8–25 output tokens" as the answers came back, over every level; the requests' own caps, not the sweep default. */
function sentRange(levels: readonly LevelResult[]): string {
  const lo = Math.min(...levels.flatMap((l) => (l.outputTokens.min === null ? [] : [l.outputTokens.min])));
  const hi = Math.max(...levels.flatMap((l) => (l.outputTokens.max === null ? [] : [l.outputTokens.max])));
  return Number.isFinite(lo) ? `${lo === hi ? lo : `${lo}–${hi}`} output tokens` : 'no answer came back';
}

/** Everything a person reads after a sweep: warnings, the table, the cards, the stop reason. */
/** A priced run's cost per successful 1M output tokens, with the price row it used and what was billed (recomputed from the levels: a stored run keeps no figure). */
function providerLines(result: SweepResult): string[] {
  const price = result.run.providerPrice;
  if (price === undefined) return [];
  const c = providerCost(result.levels, result.run.promptTokens, price);
  const figure =
    c === null || c.costPer1MSuccessfulUsd === null
      ? 'no level delivered goodput, so no cost figure'
      : `$${c.costPer1MSuccessfulUsd.toFixed(4)} per successful 1M output tokens at level ${c.level} (spend $${c.spendUsd.toFixed(6)}: ` +
        `${c.tokens.input} input tokens ${c.inputFrom === 'server' ? 'as the server counted them' : 'as sent'}, ${c.tokens.cachedInput} cached, ${c.tokens.output} output; ` +
        `${c.successfulOutputTokens} output tokens met every SLO)`;
  return [`Provider  ${figure}`, `          price ${clean(priceLine(price))}`, ...(c === null ? [] : [`          basis: ${c.basis}`])];
}

export function renderResult(result: SweepResult, color: boolean, table?: string): string {
  const c = color ? pc : pc.createColors(false);
  const parts: string[] = [];
  const outputs =
    result.run.arrival?.kind === 'trace'
      ? `replay of ${clean(result.run.arrival.source.file)} (${result.run.arrival.source.format}, sha256 ${result.run.arrival.source.sha256.slice(0, 12)}…), each request with its traced lengths`
      : result.levels.some((l) => l.sessions !== undefined)
        ? `multi-turn sessions, each answer capped at its own length (${sentRange(result.levels)})`
        : outputAsked(result.run.outputTokens, result.run.forceLength);
  const fleet = result.run.fleet ? ` and ${result.run.fleet.urls.length - 1} more targets (routed ${result.run.fleet.route})` : '';
  const head = `${clean(result.run.model)} at ${clean(result.run.url)}${fleet} · ${outputs} · thinking ${result.run.thinking}`;
  parts.push(c.bold(head));
  const prompts = promptLine(result.levels);
  if (prompts !== null) parts.push(prompts);
  const images = imagesLine(result.levels);
  if (images !== null) parts.push(images);
  const audio = audioLine(result.levels);
  if (audio !== null) parts.push(audio);
  for (const w of result.warnings) parts.push(c.yellow(`warning: ${clean(w.message)}`));
  // A sweep that ended before its first level (the server died in it) has no table or cards to show: it says so.
  if (result.levels.length === 0) parts.push('', c.red('No level finished: nothing was measured, so there is no table and no card.'));
  // A repeated run shows its medians and ranges instead of run 1's own table.
  else
    parts.push(
      '',
      table ?? renderTable(result.levels, color),
      ...levelNotes(result.levels),
      ...toolCallLines(result),
      ...agentLines(result),
      ...fleetLines(result),
      ...renderTelemetry(result.levels),
      '',
      renderCards(result.cards),
      ...providerLines(result),
    );
  if (result.run.stopReason) parts.push('', c.red(`Sweep ${result.run.status}: ${clean(result.run.stopReason)}`));
  return parts.join('\n');
}
