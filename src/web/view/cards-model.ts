/**
 * The three cards as facts to show (each value with its statistic and
 * provenance), and the exact text "Copy cards as JSON" puts on the
 * clipboard: what `goodput cards` prints.
 */
import type { Cards } from '../../core/index.js';
import { num, usd } from './format.js';

export interface CardFact {
  label: string;
  value: string;
  /** Statistic and provenance: "p50 · measured", "derived". */
  note: string;
}

export interface CardView {
  /** Model, Engine, Platform for a text run; a kind names its own (Latency). */
  title: string;
  /** The question this card answers. */
  question: string;
  facts: CardFact[];
  /** Why a card has no figures, when it has none. */
  unavailable: string | null;
}

/** Byte for byte what `goodput cards RESULT.json` prints. */
export function cardsJson(cards: Cards): string {
  return JSON.stringify(cards, null, 2) + '\n';
}

export function cardViews(cards: Cards): CardView[] {
  const m = cards.model;
  const e = cards.engine;
  const p = cards.platform;
  const model: CardView = {
    title: 'Model',
    question: 'the weights, one request at a time',
    unavailable: m.available ? null : m.reason,
    facts: m.available
      ? [
          { label: 'Single-stream rate', value: `${num(m.singleStreamTokS)} tok/s`, note: 'mean of per-request at concurrency 1 · measured' },
          { label: 'TTFT', value: `${num(m.ttftMsP50)} ms`, note: 'p50 · measured' },
          { label: 'TPOT', value: `${num(m.tpotMsP50, 2)} ms`, note: 'p50 · measured' },
          ...(m.clientBound === undefined ? [] : [{ label: 'Client-bound', value: 'timing not trusted', note: m.clientBound }]),
        ]
      : [],
  };
  const curve = e.curve
    .map((c) => `${c.level ?? c.concurrency}→${num(c.throughputTokS, 0)}${c.invalid ? ' (invalid)' : c.clientBound ? ' (client-bound)' : ''}`)
    .join(', ');
  // An open loop's levels are speeds or rates; its concurrency is only the peak in flight each reached.
  const axis = (e.axis ?? 'concurrency').toLowerCase();
  const engine: CardView = {
    title: 'Engine',
    question: `the serving stack, as ${axis} rises`,
    unavailable: e.peakThroughputTokS === null ? 'no valid level to take a peak from' : null,
    facts: [
      ...(e.peakThroughputTokS === null
        ? []
        : [
            { label: 'Peak throughput', value: `${num(e.peakThroughputTokS)} tok/s`, note: 'over valid levels · measured' },
            e.peakAt === undefined
              ? { label: 'Peak at concurrency', value: String(e.peakConcurrency), note: 'measured' }
              : { label: 'Peak at', value: e.peakAt ?? '—', note: `measured · ${e.peakConcurrency} in flight at most` },
            // The highest level tested gave the peak and the curve still rose: the peak is a floor, not saturation.
            ...(e.notSaturated ? [{ label: 'Not saturated', value: 'the peak is a floor', note: e.notSaturated }] : []),
          ]),
      { label: 'Scaling curve', value: curve || '—', note: `throughput tok/s by ${axis} · measured` },
      ...e.excluded.map((x) => ({
        label: `Left out: ${x.level === undefined ? `concurrency ${x.concurrency}` : `${axis} ${x.level}`}`,
        value: x.reason,
        note: 'not in the peak',
      })),
    ],
  };
  const mem = p.gpuMemMiBPeak === null ? p.gpuMemSource : `${num(p.gpuMemMiBPeak, 0)} of ${num(p.gpuMemMiBTotal, 0)} MiB`;
  const platform: CardView = {
    title: 'Platform',
    question: 'the hardware, and what a token costs on it',
    unavailable: null,
    facts: [
      { label: 'GPU', value: p.gpu ?? 'not recorded', note: p.gpu ? 'as reported or given' : 'not recorded' },
      { label: 'GPU memory', value: mem, note: p.gpuMemMiBPeak === null ? 'not recorded' : `peak · measured (${p.gpuMemSource})` },
      {
        label: 'Hourly cost',
        value: p.hourlyCostUsd === null ? 'not given' : `${usd(p.hourlyCostUsd)}/h`,
        note: p.hourlyCostUsd === null ? 'not recorded' : 'given',
      },
      ...(p.costPer1MOutputTokensUsd === null ? [] : [{ label: 'Cost per 1M output tokens', value: usd(p.costPer1MOutputTokensUsd), note: 'derived' }]),
      ...(p.savingPct === null
        ? []
        : [
            {
              label: `Against ${usd(p.baselineRateUsdPer1M)} per 1M`,
              value: `${num(Math.abs(p.savingPct))} % ${p.savingPct >= 0 ? 'lower' : 'higher'}`,
              note: 'derived',
            },
          ]),
      { label: 'Basis', value: p.basis, note: '' },
    ],
  };
  return [model, engine, platform];
}
