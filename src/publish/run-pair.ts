/**
 * Checks that two runs can share a receipt: each carries its contract and a
 * hash that recomputes (so its workload can be rebuilt), both ran the same
 * workload, and both ran on the same GPU. Every problem is one line; an empty
 * list means the pair is comparable.
 */
import { type Contract, contractHash, contractSchema, diffContracts, hashedPart } from '../contract/index.js';
import { canonicalJson, imageInputsLabel, type SweepResult } from '../core/index.js';
import { sha256Hex } from '../workload/index.js';
import type { ConfigurationKey } from './fact.js';

/** The contract sections that define the workload; the model, server and hardware may differ (they are the configuration). */
export const WORKLOAD_SECTIONS = ['workload', 'load', 'decoding', 'thinking', 'slo'] as const;
/** The workload's keys as a receipt prints them: the sections, and the endpoint asked (chat or completions). */
export const WORKLOAD_KEYS = [...WORKLOAD_SECTIONS, 'endpoint'] as const;

/** What the pair check reads of a result: a text sweep's, or an embeddings or rerank run's. */
export interface PairRun {
  contract?: Record<string, unknown> | null;
  contractHash?: string | null;
  run: { status: string; stopReason: string | null; startedAt: string; hourlyCostUsd: number | null };
  serverAccount?: unknown;
  recordsSha256?: string | null;
}

export interface CheckedRun<R extends PairRun = SweepResult> {
  result: R;
  contract: Contract;
  contractHash: string;
  workloadHash: string;
}

export type PairCheck<R extends PairRun = SweepResult> = { ok: true; baseline: CheckedRun<R>; optimized: CheckedRun<R> } | { ok: false; problems: string[] };

/** The workload sections as the contract hash sees them: a file known by its content hash without its path (a location, and private). */
export function workloadPart(c: Contract): Record<string, unknown> {
  const hashed = hashedPart(c) as Record<string, unknown>;
  // The endpoint decides what the server is asked (chat template or raw text): part of the workload.
  return { ...Object.fromEntries(WORKLOAD_SECTIONS.map((k) => [k, hashed[k]])), endpoint: c.server.endpoint };
}

/** What each chat request of the contract carried besides its text: its image settings and audio clip, in words; empty for text alone. */
export function mediaInputs(c: Contract): string[] {
  const images = (c.workload.images ?? []).flatMap((i) => (i === null ? [] : [imageInputsLabel(i)]));
  const audio = c.workload.audio === undefined ? [] : [`${c.workload.audio.seconds} s of ${c.workload.audio.format.toUpperCase()} audio per request`];
  return [...images, ...audio];
}

/** "text generation", or "text generation from text and images" when the requests carried media. */
export function textModality(inputs: readonly string[] | undefined): string {
  if (inputs === undefined || inputs.length === 0) return 'text generation';
  const kinds = [inputs.some((i) => / images? of /.test(i)) ? 'images' : null, inputs.some((i) => / audio per request$/.test(i)) ? 'audio' : null].filter(
    (k) => k !== null,
  );
  return `text generation from text and ${kinds.join(' and ')}`;
}

function checkOne<R extends PairRun>(side: ConfigurationKey, r: R): CheckedRun<R> | string[] {
  if (r.contract === null || r.contract === undefined) {
    return [`${side}: the run carries no contract, so its workload cannot be reconstructed (record runs with goodput run CONTRACT.yaml)`];
  }
  if (!r.contractHash) return [`${side}: the run carries no contractHash, so its contract cannot be verified`];
  const parsed = contractSchema.safeParse(r.contract);
  if (!parsed.success) {
    return parsed.error.issues.map((i) => `${side}: contract.${i.path.join('.')}: ${i.message}`);
  }
  const hash = contractHash(parsed.data);
  if (hash !== r.contractHash) return [`${side}: contractHash ${r.contractHash} does not match its contract (recomputed ${hash}); the result was edited`];
  if (r.run.status !== 'complete') return [`${side}: the run did not complete (${r.run.status}${r.run.stopReason ? `: ${r.run.stopReason}` : ''})`];
  // A receipt's figures are per concurrency level (single stream, peak over levels); open-loop levels have no such axis.
  if (parsed.data.load.pattern.kind !== 'concurrency') {
    return [`${side}: load.pattern is ${parsed.data.load.pattern.kind}; a receipt compares closed-loop concurrency sweeps (load.pattern kind: concurrency)`];
  }
  return { result: r, contract: parsed.data, contractHash: hash, workloadHash: sha256Hex(canonicalJson(workloadPart(parsed.data))) };
}

/** A receipt is one model: name and revision equal; precision, quantization, engine and settings are what may differ. */
export function modelProblem(b: Contract, o: Contract): string | null {
  const id = (c: Contract) => `${c.model.name} (revision ${c.model.revision})`;
  return id(b) === id(o)
    ? null
    : `the models differ: the baseline serves ${JSON.stringify(b.model.name)} at revision ${JSON.stringify(b.model.revision)} and the optimized run ${JSON.stringify(o.model.name)} at revision ${JSON.stringify(o.model.revision)}; a receipt compares two configurations of one model`;
}

export function checkRunPair<R extends PairRun = SweepResult>(baseline: R, optimized: R): PairCheck<R> {
  const b = checkOne('baseline', baseline);
  const o = checkOne('optimized', optimized);
  if (Array.isArray(b) || Array.isArray(o)) return { ok: false, problems: [...(Array.isArray(b) ? b : []), ...(Array.isArray(o) ? o : [])] };
  const problems = diffContracts(workloadPart(b.contract), workloadPart(o.contract)).map((d) => {
    const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));
    return `the workloads differ: ${d.path} is ${show(d.a)} on the baseline and ${show(d.b)} on the optimized run`;
  });
  const model = modelProblem(b.contract, o.contract);
  if (model !== null) problems.push(model);
  // Two runs of one contract can start in the same millisecond (in parallel, on two servers): their records tell them apart.
  const sameRecords =
    (b.result.recordsSha256 ?? null) === null || (o.result.recordsSha256 ?? null) === null || b.result.recordsSha256 === o.result.recordsSha256;
  if (b.contractHash === o.contractHash && b.result.run.startedAt === o.result.run.startedAt && sameRecords) {
    problems.push('the baseline and the optimized run are the same run; a receipt compares two measured configurations');
  }
  const accounts = [b, o].map((r) => (r.result.serverAccount === undefined ? null : canonicalJson(r.result.serverAccount)));
  if (accounts[0] !== null && accounts[0] === accounts[1]) {
    problems.push(
      'the baseline and the optimized server gave identical accounts of themselves (models, version, files, configuration): one configuration compared with itself',
    );
  }
  const rate = (r: CheckedRun<R>) => r.contract.hardware.gpuHourlyUsd ?? r.result.run.hourlyCostUsd;
  if (rate(b) !== rate(o)) {
    problems.push(
      `the hourly rates differ: $${rate(b) ?? 'none'}/h on the baseline and $${rate(o) ?? 'none'}/h on the optimized run; one GPU has one cost basis, or the cost change would credit a price change to the method`,
    );
  }
  if (b.contract.hardware.label !== o.contract.hardware.label) {
    problems.push(
      `the GPUs differ: hardware.label is ${JSON.stringify(b.contract.hardware.label)} on the baseline and ${JSON.stringify(o.contract.hardware.label)} on the optimized run; a receipt is one model on one GPU`,
    );
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, baseline: b, optimized: o };
}
