import { describe, expect, it } from 'vitest';
import { rec } from '../test-support/records.js';
import { parsePrometheusText } from './prometheus-text.js';
import { describeSpecDecode, specDecodeLevel } from './spec-decode.js';
import { specDecodeSchema } from './telemetry-schema.js';

/** A vLLM exposition with the four speculative-decoding counters (`perPos` one per position). */
function vllm(drafts: number, draftTokens: number, accepted: number, perPos: number[]): ReturnType<typeof parsePrometheusText> {
  const l = 'engine="0",model_name="m"';
  return parsePrometheusText(
    [
      `vllm:spec_decode_num_drafts_total{${l}} ${drafts}`,
      `vllm:spec_decode_num_draft_tokens_total{${l}} ${draftTokens}`,
      `vllm:spec_decode_num_accepted_tokens_total{${l}} ${accepted}`,
      ...perPos.map((n, i) => `vllm:spec_decode_num_accepted_tokens_per_pos_total{${l},position="${i}"} ${n}`),
    ].join('\n'),
  );
}

/** A request streamed as one prefill chunk and then `steps` chunks of `k` tokens each. */
const streamed = (steps: number, k: number, warmup = false) =>
  rec({ chunksMs: Array.from({ length: steps + 1 }, (_, i) => 10 + i), chunkTokens: [1, ...new Array<number>(steps).fill(k)], warmup });

describe('speculative decoding over a level', () => {
  it("takes vLLM's counters' differences over the level: 1 + accepted / drafts, rate and per position", () => {
    const before = vllm(100, 400, 150, [70, 50, 20, 10]);
    const after = vllm(300, 1200, 650, [210, 160, 170, 110]);
    const out = specDecodeLevel(before, after, [streamed(25, 3), streamed(25, 4), streamed(5, 9, true)]);
    // 200 drafts, 800 draft tokens, 500 accepted: length 1 + 500/200 = 3.5, rate 500/800.
    expect(out?.specDecode).toEqual({
      source: 'vllm-counters',
      acceptanceLength: 3.5,
      acceptanceRate: 0.625,
      perPosition: [0.7, 0.55, 0.75, 0.5],
      counters: { drafts: 200, draftTokens: 800, acceptedTokens: 500 },
      // The warm-up is left out; the prefill's chunk is not a verification step.
      client: { tokensPerChunk: 3.5, chunks: 50, exact: true },
      agrees: true,
    });
    expect(out?.disagreement).toBeNull();
    expect(specDecodeSchema.safeParse(out?.specDecode).success).toBe(true);
    expect(describeSpecDecode(out?.specDecode as never)).toBe(
      'acceptance length 3.50 (rate 0.63; per position 0.70 0.55 0.75 0.50), ours 3.50 tokens per chunk',
    );
  });

  it('names both figures when our tokens per chunk disagree with the counters (a server streaming one token per event)', () => {
    const out = specDecodeLevel(vllm(0, 0, 0, []), vllm(100, 400, 177, []), [streamed(40, 1)]);
    expect(out?.specDecode.agrees).toBe(false);
    expect(out?.disagreement).toBe(
      'acceptance length: server 2.77 (1 + 177 accepted / 100 drafts), ours 1.00 tokens per chunk over 40 chunks; allowed ±5% (±0.14)',
    );
    expect(describeSpecDecode(out?.specDecode as never)).toBe('acceptance length 2.77 (rate 0.44), ours 1.00 tokens per chunk (disagrees)');
  });

  it("reads SGLang's spec_accept_length gauge where there are no vLLM counters", () => {
    const gauge = (v: number) =>
      parsePrometheusText(`sglang:spec_accept_length{model_name="m",tp_rank="0"} ${v}\nsglang:spec_accept_length{model_name="m",tp_rank="1"} ${v}\n`);
    const out = specDecodeLevel(gauge(0), gauge(2.5), [streamed(10, 2), streamed(10, 3)]);
    expect(out?.specDecode).toMatchObject({
      source: 'sglang-gauge',
      acceptanceLength: 2.5,
      acceptanceRate: null,
      perPosition: [],
      counters: null,
      agrees: true,
    });
    // 0 is SGLang's value without speculative decoding.
    expect(specDecodeLevel(gauge(0), gauge(0), [streamed(20, 1)])).toBeNull();
  });

  it('says nothing for a server without speculative decoding, or one that made no drafts during the level', () => {
    const plain = parsePrometheusText('vllm:generation_tokens_total{model_name="m"} 10\n');
    expect(specDecodeLevel(plain, plain, [streamed(5, 1)])).toBeNull();
    expect(specDecodeLevel(vllm(10, 40, 20, []), vllm(10, 40, 20, []), [streamed(5, 1)])).toBeNull();
  });

  it('has no client figures without measured chunks, and is bounded in its positions', () => {
    const s = specDecodeLevel(vllm(0, 0, 0, []), vllm(10, 40, 20, [8, 6, 4, 2]), [])?.specDecode;
    expect(s?.client).toBeNull();
    expect(s?.agrees).toBeNull();
    const tooMany = specDecodeSchema.safeParse({ ...s, perPosition: new Array<number>(65).fill(0.5) });
    expect(tooMany.success).toBe(false);
    expect(tooMany.error?.issues[0]?.message).toBe(
      'specDecode.perPosition 65 is above the limit of 64 draft positions of speculative decoding per verification step (vLLM --speculative-config num_speculative_tokens; goodput sim --spec-decode-positions)',
    );
  });
});
