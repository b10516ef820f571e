/**
 * A disaggregated server's pools by level, as two tables for the page's run
 * view and the report: each pool's own figures (tokens/s in all and per GPU,
 * queue and prefill times), and the KV cache moved between the pools beside the
 * time to first token split into the parts the pools report. Only levels with
 * pools have rows.
 */
import type { LevelResult } from '../../core/index.js';
import { num } from './format.js';

export const DISAGG_ROLE_HEADERS = [
  'Level',
  'Pool',
  'GPUs',
  'Prompt tok/s',
  'per GPU',
  'Generated tok/s',
  'per GPU',
  'Queue mean (ms)',
  'Prefill mean (ms)',
  'Requests',
  'Note',
] as const;

export const DISAGG_ROLE_CAPTION =
  "Each pool's own metrics over the level's measured window (differences of its counters): prompt tokens per second where prompts are computed, generated tokens per second where they are decoded, per GPU where the pool's GPUs were declared";

export const DISAGG_KV_HEADERS = [
  'Level',
  'KV moved (MB)',
  'Transfers',
  'Mean transfer (ms)',
  'Gbit/s over the level',
  'Gbit/s while transferring',
  'Link (Gbit/s)',
  'TTFT, ours (ms)',
  'Queue (ms)',
  'Prefill (ms)',
  'Transfer (ms)',
  'Other (ms)',
] as const;

export const DISAGG_KV_CAPTION =
  'KV cache moved from the prefill to the decode pool (where the engine counts it), and our mean time to first token split into the prefill pool’s queue and prefill times and the mean transfer; other is what is left (routing, the network, the first decode step)';

const label = (l: LevelResult): string => l.load?.label ?? `${l.concurrency} streams`;

/** One row per pool per level with pools, in level order. */
export function disaggRoleRows(levels: readonly LevelResult[]): string[][] {
  return levels.flatMap((l) =>
    (l.disagg?.roles ?? []).map((r) => [
      label(l),
      r.role,
      r.gpus === null ? '—' : String(r.gpus),
      num(r.promptTokensPerS, 0),
      num(r.promptTokensPerSPerGpu, 0),
      num(r.generatedTokensPerS, 0),
      num(r.generatedTokensPerSPerGpu, 0),
      num(r.queueMeanMs, 1),
      num(r.prefillMeanMs, 1),
      num(r.requests, 0),
      r.error ?? '',
    ]),
  );
}

/** One row per level whose pools reported a KV transfer or a part of the TTFT. */
export function disaggKvRows(levels: readonly LevelResult[]): string[][] {
  return levels.flatMap((l) => {
    const d = l.disagg;
    if (d === undefined || (d.kvTransfer === null && d.ttftSplit === null)) return [];
    const kv = d.kvTransfer;
    const s = d.ttftSplit;
    return [
      [
        label(l),
        num(kv === null || kv.bytes === null ? null : kv.bytes / 1e6, 2),
        num(kv?.transfers, 0),
        num(kv?.meanTransferMs, 2),
        num(kv?.levelGbps, 3),
        num(kv?.transferGbps, 3),
        num(kv?.linkGbps, 0),
        num(s?.ttftMs, 1),
        num(s?.queueMs, 1),
        num(s?.prefillMs, 1),
        num(s?.transferMs, 2),
        num(s?.otherMs, 1),
      ],
    ];
  });
}
