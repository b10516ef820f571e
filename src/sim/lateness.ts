/**
 * How late the simulator's writes were against its own schedule: each emission
 * records (time its bytes were handed to the kernel − due time). A fixed-width
 * histogram keeps this O(1) per write; percentiles are exact to one bucket (0.05 ms).
 */

/** Bucket width, ms. */
const BUCKET_MS = 0.05;
/** Buckets cover 0 .. 100 ms; later writes fall in the overflow bucket (their max is kept). */
const BUCKETS = 2000;

/** Summary of write lateness, ms. Percentiles are upper bucket bounds. */
export interface LatenessSummary {
  count: number;
  meanMs: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
}

/** Records write lateness samples (ms). */
export class LatenessRecorder {
  private readonly counts = new Uint32Array(BUCKETS + 1);
  private count = 0;
  private sumMs = 0;
  private maxMs = 0;

  record(latenessMs: number): void {
    const v = Math.max(0, latenessMs);
    const i = Math.min(BUCKETS, Math.floor(v / BUCKET_MS));
    this.counts[i] = (this.counts[i] as number) + 1;
    this.count++;
    this.sumMs += v;
    if (v > this.maxMs) this.maxMs = v;
  }

  private quantile(p: number): number {
    const rank = Math.max(1, Math.ceil(p * this.count));
    let seen = 0;
    for (let i = 0; i <= BUCKETS; i++) {
      seen += this.counts[i] as number;
      if (seen >= rank) return i === BUCKETS ? this.maxMs : Math.min(this.maxMs, (i + 1) * BUCKET_MS);
    }
    return this.maxMs;
  }

  summary(): LatenessSummary {
    if (this.count === 0) return { count: 0, meanMs: null, p50Ms: null, p99Ms: null, maxMs: null };
    return { count: this.count, meanMs: this.sumMs / this.count, p50Ms: this.quantile(0.5), p99Ms: this.quantile(0.99), maxMs: this.maxMs };
  }
}
