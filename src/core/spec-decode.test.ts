import { describe, expect, it } from 'vitest';
import { rec } from '../test-support/records.js';
import { parsePrometheusText } from './prometheus-text.js';
import { describeSpecDecode, specDecodeFromRecords, specDecodeLevel } from './spec-decode.js';
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

  it("reads TensorRT-LLM's counters over the level for the rate and its last iteration's gauge for the length", () => {
    const trt = (draft: number, accepted: number, length: number | null) =>
      parsePrometheusText(
        [
          `trtllm_spec_decode_num_draft_tokens_total{model_name="m",engine_type="trtllm"} ${draft}`,
          `trtllm_spec_decode_num_accepted_tokens_total{model_name="m",engine_type="trtllm"} ${accepted}`,
          ...(length === null ? [] : [`trtllm_spec_decode_acceptance_length{model_name="m",engine_type="trtllm"} ${length}`]),
        ].join('\n'),
      );
    const out = specDecodeLevel(trt(100, 40, 1.5), trt(500, 240, 2.5), [streamed(10, 2), streamed(10, 3)]);
    // 400 draft tokens and 200 accepted over the level: rate 0.5; the length is the gauge after the level.
    expect(out?.specDecode).toEqual({
      source: 'trtllm',
      acceptanceLength: 2.5,
      acceptanceRate: 0.5,
      perPosition: [],
      counters: null,
      client: { tokensPerChunk: 2.5, chunks: 20, exact: true },
      agrees: true,
    });
    expect(describeSpecDecode(out?.specDecode as never)).toBe(
      "acceptance length 2.50 (rate 0.50; TensorRT-LLM's trtllm_spec_decode_acceptance_length), ours 2.50 tokens per chunk",
    );
    expect(specDecodeSchema.safeParse(out?.specDecode).success).toBe(true);
    // Without its gauge there is no length to state; without drafts during the level, nothing.
    expect(specDecodeLevel(trt(100, 40, null), trt(500, 240, null), [streamed(10, 2)])).toBeNull();
    expect(specDecodeLevel(trt(100, 40, 2), trt(100, 40, 2), [streamed(10, 2)])).toBeNull();
    expect(specDecodeLevel(trt(0, 0, 1), trt(100, 10, 4), [streamed(40, 1)])?.disagreement).toBe(
      'acceptance length: server 4.00 (trtllm_spec_decode_acceptance_length), ours 1.00 tokens per chunk over 40 chunks; allowed ±5% (±0.20)',
    );
  });

  it("recomputes a stated level from its records: our chunks, their agreement and the counters' arithmetic; the counters are the result's word", () => {
    const records = [streamed(25, 3), streamed(25, 4), streamed(5, 9, true)];
    const stated = specDecodeLevel(vllm(100, 400, 150, [70, 50, 20, 10]), vllm(300, 1200, 650, [210, 160, 170, 110]), records)?.specDecode;
    if (stated === undefined) throw new Error('expected figures');
    expect(specDecodeFromRecords(stated, records)).toEqual(stated);
    // An edited length or estimate comes back as the records and the counters give it.
    const edited = { ...stated, acceptanceLength: 3.9, client: { tokensPerChunk: 3.9, chunks: 50, exact: true }, agrees: true };
    expect(specDecodeFromRecords(edited, records)).toEqual(stated);
    // Our chunks from other records disagree: the agreement is recomputed too.
    expect(specDecodeFromRecords(stated, [streamed(40, 1)])).toMatchObject({ acceptanceLength: 3.5, client: { tokensPerChunk: 1, chunks: 40 }, agrees: false });
    // A gauge's length cannot be redone: only our side is.
    const gauge = { ...stated, source: 'sglang-gauge' as const, counters: null, acceptanceRate: null, perPosition: [], acceptanceLength: 2 };
    expect(specDecodeFromRecords(gauge, records)).toEqual({ ...gauge, client: stated.client, agrees: false });
  });
});
