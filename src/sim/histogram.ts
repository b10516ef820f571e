/**
 * A Prometheus histogram (cumulative buckets, sum, count) rendered in the text
 * exposition format, with vLLM's bucket bounds for its latency metrics (seconds).
 */
import { SERVER_LATENESS_BUCKETS_S } from '../core/index.js';

/** vLLM's `time_to_first_token_seconds` buckets, s. */
export const TTFT_BUCKETS_S = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80, 160, 640, 2560];
/** vLLM's `inter_token_latency_seconds` buckets, s. */
export const ITL_BUCKETS_S = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80];
/** vLLM's request-latency buckets (e2e, queue), s. */
export const REQUEST_BUCKETS_S = [0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960, 1920, 7680];

/** Write-lateness buckets, s: core's, where a receipt check reads them too (a level's lateness p99 is one of these bounds). */
export const LATENESS_BUCKETS_S: readonly number[] = SERVER_LATENESS_BUCKETS_S;

/** Prometheus number text: integers as `N.0`, like prometheus_client. */
export function promNumber(v: number): string {
  if (v === Number.POSITIVE_INFINITY) return '+Inf';
  return Number.isInteger(v) ? `${v}.0` : String(v);
}

/** One labelled histogram series. */
export class Histogram {
  private readonly counts: number[];
  private sum = 0;
  private count = 0;

  /** @param bounds upper bucket bounds, ascending (the +Inf bucket is implied). */
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {
    this.counts = bounds.map(() => 0);
  }

  /** Records one observation (in the metric's unit, seconds here). */
  observe(value: number): void {
    this.sum += value;
    this.count++;
    for (let i = 0; i < this.bounds.length; i++) {
      if (value <= (this.bounds[i] as number)) this.counts[i] = (this.counts[i] as number) + 1;
    }
  }

  /** The HELP/TYPE lines and every series line; `labels` is `key="value"` text. */
  render(labels: string): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    this.bounds.forEach((b, i) => {
      lines.push(`${this.name}_bucket{${labels},le="${promNumber(b)}"} ${promNumber(this.counts[i] as number)}`);
    });
    lines.push(`${this.name}_bucket{${labels},le="+Inf"} ${promNumber(this.count)}`);
    lines.push(`${this.name}_count{${labels}} ${promNumber(this.count)}`);
    lines.push(`${this.name}_sum{${labels}} ${promNumber(this.sum)}`);
    return lines.join('\n');
  }
}
