/**
 * The simulator's `/metrics`: Prometheus text under vLLM's metric names, carrying the
 * simulator's TRUE timings (measured at the moment bytes are written), so a client
 * can compare what it measured with what the server did.
 */
import { SERVER_LATENESS_METRIC } from '../core/index.js';
import type { RoleMetrics } from './disagg-role.js';
import type { DraftModel } from './draft-model.js';
import { Histogram, ITL_BUCKETS_S, LATENESS_BUCKETS_S, REQUEST_BUCKETS_S, TTFT_BUCKETS_S, promNumber } from './histogram.js';

/** Live gauges read when `/metrics` is rendered. */
export interface MetricGauges {
  running: number;
  waiting: number;
  /** KV cache usage as a fraction 0..1 (vLLM's "perc" is a fraction). */
  kvUsage: number;
}

/** Counters and histograms of one simulator, labelled with `model_name`. */
export class SimMetrics {
  readonly ttft = new Histogram('vllm:time_to_first_token_seconds', 'Histogram of time to first token in seconds.', TTFT_BUCKETS_S);
  readonly itl = new Histogram('vllm:inter_token_latency_seconds', 'Histogram of inter-token latency in seconds.', ITL_BUCKETS_S);
  readonly e2e = new Histogram('vllm:e2e_request_latency_seconds', 'Histogram of e2e request latency in seconds.', REQUEST_BUCKETS_S);
  readonly queue = new Histogram('vllm:request_queue_time_seconds', 'Histogram of time spent in WAITING phase for request.', REQUEST_BUCKETS_S);
  /** Not vLLM's: the simulator's own scheduling noise, so a client can widen its allowance by what the server itself lost. */
  readonly lateness = new Histogram(
    SERVER_LATENESS_METRIC,
    'How late the simulator wrote each stream event against its own schedule, in seconds.',
    LATENESS_BUCKETS_S,
  );
  promptTokens = 0;
  generationTokens = 0;
  prefixQueries = 0;
  prefixHits = 0;
  private readonly success = new Map<string, number>();

  constructor(
    private readonly model: string,
    /** The draft model whose speculative-decoding counters /metrics shows; null without one (no such counters, as vLLM without speculation). */
    private readonly draft: DraftModel | null = null,
    /** The simulator's part in a disaggregated server; null without one. */
    readonly role: RoleMetrics | null = null,
  ) {}

  /** Counts a request that finished with `reason` ("stop", "length", "abort", "error"). */
  finished(reason: string): void {
    this.success.set(reason, (this.success.get(reason) ?? 0) + 1);
  }

  /** The whole exposition text. */
  render(g: MetricGauges): string {
    const l = `model_name=${JSON.stringify(this.model)}`;
    const gauge = (name: string, help: string, v: number): string => `# HELP ${name} ${help}\n# TYPE ${name} gauge\n${name}{${l}} ${promNumber(v)}`;
    const counter = (name: string, help: string, v: number): string =>
      `# HELP ${name}_total ${help}\n# TYPE ${name} counter\n${name}_total{${l}} ${promNumber(v)}`;
    const reasons = ['stop', 'length', 'abort', 'error', ...[...this.success.keys()].filter((r) => !['stop', 'length', 'abort', 'error'].includes(r))];
    const success = [
      '# HELP vllm:request_success_total Count of successfully processed requests.',
      '# TYPE vllm:request_success counter',
      ...reasons.map((r) => `vllm:request_success_total{finished_reason="${r}",${l}} ${promNumber(this.success.get(r) ?? 0)}`),
    ].join('\n');
    // A router computes nothing: it knows its requests and when their first and last bytes passed, not tokens or engine steps.
    if (this.role?.role === 'router') return [success, this.ttft.render(l), this.e2e.render(l)].join('\n') + '\n';
    return (
      [
        gauge('vllm:num_requests_running', 'Number of requests in model execution batches.', g.running),
        gauge('vllm:num_requests_waiting', 'Number of requests waiting to be processed.', g.waiting),
        gauge('vllm:kv_cache_usage_perc', 'KV-cache usage. 1 means 100 percent usage.', g.kvUsage),
        counter('vllm:prompt_tokens', 'Number of prefill tokens processed.', this.promptTokens),
        counter('vllm:generation_tokens', 'Number of generation tokens processed.', this.generationTokens),
        counter('vllm:prefix_cache_queries', 'Prefix cache queries, in terms of number of queried tokens.', this.prefixQueries),
        counter('vllm:prefix_cache_hits', 'Prefix cache hits, in terms of number of cached tokens.', this.prefixHits),
        success,
        this.ttft.render(l),
        this.itl.render(l),
        this.e2e.render(l),
        this.queue.render(l),
        this.lateness.render(l),
        ...(this.draft === null ? [] : [this.draft.render(l)]),
        ...(this.role === null ? [] : this.role.render(l)),
      ].join('\n') + '\n'
    );
  }
}
