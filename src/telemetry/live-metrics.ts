/**
 * The run's own live figures in the Prometheus text format (0.0.4): what
 * `--serve-metrics` answers on GET /metrics while a run runs. Counters of
 * requests completed by outcome, failed, tokens; the level being sent and how
 * many of its measured requests are still to complete; TTFT and TPOT
 * histograms of measured successful requests. Records are counted as they
 * complete (on the thread that gathers them): a request still being sent is
 * inside `goodput_level_requests_left`, not yet in the counters. The level's
 * requests in flight are counted as the level's figure is (core in-flight.ts),
 * from the send and end instants of the records completed so far: at the latest
 * measured send they show, and their median and least so far. A request still
 * open is counted once it has ended (a thread's records come back in batches),
 * so a count can rise as later records arrive. Labels are our own fixed words
 * (outcome kinds, statistics), never a server's text.
 */
import { type InFlightRecord, type RequestRecord, inFlightAtSends, inFlightHeld, tpotMs, ttftMs } from '../core/index.js';

/** Bucket bounds, seconds: TTFT from 5 ms to a minute, TPOT from 1 ms to a second. */
const TTFT_BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const TPOT_BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.02, 0.035, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1];

class Histogram {
  readonly counts: number[];
  sum = 0;
  count = 0;
  constructor(readonly bounds: readonly number[]) {
    this.counts = bounds.map(() => 0);
  }
  observe(x: number): void {
    this.sum += x;
    this.count++;
    for (let i = 0; i < this.bounds.length; i++) if (x <= (this.bounds[i] as number)) this.counts[i] = (this.counts[i] ?? 0) + 1;
  }
  lines(name: string): string[] {
    const out = this.bounds.map((b, i) => `${name}_bucket{le="${b}"} ${this.counts[i]}`);
    return [...out, `${name}_bucket{le="+Inf"} ${this.count}`, `${name}_sum ${this.sum}`, `${name}_count ${this.count}`];
  }
}

/** A metric family: its help, type and sample lines. */
const family = (name: string, type: 'counter' | 'gauge' | 'histogram', help: string, samples: string[]): string =>
  `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${samples.join('\n')}\n`;

/** The live figures of one run, fed by its events and records. */
export class LiveMetrics {
  private readonly completed = new Map<string, number>();
  private failed = 0;
  private outputTokens = 0;
  private promptTokens = 0;
  private level = { concurrency: 0, requests: 0, done: 0 };
  private levelsDone = 0;
  private readonly ttft = new Histogram(TTFT_BOUNDS);
  private readonly tpot = new Histogram(TPOT_BOUNDS);
  /** The level's measured records' instants so far: its in-flight counts are taken from them when asked. */
  private sent: InFlightRecord[] = [];

  /** A level begins: its concurrency (or rate) and measured requests. */
  levelStart(concurrency: number, requests: number): void {
    this.level = { concurrency, requests, done: 0 };
    this.sent = [];
  }

  levelEnd(): void {
    this.levelsDone++;
  }

  /** One request completed (warm-ups are counted apart and kept out of the figures). */
  record(r: RequestRecord): void {
    const key = `${r.outcome.kind}\u0000${r.warmup}`;
    this.completed.set(key, (this.completed.get(key) ?? 0) + 1);
    if (r.warmup) return;
    this.level.done++;
    this.sent.push({ sendNs: r.sendNs, endNs: r.endNs, targetSendNs: r.targetSendNs });
    if (r.outcome.kind !== 'ok') {
      // Given up on purpose: in the outcome counter above, never a failure.
      if (r.outcome.kind !== 'cancelled') this.failed++;
      return;
    }
    this.outputTokens += r.outputTokens;
    this.promptTokens += r.promptTokens ?? 0;
    const t = ttftMs(r);
    if (t !== null) this.ttft.observe(t / 1000);
    const p = tpotMs(r);
    if (p !== null) this.tpot.observe(p / 1000);
  }

  /** The in-flight gauge by statistic; absent until a send past the level's first has completed. */
  private inFlightFamily(): string[] {
    const at = inFlightAtSends(this.sent);
    const held = inFlightHeld(this.sent, null);
    if (held === null || at.length === 0) return [];
    const latest = at.reduce((a, s) => (s.sendNs >= a.sendNs ? s : a));
    return [
      family(
        'goodput_level_in_flight',
        'gauge',
        "The level's requests open (sent, not ended) at its measured sends, from the records completed so far: at the latest, and the median and least.",
        [
          `goodput_level_in_flight{statistic="latest"} ${latest.open}`,
          `goodput_level_in_flight{statistic="p50"} ${held.median}`,
          `goodput_level_in_flight{statistic="min"} ${held.min}`,
        ],
      ),
    ];
  }

  /** The exposition, as GET /metrics answers it. */
  text(): string {
    const byOutcome = [...this.completed].map(([key, n]) => {
      const [outcome, warmup] = key.split('\u0000');
      return `goodput_requests_completed_total{outcome="${outcome}",warmup="${warmup}"} ${n}`;
    });
    const left = Math.max(0, this.level.requests - this.level.done);
    return [
      family('goodput_requests_completed_total', 'counter', 'Requests completed, by outcome; warm-ups apart.', byOutcome),
      family('goodput_requests_failed_total', 'counter', 'Measured requests that did not succeed.', [`goodput_requests_failed_total ${this.failed}`]),
      family('goodput_output_tokens_total', 'counter', 'Output tokens of measured successful requests.', [`goodput_output_tokens_total ${this.outputTokens}`]),
      family('goodput_prompt_tokens_total', 'counter', 'Prompt tokens the server reported for measured successful requests.', [
        `goodput_prompt_tokens_total ${this.promptTokens}`,
      ]),
      family('goodput_level_concurrency', 'gauge', 'The level being sent: its concurrency (or rate).', [`goodput_level_concurrency ${this.level.concurrency}`]),
      family('goodput_level_requests', 'gauge', 'Measured requests of the level being sent.', [`goodput_level_requests ${this.level.requests}`]),
      family('goodput_level_requests_left', 'gauge', 'Measured requests of the level not yet completed (in flight or still to send).', [
        `goodput_level_requests_left ${left}`,
      ]),
      ...this.inFlightFamily(),
      family('goodput_levels_completed_total', 'counter', 'Levels finished.', [`goodput_levels_completed_total ${this.levelsDone}`]),
      family('goodput_ttft_seconds', 'histogram', 'Time to first token of measured successful requests.', this.ttft.lines('goodput_ttft_seconds')),
      family(
        'goodput_tpot_seconds',
        'histogram',
        'Time per output token after the first, of measured successful requests.',
        this.tpot.lines('goodput_tpot_seconds'),
      ),
    ].join('');
  }
}
