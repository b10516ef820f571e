// Free text by allow-list: each trick that states a figure in words, other
// scripts' digits, letters for digits, spacing or units is refused; names that
// need digits pass only as tokens that cannot carry a claim.
import { describe, expect, it } from 'vitest';
import { allowListProblem } from './allow-list.js';

describe('prose (titles, methods, changelog titles, provider names)', () => {
  const refused: Array<[string, RegExp]> = [
    ['three times faster', /"three", a number or unit in words/],
    ['Twice the throughput', /"twice"/],
    ['Latency halved with tuned batching', /"halved"/],
    ['An order of magnitude cheaper', /"magnitude"/],
    ['Faster by ٣ times', /numeral "٣"/],
    ['Faster by ３ times', /numeral "３"/],
    ['Faster by Ⅲ', /numeral "Ⅲ"/],
    ['Up 1OO%', /"1OO%"/],
    ['Up lOO%', /holds "%"/],
    ['4 0 per cent faster', /holds "4"/],
    ['A 3.2-fold gain', /"3\.2-fold"/],
    ['Serves 240 tps', /"240"/],
    ['Costs USD less', /"usd"/],
    ['Now 3x faster', /"3x"/],
    ['Now x3 faster', /"x3"/],
    ['Tuned FP8-3x build', /carries a figure \("3x"\)/],
    ['Served from gpu box at example dot com', /spells out an address/],
    ['Runs on localhost', /spells out an address/],
    ['Cut by a third', /"third"/],
  ];
  for (const [text, why] of refused) it(`refuses ${JSON.stringify(text)}`, () => expect(allowListProblem(text, 'prose')).toMatch(why));
  for (const text of [
    'FP8 dynamic quantization, tuned batching',
    'Llama-3.1-8B-Instruct with speculative decoding',
    'One model on one GPU: baseline as deployed',
    'Example Cloud',
  ])
    it(`passes ${JSON.stringify(text)}`, () => expect(allowListProblem(text, 'prose')).toBeNull());
});

describe('names, versions and hardware labels', () => {
  it('passes names and versions from real servers', () => {
    for (const n of ['Llama-3.1-8B-Instruct', 'demo-model', 'bf16', 'fp8', 'none', 'vllm', 'p5.48xlarge']) expect(allowListProblem(n, 'name'), n).toBeNull();
    for (const v of ['0.6.3.post1', '0.9.1', 'v1.2.3-rc1', 'b4567']) expect(allowListProblem(v, 'version'), v).toBeNull();
    for (const h of ['H100 SXM 80GB', 'Test GPU 24GB', 'SimGPU 80GB']) expect(allowListProblem(h, 'hardware'), h).toBeNull();
  });
  it('accepts a hardware label opening with its GPU count, and only there', () => {
    for (const h of ['8× H100 SXM 80GB', '2 x A100', '4xH100', '2× Test GPU 24GB']) expect(allowListProblem(h, 'hardware'), h).toBeNull();
    expect(allowListProblem('H100 8x', 'hardware')).toMatch(/"8x"/);
    expect(allowListProblem('8× 3x', 'hardware')).toMatch(/"8×"/);
    expect(allowListProblem('8× H100 3.2x', 'hardware')).toMatch(/"3\.2x"/);
    expect(allowListProblem('8× FP8', 'name')).toMatch(/"8×"/);
  });

  it('refuses a hardware label that carries a claim', () => {
    expect(allowListProblem('H100 3.2x faster', 'hardware')).toMatch(/"3\.2x"/);
    expect(allowListProblem('H100 twice as fast', 'hardware')).toMatch(/"twice"/);
    expect(allowListProblem('H100 40pct', 'hardware')).toMatch(/"40pct" is not a name token/);
    expect(allowListProblem('H100-40pct', 'hardware')).toMatch(/carries a figure \("40pct"\)/);
  });
  it('refuses a model name or version that is not one', () => {
    expect(allowListProblem('/mnt/models/demo', 'name')).toMatch(/not a name token/);
    expect(allowListProblem('a very fast new model', 'version')).toMatch(/at most three tokens/);
    expect(allowListProblem('3x', 'version')).toMatch(/not a version/);
    expect(allowListProblem('goodput-sim 0.1.0', 'version')).toBeNull();
    expect(allowListProblem('3x-better', 'name')).toMatch(/not a name token/);
  });
});
