/**
 * Speculative decoding by level, as one table for the page's run view and the
 * report: the server's acceptance length (the headline), rate and per-position
 * acceptance beside our own tokens per chunk, and whether they agree. Only the
 * levels whose server reported speculative decoding have a row.
 */
import type { LevelResult, SpecDecode } from '../../core/index.js';
import { num } from './format.js';

export const SPEC_DECODE_HEADERS = ['Level', 'Acceptance length', 'Acceptance rate', 'Per position', 'Ours: tokens per chunk', 'Source', 'Agrees'] as const;

export const SPEC_DECODE_CAPTION =
  "Speculative decoding: the server's mean tokens per verification step (1 + accepted ÷ drafts over the level), beside the mean tokens per streamed chunk after each request's first";

/** Where each engine's figures come from, as the table names it. */
const SOURCE_WORDS: Readonly<Record<SpecDecode['source'], string>> = {
  'vllm-counters': 'vllm:spec_decode_* counters',
  'sglang-gauge': 'sglang:spec_accept_length gauge',
  trtllm: 'trtllm_spec_decode_* counters, acceptance length gauge',
};

/** One row per level with speculative-decoding figures, in level order. */
export function specDecodeRows(levels: readonly LevelResult[]): string[][] {
  return levels.flatMap((l) => {
    const s = l.specDecode;
    if (s === undefined) return [];
    return [
      [
        l.load?.label ?? `${l.concurrency} streams`,
        num(s.acceptanceLength, 2),
        num(s.acceptanceRate, 3),
        s.perPosition.length === 0 ? '—' : s.perPosition.map((p) => num(p, 2)).join(' '),
        s.client === null ? '—' : `${num(s.client.tokensPerChunk, 2)}${s.client.exact ? '' : ' (spread evenly)'}`,
        SOURCE_WORDS[s.source],
        s.agrees === null ? '—' : s.agrees ? 'yes' : 'no',
      ],
    ];
  });
}
