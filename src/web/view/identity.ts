/**
 * A run's identity: the one line that opens it (server, model, engine, GPU,
 * date, configuration hash) and the short label that names it on charts.
 */
import { isPoolingEndpoint, kindOfEndpoint, refusalOf, serves } from '../../core/index.js';
import type { PoolingRunSpec, RunDetail, RunSpec } from '../../store/index.js';
import { when } from './format.js';

/** Whether a stored run is an embeddings or rerank sweep (the page reads the store's types only, never its code). */
export const isPoolingSpec = (s: RunSpec | PoolingRunSpec): s is PoolingRunSpec => isPoolingEndpoint(s.endpoint);

/** Whether a stored run is of a kind the page does not draw (the capability matrix says so; its spec is kept as stored, told apart by its endpoint). */
export const isUndrawnSpec = (s: { endpoint: string }): boolean => !serves(kindOfEndpoint(s.endpoint), 'page');

/** Why the page does not draw a run of `s`'s kind, in the capability matrix's words; null for a kind it draws. */
export const undrawnReason = (s: { endpoint: string }): string | null =>
  isUndrawnSpec(s) ? refusalOf(kindOfEndpoint(s.endpoint), 'page', { endpoint: s.endpoint }) : null;

/** FNV-1a over the workload and target: the same configuration gets the same 8 hex digits. */
export function configHash(r: Pick<RunDetail, 'spec' | 'targetUrl' | 'model'>): string {
  const s = r.spec;
  const text = JSON.stringify(
    isPoolingSpec(s)
      ? [r.targetUrl, r.model, s.endpoint, s.itemsPerRequest, s.itemTokens, s.queryTokens, s.requestsPerLevel, s.warmup, s.seed]
      : [r.targetUrl, r.model, s.endpoint, s.outputTokens, s.promptTokens, s.thinking, s.forceLength, s.requestsPerLevel, s.warmup, s.temperature, s.seed],
  );
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

export function identityLine(r: RunDetail): string {
  const e = r.runInfo?.engine ?? r.pooling?.result?.run.engine ?? null;
  const engine = e ? `${e.name}${e.version ? ` ${e.version}` : ''}` : null;
  const gpu = r.cards?.platform.gpu ?? (isPoolingSpec(r.spec) ? null : r.spec.gpuLabel) ?? 'GPU not recorded';
  return [r.serverName ?? r.targetUrl, r.model ?? 'model not known', engine ?? 'engine not recorded', gpu, when(r.startedAt), `config ${configHash(r)}`].join(
    ' · ',
  );
}

/** "run 3 · 256 tok · thinking off"; "run 4 · embeddings 16 × 128 tok". */
export function runLabel(r: Pick<RunDetail, 'id' | 'spec'>): string {
  if (isUndrawnSpec(r.spec)) return `run ${r.id} · ${r.spec.endpoint}`;
  if (isPoolingSpec(r.spec)) return `run ${r.id} · ${r.spec.endpoint} ${r.spec.itemsPerRequest} × ${r.spec.itemTokens} tok`;
  return `run ${r.id} · ${r.spec.outputTokens} tok · thinking ${r.spec.thinking ? 'on' : 'off'}`;
}
