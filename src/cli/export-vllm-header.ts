/**
 * The setup and traffic keys of a vLLM result, and the file name vLLM gives it
 * (`{backend}-{rate}qps[-concurrency{C}]-{model}-{date}.json`). The run's arrival
 * kind decides `request_rate`, `burstiness` and `max_concurrency`: a closed loop
 * of C streams is vLLM's `--request-rate inf --max-concurrency C`.
 */
import type { LevelResult, SweepResult } from '../core/index.js';

/** `%Y%m%d-%H%M%S` of an ISO instant, UTC. */
export function vllmDate(iso: string): string {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}-${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}`;
}

/** Python's float repr, as vLLM's file names print a rate: 2 → "2.0". */
const pyFloat = (x: number) => (Number.isInteger(x) ? `${x}.0` : String(x));

/**
 * The keys vLLM writes before its figures, and its file name for them.
 * @param notes receives what has no vLLM equivalent.
 */
export function vllmHeader(result: SweepResult, level: LevelResult, value: number, notes: string[]): { keys: Record<string, unknown>; fileName: string } {
  const run = result.run;
  const backend = run.endpoint === 'chat' ? 'openai-chat' : 'openai';
  const arrival = run.arrival ?? { kind: 'concurrency' as const };
  let traffic: { request_rate: number | 'inf'; burstiness: number | 'inf' | null; max_concurrency: number | null };
  if (arrival.kind === 'concurrency') traffic = { request_rate: 'inf', burstiness: 1.0, max_concurrency: value };
  else if (arrival.kind === 'rate') {
    // vLLM's gamma gaps with burstiness 1 are Poisson; infinite burstiness gives constant gaps.
    traffic = { request_rate: value, burstiness: arrival.process === 'poisson' ? (arrival.burstiness ?? 1.0) : 'inf', max_concurrency: arrival.maxConcurrency };
  } else if (arrival.kind === 'burst') {
    notes.push(`burstiness: bursts of ${value} every ${arrival.intervalMs} ms have no vLLM equivalent; request_rate is their mean rate`);
    traffic = { request_rate: (value * 1000) / arrival.intervalMs, burstiness: null, max_concurrency: arrival.maxConcurrency };
  } else {
    const spanS = ((arrival.offsetsMs.at(-1) ?? 0) - (arrival.offsetsMs[0] ?? 0)) / 1000 / value;
    notes.push(`burstiness: a replay of trace ${arrival.source.file} at ${value}× has no vLLM equivalent; request_rate is its mean rate`);
    traffic = { request_rate: spanS > 0 ? (arrival.offsetsMs.length - 1) / spanS : 'inf', burstiness: null, max_concurrency: arrival.maxConcurrency };
  }
  const date = vllmDate(run.startedAt);
  const keys = {
    date,
    endpoint_type: backend,
    backend,
    label: null,
    model_id: run.model,
    // Counted by the server's own tokenizer (usage), the tokens are the model's tokenizer's.
    tokenizer_id: level.outputTokens.source === 'usage' ? run.model : null,
    num_prompts: level.requests,
    ...traffic,
  };
  const rate = traffic.request_rate === 'inf' ? 'inf' : pyFloat(traffic.request_rate);
  const concurrency = traffic.max_concurrency === null ? '' : `-concurrency${traffic.max_concurrency}`;
  return { keys, fileName: `${backend}-${rate}qps${concurrency}-${run.model.split('/').pop()}-${date}.json` };
}
