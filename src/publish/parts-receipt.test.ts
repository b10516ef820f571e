/**
 * Receipts of servers built of parts, end to end: contracts that declare a
 * disaggregated server's pools (a router in front of a prefill and a decode
 * simulator) and a fleet (two simulators), run with `goodput run` against a
 * single simulator as the baseline. A receipt made now states fact set 5, each
 * level's pool rates and KV rates (declared: the pools' counters are the
 * result's word) and the targets' least and most throughput and slowest TTFT
 * (recomputed), with their notes, and verifies on a published site whose
 * evidence withholds every pool's and target's address; an edited pool rate
 * is refused naming it; a receipt of the same runs made before set 5 still
 * verifies, and set 5 stated of runs without parts is refused.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { WITHHELD_URL } from '../contract/index.js';
import { type SweepResult, sweepResultSchema } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { evidencePair } from '../test-support/evidence-fixture.js';
import { patient } from '../test-support/patience.js';
import { packReceipt } from '../test-support/receipt-dir.js';
import { recomputeReceipt } from './receipt-file.js';
import { verifySite } from './verify-site.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-parts-receipt-'));
const today = new Date().toISOString().slice(0, 10);
const FAST = { prefillBaseMs: 2, prefillMsPerToken: 0.01, decodeStepMs: 1, decodeMsPerExtraSeq: 0, dialect: 'vllm' as const, seed: 7 };
let sims: SimServer[] = [];
type Kind = 'base' | 'pools' | 'fleet';
const runs: Record<Kind, string> = { base: '', pools: '', fleet: '' };
const urls = { sims: [] as string[] };

function contract(kind: Kind, server: Record<string, unknown>): string {
  const file = join(dir, `${kind}.yaml`);
  writeFileSync(
    file,
    stringify({
      version: 1,
      server: { endpoint: 'chat', ...server },
      model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
      workload: { prompts: { kind: 'synthetic', tokens: 64 }, outputTokens: 24, requestsPerLevel: 8, warmup: 1 },
      load: { pattern: { kind: 'concurrency' }, levels: [1, 2] },
      slo: { ttftMs: { p: 95, max: 5000 } },
      hardware: { label: 'SimGPU 80GB', gpuHourlyUsd: 2.5, priceAsOf: '2026-11-01' },
    }),
  );
  return file;
}

beforeAll(async () => {
  const base = await startSimulator({ ...FAST, port: 0 });
  const other = await startSimulator({ ...FAST, decodeStepMs: 2, port: 0 });
  const prefill = await startSimulator({ ...FAST, port: 0, disagg: { role: 'prefill' } });
  const decode = await startSimulator({ ...FAST, port: 0, disagg: { role: 'decode', linkGbps: 10 } });
  const router = await startSimulator({ ...FAST, port: 0, disagg: { role: 'router', prefillUrl: prefill.url, decodeUrl: decode.url } });
  sims = [base, other, prefill, decode, router];
  urls.sims = sims.map((s) => s.url);
  const contracts: Record<Kind, string> = {
    base: contract('base', { url: base.url }),
    pools: contract('pools', {
      url: router.url,
      pools: {
        roles: [
          { role: 'prefill', url: `${prefill.url}/metrics`, gpus: 2 },
          { role: 'decode', url: `${decode.url}/metrics`, gpus: 6 },
        ],
        kvLinkGbps: 100,
      },
    }),
    fleet: contract('fleet', { url: other.url, fleet: { targets: [base.url], route: 'round-robin' } }),
  };
  // One run at a time: each measures its servers alone.
  for (const kind of ['base', 'pools', 'fleet'] as const) {
    runs[kind] = join(dir, `${kind}.json`);
    const r = await cli(['run', contracts[kind], '--json', runs[kind]]);
    expect(r.code, r.stderr).toBe(0);
  }
}, patient(120_000));
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
});

const read = (k: Kind): SweepResult => sweepResultSchema.parse(JSON.parse(readFileSync(runs[k], 'utf8')));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = Record<string, any>;
const POOL_FACT = /^optimized\.c\d+\.(prefillTokS|prefillTokSPerGpu|decodeTokS|decodeTokSPerGpu|kvGbps|kvTransferGbps)$/;
const FLEET_FACT = /^optimized\.c\d+\.(targetTokSMin|targetTokSMax|targetTtftP50Max)$/;
/** A simulator's address in an evidence file's contract, run, or any level's targets and pools (warnings may name a server, as they always have). */
function addresses(evidence: readonly string[]): string[] {
  return evidence.flatMap((text) => {
    const e = JSON.parse(text) as Doc;
    const where = JSON.stringify([e.contract, e.run, (e.levels as Doc[]).map((l) => [l.targets, l.disagg])]);
    return urls.sims.filter((u) => where.includes(u.replace('http://', '')));
  });
}
const create = (out: string, optimized: string, baseline = runs.base) =>
  cli(['receipt', 'create', '--baseline', baseline, '--optimized', optimized, '--method', 'a split server', '--out', out, '--allow-server-disagreement']);

/** Makes, publishes and verifies a receipt of the baseline against `kind`; its facts, page and dataset numbers. */
async function published(kind: 'pools' | 'fleet') {
  const out = join(dir, `new-${kind}`, 'receipt.json');
  const r = await create(out, runs[kind]);
  expect(r.code, r.stderr).toBe(0);
  const receipt = JSON.parse(readFileSync(out, 'utf8')) as Doc;
  const site = join(dir, `site-${kind}`);
  const p = await cli(['publish', '--receipts', out, '--out', site]);
  expect(p.code, p.stderr).toBe(0);
  expect((await verifySite(site, { today })).receipts).toBe(1);
  const page = readFileSync(join(site, `${receipt.id}.html`), 'utf8');
  const dataset = JSON.parse(readFileSync(join(site, 'dataset.json'), 'utf8')) as Doc;
  const numbers = new Map((dataset.receipts[0].numbers as Doc[]).map((n) => [n.id.slice(receipt.id.length + 1), n]));
  const evidence = readdirSync(join(dir, `new-${kind}`, 'evidence')).map((f) =>
    gunzipSync(readFileSync(join(dir, `new-${kind}`, 'evidence', f))).toString('utf8'),
  );
  return { receipt, facts: receipt.facts as Doc[], page, numbers, evidence };
}

describe('a receipt of a disaggregated server and of a fleet', () => {
  it("states fact set 5 with each level's pool rates and KV rates, their notes and standing, and withholds the pools' addresses", async () => {
    const { receipt, facts, page, numbers, evidence } = await published('pools');
    expect(receipt.factSetVersion).toBe(5);
    const pools = facts.filter((f) => POOL_FACT.test(f.id));
    expect(pools).toHaveLength(2 * 6);
    expect(facts.some((f) => /^baseline\.c\d+\.(prefill|decode|kv)/.test(f.id))).toBe(false);
    const level = (c: number) => read('pools').levels.find((l) => l.concurrency === c)?.disagg;
    for (const f of pools) {
      const [, c, metric] = f.id.split('.') as [string, string, string];
      const d = level(Number(c.slice(1)));
      const role = (name: string) => d?.roles.find((r) => r.role === name);
      const expected: Record<string, number | null | undefined> = {
        prefillTokS: role('prefill')?.promptTokensPerS,
        prefillTokSPerGpu: role('prefill')?.promptTokensPerSPerGpu,
        decodeTokS: role('decode')?.generatedTokensPerS,
        decodeTokSPerGpu: role('decode')?.generatedTokensPerSPerGpu,
        kvGbps: d?.kvTransfer?.levelGbps,
        kvTransferGbps: d?.kvTransfer?.transferGbps,
      };
      expect(f.value, f.id).toBe(expected[metric]);
      expect(f.value, f.id).toBeGreaterThan(0);
    }
    const fact = (id: string) => pools.find((f) => f.id === id) as Doc;
    const d1 = level(1);
    expect(fact('optimized.c1.prefillTokSPerGpu').value).toBeCloseTo(fact('optimized.c1.prefillTokS').value / 2, 9);
    expect(fact('optimized.c1.prefillTokSPerGpu').note).toMatch(
      new RegExp(
        `(^|; )the prefill pool's counters: ${d1?.roles[0]?.promptTokens?.toLocaleString('en-US')} prompt tokens over the \\d+\\.\\d\\d s measured window ÷ 2 GPUs declared$`,
      ),
    );
    expect(fact('optimized.c1.kvGbps').note).toMatch(
      /(^|; )[\d,]+ bytes in 8 transfers \(vllm-nixl, the decode pool\) over the \d+\.\d\d s measured window; the declared link carries 100 Gbit\/s$/,
    );
    expect(page).toContain('id="server-parts"');
    for (const f of pools) expect(page, f.id).toContain(`data-fact="${receipt.id}/${f.id}"`);
    expect(numbers.get('optimized.c1.decodeTokS')?.standing).toMatchObject({ by: 'declared' });
    expect(numbers.get('optimized.c1.decodeTokS')?.standing.what).toMatch(/states the decode pool's own counters, which its records cannot recompute/);
    const text = evidence.join('\n');
    expect(text).toContain(`"pools":{"roles":[{"role":"prefill","url":"${WITHHELD_URL}","gpus":2}`);
    expect(addresses(evidence)).toEqual([]);
  });

  it("states each fleet level's least and most served target and its slowest TTFT, recomputed, and withholds the targets' addresses", async () => {
    const { receipt, facts, page, numbers, evidence } = await published('fleet');
    expect(receipt.factSetVersion).toBe(5);
    const fleet = facts.filter((f) => FLEET_FACT.test(f.id));
    expect(fleet).toHaveLength(2 * 3);
    for (const f of fleet) {
      const [, c, metric] = f.id.split('.') as [string, string, string];
      const targets = read('fleet').levels.find((l) => l.concurrency === Number(c.slice(1)))?.targets ?? [];
      const tokS = targets.map((t) => t.throughputTokS);
      const expected: Record<string, number> = {
        targetTokSMin: Math.min(...tokS),
        targetTokSMax: Math.max(...tokS),
        targetTtftP50Max: Math.max(...targets.map((t) => t.ttftMs?.p50 ?? 0)),
      };
      expect(f.value, f.id).toBe(expected[metric]);
    }
    const c2 = read('fleet').levels.find((l) => l.concurrency === 2)?.targets ?? [];
    expect((fleet.find((f) => f.id === 'optimized.c2.targetTokSMin') as Doc).note).toMatch(
      new RegExp(`(^|; )throughput of targets 1–2 in the run's order: ${c2.map((t) => t.throughputTokS.toFixed(1)).join(' / ')} tok/s; requests 4 / 4$`),
    );
    expect(page).toContain('id="server-parts"');
    expect(numbers.get('optimized.c2.targetTtftP50Max')?.standing).toMatchObject({ by: 'recomputed' });
    expect(evidence.join('\n')).toContain(`"fleet":{"targets":["${WITHHELD_URL}#target-2"],"route":"round-robin"}`);
    expect(addresses(evidence)).toEqual([]);
  });

  it('refuses a pool rate edited in the evidence, naming it', async () => {
    const doc = JSON.parse(readFileSync(runs.pools, 'utf8')) as Doc;
    doc.levels[0].disagg.roles[0].promptTokensPerSPerGpu *= 2;
    const edited = join(dir, 'pools-edited.json');
    writeFileSync(edited, JSON.stringify(doc));
    const r = await create(join(dir, 'edited', 'receipt.json'), edited);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /evidence\.optimized: run 1 levels\[c=1\]\.disagg\.roles\[0\]\.promptTokensPerSPerGpu: states [\d.]+, its records give [\d.]+ \[rule: records-reproduce\]/,
    );
  });

  it('made before fact set 5 (set 3, as the goodput before it made it of these runs) still verifies without these figures; set 5 stated of runs without parts is refused', async () => {
    const out = join(dir, 'old', 'receipt.json');
    expect((await create(out, runs.pools)).code).toBe(0);
    const made = JSON.parse(readFileSync(out, 'utf8')) as Doc;
    const before = { ...made, factSetVersion: 3, facts: (made.facts as Doc[]).filter((f) => !POOL_FACT.test(f.id)) };
    const text = JSON.stringify(before, null, 2) + '\n';
    writeFileSync(out, text);
    const again = await recomputeReceipt(text, join(dir, 'old'), today);
    expect(again.ok ? [] : again.refusals).toEqual([]);
    const site = join(dir, 'site-old');
    expect((await cli(['publish', '--receipts', out, '--out', site])).code).toBe(0);
    expect((await verifySite(site, { today })).receipts).toBe(1);
    expect(readFileSync(join(site, `${made.id}.html`), 'utf8')).not.toContain('server-parts');
    const plain = packReceipt(join(dir, 'plain', 'receipt.json'), { ...evidencePair(), quality: null });
    expect(plain.receipt.factSetVersion).toBe(3);
    const claimed = await recomputeReceipt(JSON.stringify({ ...(JSON.parse(plain.text) as Doc), factSetVersion: 5 }), join(dir, 'plain'), today);
    expect(claimed.ok ? [] : claimed.refusals.map((x) => [x.field, x.rule])).toEqual([['factSetVersion', 'stated-equals-recomputed']]);
  });
});
