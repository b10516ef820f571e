/**
 * `goodput decide` on a self-hosted simulator run and a provider-priced
 * simulator run: both costs per successful 1M and the break-even utilisation
 * and volume, the same in the terminal, the JSON and the report; two runs of
 * different workloads refused naming the field. The spend guard refuses a
 * priced run to a non-loopback address before any socket is opened.
 */
import net from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Decision, sweepResultSchema } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { BUILTIN_PROVIDER_PRICES } from '../core/index.js';
import { guardSpend } from './spend-guard.js';

let sim: SimServer;
const tables = new Map<string, string>();
const dir = mkdtempSync(join(tmpdir(), 'goodput-decide-'));
const prices = join(dir, 'prices.yaml');
const self = join(dir, 'self.json');
const provider = join(dir, 'provider.json');
const other = join(dir, 'other.json');
const quick = ['--levels', '1,2', '--requests-per-level', '4', '--warmup', '0', '--output-tokens', '16', '--prompt-tokens', '8', '--client-budget-ms', '1000'];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, prefillBaseMs: 2, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0 });
  writeFileSync(
    prices,
    [
      'tokenPrices:',
      '  - provider: simcloud',
      '    model: goodput-sim-1',
      '    inputUsdPer1M: 3',
      '    cachedInputUsdPer1M: 0.3',
      '    outputUsdPer1M: 15',
      '    sourceUrl: https://example.com/pricing',
      '    asOf: 2026-06-01',
      '',
    ].join('\n'),
  );
  const runs: Array<[string, string[]]> = [
    [self, ['--hourly-cost', '2']],
    [provider, ['--provider-prices', prices, '--provider-price', 'simcloud/goodput-sim-1']],
    [other, ['--provider-prices', prices, '--provider-price', 'simcloud/goodput-sim-1', '--output-tokens', '12']],
  ];
  for (const [json, flags] of runs) {
    const r = await cli(['sweep', '--url', sim.url, ...quick, ...flags, '--json', json]);
    expect(r.code, r.stderr).toBe(0);
    tables.set(json, r.stdout);
  }
}, 120_000);

afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('goodput decide', () => {
  it('records the price row in the provider run, and none in the self-hosted one', () => {
    const p = sweepResultSchema.parse(JSON.parse(readFileSync(provider, 'utf8')));
    expect(p.run.providerPrice).toEqual({
      provider: 'simcloud',
      model: 'goodput-sim-1',
      inputUsdPer1M: 3,
      cachedInputUsdPer1M: 0.3,
      outputUsdPer1M: 15,
      sourceUrl: 'https://example.com/pricing',
      asOf: '2026-06-01',
    });
    const s = JSON.parse(readFileSync(self, 'utf8'));
    expect('providerPrice' in s.run).toBe(false);
    expect('providerCost' in s).toBe(false);
    expect(tables.get(self)).not.toContain('Provider  ');
  });

  it('prints both costs per successful 1M and the break-even, the same in the terminal and the JSON', async () => {
    const text = await cli(['decide', self, provider]);
    expect(text.code, text.stderr).toBe(0);
    const json = await cli(['decide', self, provider, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const d = JSON.parse(json.stdout) as Decision;
    const cost = d.rows.find((r) => r[0] === 'cost per successful 1M output tokens');
    expect(cost?.[1]).toMatch(/^\$[\d.]+$/);
    expect(cost?.[2]).toMatch(/^\$[\d.]+$/);
    for (const [what, a, b] of d.rows)
      expect(text.stdout).toMatch(new RegExp(`${what.replace(/[/()]/g, '\\$&')}\\s+${a.replace(/[$.()/]/g, '\\$&')}\\s+${b.replace(/[$.()/]/g, '\\$&')}`));
    expect(text.stdout).toContain(`break-even: ${d.breakEven.verdict}`);
    for (const a of d.assumptions) expect(text.stdout).toContain(a);
    // The provider's cost is its spend over the output tokens of successful requests, input at the server's count.
    const p = sweepResultSchema.parse(JSON.parse(readFileSync(provider, 'utf8')));
    const l = p.levels.find((x) => x.concurrency === d.provider.level);
    const input = (l?.promptTokens.mean ?? NaN) * (l?.succeeded ?? NaN);
    const cached = (l?.cachedPromptTokens?.mean ?? 0) * (l?.succeeded ?? NaN);
    const spend = ((input - cached) * 3 + cached * 0.3 + (l?.outputTokensTotal ?? NaN) * 15) / 1e6;
    expect(d.provider.spendUsd).toBeCloseTo(spend, 12);
    expect(d.provider.costPer1MSuccessfulUsd).toBeCloseTo((spend / (l?.outputTokensTotal ?? NaN)) * 1e6, 9);
    // Break-even: the utilisation at which the self-hosted cost equals the provider's, and a month of the hourly cost at the provider's price.
    const selfFull = (2 / (d.self.goodputTokS * 3600)) * 1e6;
    expect(d.breakEven.utilisation).toBeCloseTo(selfFull / (d.provider.costPer1MSuccessfulUsd as number), 9);
    expect(d.breakEven.monthlyOutputTokens).toBeCloseTo(((2 * 730) / (d.provider.costPer1MSuccessfulUsd as number)) * 1e6, 3);
    // The run's own JSON and table state the same provider figure.
    expect(p.providerCost?.costPer1MSuccessfulUsd).toBe(d.provider.costPer1MSuccessfulUsd);
    expect(tables.get(provider)).toContain(
      `Provider  $${(d.provider.costPer1MSuccessfulUsd as number).toFixed(4)} per successful 1M output tokens at level ${d.provider.level}`,
    );
    expect(tables.get(provider)).toContain(
      'price simcloud/goodput-sim-1: $3 input, $0.3 cached input, $15 output per 1M tokens, as of 2026-06-01 (https://example.com/pricing)',
    );
    expect(d.breakEven.verdict).toMatch(/self-hosting is (cheaper above utilisation|dearer even at full use)/);
  });

  it('is a section of goodput report with the same rows, break-even and assumptions', async () => {
    const d = JSON.parse((await cli(['decide', self, provider, '--json'])).stdout) as Decision;
    const md = await cli(['report', self, provider, '--format', 'md']);
    expect(md.code, md.stderr).toBe(0);
    const cell = (s: string) => s.replace(/\|/g, '\\|');
    expect(md.stdout).toContain(`| Figure | ${d.self.label} | ${d.provider.label} |`);
    for (const row of d.rows) expect(md.stdout).toContain(`| ${row.map(cell).join(' | ')} |`);
    expect(md.stdout).toContain(`**break-even:** ${d.breakEven.verdict}`);
    for (const a of d.assumptions) expect(md.stdout).toContain(`- ${a}`);
    // Runs of different workloads: the report says why there is no decision instead of costing them.
    const refused = await cli(['report', self, other, '--format', 'md']);
    expect(refused.stdout).toContain('goodput decide: refused: the runs sent different workloads: outputTokens is 16 in SELF, 12 in PROVIDER');
    // A report of runs that are no decision pair has no such section.
    expect((await cli(['report', self, '--format', 'md'])).stdout).not.toContain('Self-host or provider');
    // Two priced runs are two providers compared, not a decision.
    const two = await cli(['report', provider, other, '--format', 'md']);
    expect(two.code, two.stderr).toBe(0);
    expect(two.stdout).not.toContain('Self-host or provider');
  });

  it('refuses two runs of different workloads, naming the field', async () => {
    const r = await cli(['decide', self, other]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('goodput decide: refused: the runs sent different workloads: outputTokens is 16 in SELF, 12 in PROVIDER');
  });

  it('refuses a provider run without a recorded price, and a self-hosted run without an hourly cost', async () => {
    const a = await cli(['decide', self, self.replace('self', 'self')]);
    expect(a.code).toBe(2);
    const b = await cli(['decide', provider, provider]);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/is named twice/);
    const c = await cli(['decide', other, self]);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('goodput decide: refused: PROVIDER: run.providerPrice is not set');
  });
});

describe('the spend guard', () => {
  it('refuses a priced run to a non-loopback server above --max-spend before any connection, naming the estimate', async () => {
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    const json = join(dir, 'refused.json');
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never routed, never this test's server.
    const args = [
      'sweep',
      '--url',
      'http://192.0.2.1:8000',
      '--levels',
      '64',
      '--requests-per-level',
      '20000',
      '--prompt-tokens',
      '100000',
      '--output-tokens',
      '256',
    ];
    const r = await cli([...args, '--provider-price', 'openai/gpt-4o-mini', '--json', json]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'estimated spend: 20001 requests × (100000 input + 256 output tokens, no cache) at openai/gpt-4o-mini: $0.15 input, $0.075 cached input, $0.6 output per 1M tokens, as of 2025-01-15 (https://openai.com/api/pricing/) = $303.09 (--max-spend $5.00)',
    );
    expect(r.stderr).toContain('--max-spend: refused, nothing sent: the estimated spend $303.09 is above --max-spend $5.00; pass --yes to send it');
    expect(connect).not.toHaveBeenCalled();
    expect(existsSync(json)).toBe(false);
    connect.mockRestore();
  });

  it('lets a run past the guard with --yes after printing its estimate, needs --yes when the prompts cannot be estimated, and never guards loopback', () => {
    const price = BUILTIN_PROVIDER_PRICES[0];
    const spec = {
      url: 'http://192.0.2.1:8000',
      model: 'm',
      levels: [4],
      requestsPerLevel: 100,
      warmup: 0,
      promptTokens: 1000,
      outputTokens: 1000,
      providerPrice: price,
    };
    const said: string[] = [];
    // 100 requests × (1000 × $0.15 + 1000 × $0.6) / 1e6 = $0.075: under the default $5.
    guardSpend(spec, { maxUsd: 5, yes: false }, (l) => said.push(l));
    expect(said.join('')).toMatch(
      /^estimated spend: 100 requests × \(1000 input \+ 1000 output tokens, no cache\) at .* = \$0\.0750 \(--max-spend \$5\.00\)\n$/,
    );
    expect(() => guardSpend(spec, { maxUsd: 0.05, yes: false }, () => undefined)).toThrow(
      '--max-spend: refused, nothing sent: the estimated spend $0.0750 is above --max-spend $0.05; pass --yes to send it',
    );
    expect(() => guardSpend(spec, { maxUsd: 0.05, yes: true }, () => undefined)).not.toThrow();
    const listed = { ...spec, prompts: { kind: 'list' as const, items: [{ text: 'hello' }] } };
    expect(() => guardSpend(listed, { maxUsd: 5, yes: false }, () => undefined)).toThrow(
      '--max-spend: refused, nothing sent: the spend of this run cannot be estimated before sending; pass --yes to send it',
    );
    expect(() => guardSpend(listed, { maxUsd: 5, yes: true }, () => undefined)).not.toThrow();
    const quiet: string[] = [];
    guardSpend({ ...spec, url: 'http://127.0.0.1:9', requestsPerLevel: 20_000 }, { maxUsd: 0, yes: false }, (l) => quiet.push(l));
    expect(quiet).toEqual([]);
  });

  it('refuses a price file citing an internal page, and a row not in the table', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(
      bad,
      'tokenPrices:\n  - { provider: x, model: m, inputUsdPer1M: 1, outputUsdPer1M: 2, sourceUrl: "http://10.0.0.5/prices", asOf: 2026-06-01 }\n',
    );
    const a = await cli(['sweep', '--url', sim.url, ...quick, '--provider-prices', bad, '--provider-price', 'x/m']);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain(
      `${bad}: tokenPrices.0.sourceUrl: sourceUrl cites a page at an IP address ("10.0.0.5"); a price's source is a public page a reader can open`,
    );
    const b = await cli(['sweep', '--url', sim.url, ...quick, '--provider-price', 'openai/gpt-9']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain("--provider-price: 'openai/gpt-9' is not in the table (it has openai/gpt-4o-mini, openai/gpt-4o, anthropic/claude-3-5-haiku)");
    const c = await cli(['sweep', '--url', sim.url, ...quick, '--provider-prices', prices]);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('--provider-prices: needs --provider-price provider/model');
    const e = await cli(['sweep', '--url', 'http://127.0.0.1:9', '--endpoint', 'embeddings', '--provider-price', 'openai/gpt-4o-mini']);
    expect(e.code).toBe(2);
    expect(e.stderr).toContain('--provider-price: does not apply to --endpoint embeddings');
    const d = await cli(['sweep', '--url', sim.url, ...quick, '--max-spend', '100001']);
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/--max-spend: .*100000/);
  });
});
