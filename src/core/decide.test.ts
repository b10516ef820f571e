/**
 * The decision's arithmetic on hand-made levels (every figure worked by hand
 * in the comments), its refusals naming the field, and the provider price
 * rows' checks, each planted and its exact message read.
 */
import { describe, expect, it } from 'vitest';
import { DecideRefused, type DecideRun, decide, decisionLines } from './decide.js';
import { type ProviderPrice, providerPriceFileSchema, providerPriceSchema, selectProviderPrice, spendUsd } from './provider-price.js';
import { providerCost } from './provider-cost.js';
import type { LevelResult } from './result-schema.js';

const PRICE: ProviderPrice = {
  provider: 'simcloud',
  model: 'm',
  inputUsdPer1M: 3,
  cachedInputUsdPer1M: 0.3,
  outputUsdPer1M: 15,
  sourceUrl: 'https://example.com/pricing',
  asOf: '2026-06-01',
};

/** A level with only the fields costing reads: `goodputTokS` over `durationMs`, `succeeded` requests of `prompt` (of them `cached`) tokens. */
function level(o: {
  c: number;
  goodputTokS: number;
  succeeded: number;
  prompt: number | null;
  cached?: number;
  output: number;
  durationMs: number;
}): LevelResult {
  return {
    concurrency: o.c,
    invalid: false,
    requests: o.succeeded,
    succeeded: o.succeeded,
    failed: 0,
    durationMs: o.durationMs,
    throughputTokS: o.goodputTokS,
    outputTokensTotal: o.output,
    promptTokens: { mean: o.prompt, sent: 100 },
    cachedPromptTokens: { mean: o.cached ?? null },
    goodput: { tokensPerS: o.goodputTokS, share: 1 },
    ttftMs: { p50: 10, p95: 20, p99: 30 },
    tpotMs: { p50: 1, p95: 2 },
  } as unknown as LevelResult;
}

function run(o: { hourly?: number | null; price?: ProviderPrice; outputTokens?: number; slo?: unknown; levels: LevelResult[] }): DecideRun {
  return {
    run: {
      endpoint: 'chat',
      promptTokens: 100,
      outputTokens: o.outputTokens ?? 200,
      forceLength: true,
      thinking: 'off',
      slo: o.slo ?? null,
      hourlyCostUsd: o.hourly ?? null,
      ...(o.price ? { providerPrice: o.price } : {}),
    } as DecideRun['run'],
    levels: o.levels,
  };
}

// Provider: 10 requests of 100 prompt tokens (40 cached) and 2,000 output tokens, all meeting the SLO:
// spend = (600 × 3 + 400 × 0.3 + 2000 × 15) / 1e6 = $0.03192; per successful 1M = 0.03192 / 2000 × 1e6 = $15.96.
const provider = run({ price: PRICE, levels: [level({ c: 4, goodputTokS: 100, succeeded: 10, prompt: 100, cached: 40, output: 2000, durationMs: 20_000 })] });

describe('decide', () => {
  it('costs both sides per successful 1M and gives the break-even utilisation and monthly volume', () => {
    // Self: $2/h over 1,000 successful tok/s at full use = 2 / 3.6e6 × 1e6 = $0.5556 per 1M.
    const self = run({ hourly: 2, levels: [level({ c: 8, goodputTokS: 1000, succeeded: 40, prompt: 100, output: 8000, durationMs: 8000 })] });
    const d = decide({ label: 'self', result: self }, { label: 'provider', result: provider });
    expect(d.provider.spendUsd).toBeCloseTo(0.03192, 12);
    expect(d.provider.costPer1MSuccessfulUsd).toBeCloseTo(15.96, 9);
    expect(d.self.costPer1MSuccessfulUsd).toBeCloseTo(2 / 3.6, 9);
    // u* = 0.5556 / 15.96 = 0.0348; volume = 2 × 730 / 15.96 × 1e6 = 91.48 million.
    expect(d.breakEven.utilisation).toBeCloseTo(2 / 3.6 / 15.96, 9);
    expect(d.breakEven.monthlyOutputTokens).toBeCloseTo(((2 * 730) / 15.96) * 1e6, 3);
    expect(d.rows.at(-1)).toEqual(['cost per successful 1M output tokens', '$0.556', '$15.96']);
    expect(d.breakEven.verdict).toBe(
      'self-hosting is cheaper above utilisation 0.035, that is above 91.5 million successful output tokens a month (one server serves at most 2.63 billion)',
    );
    expect(decisionLines(d)).toContain(`break-even: ${d.breakEven.verdict}`);
  });

  it('says so when self-hosting is dearer even at full use', () => {
    // $1,000/h over 1,000 tok/s = $277.78 per 1M, above the provider's $15.96: u* = 17.4.
    const self = run({ hourly: 1000, levels: [level({ c: 8, goodputTokS: 1000, succeeded: 40, prompt: 100, output: 8000, durationMs: 8000 })] });
    const d = decide({ label: 'self', result: self }, { label: 'provider', result: provider });
    expect(d.breakEven.utilisation).toBeGreaterThan(1);
    expect(d.breakEven.verdict).toMatch(
      /^self-hosting is dearer even at full use: it breaks even at 45\.74 billion output tokens a month, above the 2\.63 billion/,
    );
  });

  it("takes a contract's hourly total and utilisation for the self-hosted side", () => {
    const self = {
      ...run({ levels: [level({ c: 8, goodputTokS: 1000, succeeded: 40, prompt: 100, output: 8000, durationMs: 8000 })] }),
      businessCost: {
        hourlyTotalUsd: 3,
        inputs: [
          { name: 'GPU: H100', value: 2.5, unit: '$/h', asOf: '2026-06-01' },
          { name: 'overhead: power', value: 0.5, unit: '$/h', asOf: '2026-06-01' },
          { name: 'utilisation (declared)', value: 0.5, unit: 'share', asOf: '2026-06-01' },
        ],
      } as DecideRun['businessCost'],
    };
    const d = decide({ label: 'self', result: self }, { label: 'provider', result: provider });
    // $3/h over 1,000 tok/s × 0.5 = 3 / 1.8e6 × 1e6 = $1.667 per 1M.
    expect(d.self.costPer1MSuccessfulUsd).toBeCloseTo(3 / 1.8, 9);
    expect(d.assumptions[1]).toContain(
      'GPU: H100 $2.5/h as of 2026-06-01; overhead: power $0.5/h as of 2026-06-01; utilisation (declared) 0.5 as of 2026-06-01',
    );
  });

  it('refuses two runs it cannot set side by side, naming the field', () => {
    const self = run({ hourly: 2, levels: provider.levels as LevelResult[] });
    const refused = (a: DecideRun, b: DecideRun) => {
      try {
        decide({ label: 'a', result: a }, { label: 'b', result: b });
      } catch (err) {
        expect(err).toBeInstanceOf(DecideRefused);
        return (err as Error).message;
      }
      return 'not refused';
    };
    expect(refused(run({ hourly: 2, outputTokens: 64, levels: self.levels as LevelResult[] }), provider)).toBe(
      'the runs sent different workloads: outputTokens is 64 in SELF, 200 in PROVIDER',
    );
    expect(refused(run({ hourly: 2, slo: { ttftMs: { p: 95, max: 500 } }, levels: self.levels as LevelResult[] }), provider)).toBe(
      'the runs were judged by different SLOs: run.slo is {"ttftMs":{"max":500,"p":95}} in SELF, null in PROVIDER',
    );
    expect(refused(self, self)).toBe(
      'PROVIDER: run.providerPrice is not set: run it with --provider-price provider/model so the price it was sent at is recorded',
    );
    expect(refused(provider, provider)).toBe('SELF: run.providerPrice is set: the first run is the self-hosted one');
    expect(refused(run({ levels: self.levels as LevelResult[] }), provider)).toBe(
      'SELF: run.hourlyCostUsd is not set: a self-hosted run needs its hourly cost (--hourly-cost, or a contract hardware price)',
    );
    expect(refused(self, run({ price: PRICE, levels: [] }))).toBe('PROVIDER: no valid level delivered goodput, so there is nothing to cost');
  });
});

describe('provider cost', () => {
  it('bills the input as sent when the server counted none, and cached input at the input rate when the row has no cached rate', () => {
    const { cachedInputUsdPer1M: _, ...noCached } = PRICE;
    expect(spendUsd(noCached, { input: 1000, cachedInput: 400, output: 0 })).toBeCloseTo(0.003, 12);
    const c = providerCost([level({ c: 1, goodputTokS: 50, succeeded: 2, prompt: null, output: 100, durationMs: 2000 })], 100, PRICE);
    expect(c?.inputFrom).toBe('sent');
    // 2 requests × 100 tokens as sent: (200 × 3 + 100 × 15) / 1e6.
    expect(c?.spendUsd).toBeCloseTo(0.0021, 12);
  });
});

describe('provider price rows', () => {
  const problem = (row: Record<string, unknown>) =>
    providerPriceSchema.safeParse({ ...PRICE, ...row }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  it('refuses a row that is not dated and cited from a public page, naming the field', () => {
    expect(problem({ sourceUrl: 'http://prices.corp/llm' })).toEqual([
      `sourceUrl: sourceUrl cites a page at an internal hostname ("prices.corp"); a price's source is a public page a reader can open`,
    ]);
    expect(problem({ sourceUrl: 'http://[::1]/p' })).toEqual([
      `sourceUrl: sourceUrl cites a page at an IP address ("[::1]"); a price's source is a public page a reader can open`,
    ]);
    expect(problem({ sourceUrl: 'ftp://example.com/p' })).toEqual(['sourceUrl: sourceUrl must be an http(s) URL of the page the price was read from']);
    expect(problem({ asOf: '2026-02-30' })).toEqual(['asOf: asOf "2026-02-30" is not a calendar date']);
    expect(problem({ asOf: 'June 2026' })).toEqual(['asOf: asOf must be the date the price was read, like 2026-06-01']);
    expect(problem({ outputUsdPer1M: -1 })).toEqual(['outputUsdPer1M: outputUsdPer1M must not be negative']);
    expect(problem({ inputUsdPer1M: 20_000 })).toEqual(['inputUsdPer1M: inputUsdPer1M above 10,000 USD per 1M tokens is no list price']);
    expect(problem({ model: 'gpt\u001b[31m' })).toEqual(['model: model must not hold control or format characters']);
    expect(problem({ discount: 0.5 })?.[0]).toMatch(/Unrecognized key: "discount"/);
    expect(providerPriceFileSchema.safeParse({ tokenPrices: [] }).error?.issues[0]?.message).toBe('tokenPrices must list at least one price');
  });

  it('selects one row by provider/model, or says which rows there are', () => {
    expect(selectProviderPrice([PRICE], 'simcloud/m')).toEqual({ ok: true, price: PRICE });
    expect(selectProviderPrice([PRICE], 'simcloud')).toEqual({ ok: false, message: "'simcloud' is not provider/model (e.g. openai/gpt-4o-mini)" });
    expect(selectProviderPrice([PRICE, PRICE], 'simcloud/m')).toEqual({
      ok: false,
      message: "'simcloud/m' has 2 rows in the table; keep one per provider/model",
    });
    expect(selectProviderPrice([PRICE], 'x/y')).toEqual({ ok: false, message: "'x/y' is not in the table (it has simcloud/m)" });
  });
});
