/**
 * Receipts of embeddings and rerank runs, end to end: two contract runs against
 * two simulators with different encoder costs → receipt create → publish →
 * verify, the figures being the endpoint's own and recomputed from the records;
 * and each forgery (an edited figure, an edited record, a stated number, mixed
 * endpoints) refused naming what was edited.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolingRecordsSha256, runPoolingContract, validateContract } from '../contract/index.js';
import type { PoolingResult } from '../core/index.js';
import { receiptSchema } from '../publish/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { poolingContract } from '../test-support/pooling-contract.js';
import { receiptCli } from '../test-support/receipt-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-pooling-receipt-'));
const { write, create: createPair, refused: refusedPair } = receiptCli(dir, 'a faster encoder');
const sims: SimServer[] = [];
let base: PoolingResult;
let fast: PoolingResult;
let rerank: PoolingResult;
const run = async (sim: SimServer, endpoint: 'embeddings' | 'rerank') =>
  runPoolingContract(validateContract(poolingContract(sim.url, endpoint), 'contract.yaml', dir), { url: sim.url, command: 'goodput run contract.yaml' });

beforeAll(async () => {
  // Two configurations of one model: the second encoder twice as fast per token.
  sims.push(await startSimulator({ port: 0, pooling: { dimension: 32, baseMs: 1, msPerInputToken: 0.02 } }));
  sims.push(await startSimulator({ port: 0, pooling: { dimension: 32, baseMs: 1, msPerInputToken: 0.01 } }));
  base = await run(sims[0] as SimServer, 'embeddings');
  fast = await run(sims[1] as SimServer, 'embeddings');
  rerank = await run(sims[1] as SimServer, 'rerank');
});
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
});

describe('a receipt of two embeddings runs', () => {
  it("publishes with the endpoint's own headlines, names its modality, and verifies", async () => {
    const out = join(dir, 'receipts', 'embeddings.json');
    const r = await createPair('embeddings', base, fast, out);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const receipt = receiptSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(receipt.modality).toBe('embeddings');
    expect(receipt.headlines.map((h) => h.factId)).toEqual([
      'optimized.peakItems',
      'optimized.peakInputTokens',
      'optimized.latencyP95',
      'optimized.costPer1MInput',
      'optimized.capacityAtSlo',
    ]);
    const fact = (id: string) => receipt.facts.find((f) => f.id === id);
    // Each figure is the run's own, recomputed from its records. The peak is the tool's: over levels that count, so
    // on a loaded machine, where our own client may bind every level, there is none and the receipt says so.
    for (const [cfg, res] of [
      ['baseline', base],
      ['optimized', fast],
    ] as const) {
      const single = res.levels.find((l) => l.concurrency === 1);
      expect(fact(`${cfg}.peakItems`)).toMatchObject({
        value: res.peak?.itemsPerS ?? null,
        unit: 'inputs/s',
        provenance: res.peak === null ? 'not recorded' : 'measured',
      });
      expect(fact(`${cfg}.peakInputTokens`)?.value).toBe(res.peak?.inputTokensPerS ?? null);
      expect(fact(`${cfg}.latencyP50`)?.value).toBe(single?.latencyMs?.p50);
      expect(fact(`${cfg}.latencyP99`)?.value).toBe(single?.latencyMs?.p99);
      expect(fact(`${cfg}.capacityAtSlo`)?.value).toBe(res.capacity?.itemsPerS);
      if (res.peak === null) expect(fact(`${cfg}.costPer1MInput`)?.value).toBeNull();
      else expect(fact(`${cfg}.costPer1MInput`)?.value).toBeCloseTo((2 / ((res.peak.inputTokensPerS as number) * 3600)) * 1e6, 9);
      expect(fact(`${cfg}.c2.itemsPerS`)?.value).toBe(res.levels.find((l) => l.concurrency === 2)?.itemsPerS);
    }
    expect(receipt.facts.some((f) => f.metric === 'peakThroughput' || f.metric === 'ttftSingle')).toBe(false);
    expect(receipt.limitations.join(' ')).toContain('This receipt measures the embeddings endpoint');
    const site = join(dir, 'site');
    const published = await cli(['publish', '--receipts', join(dir, 'receipts'), '--out', site]);
    expect(published.stderr).toBe('');
    expect(published.code).toBe(0);
    const dataset = JSON.parse(readFileSync(join(site, 'dataset.json'), 'utf8')) as {
      receipts: Array<{ modality: string; headlines: Array<{ number: string }> }>;
    };
    expect(dataset.receipts[0]?.modality).toBe('embeddings');
    expect(dataset.receipts[0]?.headlines.map((h) => h.number.split('/')[1])).toContain('optimized.peakInputTokens');
    const page = readFileSync(join(site, `${receipt.id}.html`), 'utf8');
    expect(page).toContain('Modality: <strong>embeddings</strong>');
    expect(page).toContain('Peak inputs/s');
    expect(page).toContain('Cost per 1M input tokens');
    const verified = await cli(['verify', site]);
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
  });
});

describe('a receipt of two rerank runs', () => {
  it('states documents/s and names its modality', async () => {
    const out = join(dir, 'rerank-receipts', 'rerank.json');
    const slow = await run(sims[0] as SimServer, 'rerank');
    const r = await createPair('rerank', slow, rerank, out);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const receipt = receiptSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(receipt.modality).toBe('rerank');
    expect(receipt.facts.find((f) => f.id === 'optimized.peakItems')).toMatchObject({
      label: 'Peak documents/s',
      unit: 'documents/s',
      value: rerank.peak?.itemsPerS ?? null,
    });
  });
});

describe('forgeries and mixed endpoints are refused, naming the field; nothing is written', () => {
  const refused = async (name: string, baseline: unknown, optimized: unknown, message: RegExp) =>
    expect(await refusedPair(name, baseline, optimized)).toMatch(message);

  it('an edited level figure', async () => {
    const forged = structuredClone(fast);
    (forged.levels[0] as { itemsPerS: number }).itemsPerS *= 2;
    await refused(
      'figure',
      base,
      forged,
      /evidence\.optimized: run 1 levels\[c=1\]\.itemsPerS: states [\d.]+, its records give [\d.]+ \[rule: records-reproduce\]/,
    );
  });

  it('a client-bound verdict edited, or judged with another budget', async () => {
    const level = (r: PoolingResult) =>
      r.levels[0] as PoolingResult['levels'][number] & { clientBound: NonNullable<PoolingResult['levels'][number]['clientBound']> };
    expect(level(fast).clientBound).toMatchObject({ budgetMs: 10 });
    const flipped = structuredClone(fast);
    level(flipped).clientBound.bound = !level(fast).clientBound.bound;
    await refused(
      'bound',
      base,
      flipped,
      /evidence\.optimized: run 1 levels\[c=1\]\.clientBound\.bound: states (true|false), its records give (true|false) \[rule: records-reproduce\]/,
    );
    const budget = structuredClone(fast);
    level(budget).clientBound.budgetMs = 0.001;
    await refused(
      'budget',
      base,
      budget,
      /evidence\.optimized: run 1 levels\[c=1\]\.clientBound\.budgetMs: states 0\.001; goodput run judges every level with 10 ms \[rule: contract-speaks\]/,
    );
  });

  it('an edited record, under its old hash and under a new one', async () => {
    const forged = structuredClone(fast);
    const rec = (forged.records ?? []).find((x) => !x.warmup && x.concurrency === 1);
    if (rec === undefined) throw new Error('no record');
    rec.endNs -= 1_000_000;
    await refused(
      'record',
      base,
      forged,
      /evidence\.optimized: run 1 recordsSha256: states [0-9a-f]{64}, its records hash to [0-9a-f]{64}; the records were edited \[rule: records-hash\]/,
    );
    forged.recordsSha256 = poolingRecordsSha256(forged.records ?? []);
    // The level's comparison with the server's own view no longer follows from its records; that is checked first.
    await refused(
      'rehashed',
      base,
      forged,
      /evidence\.optimized: run 1 levels\[c=1\]\.serverTruth\.comparison\[0\]\.client: states [\d.]+, its records and the server's deltas give [\d.]+ \[rule: server-truth\]/,
    );
    // Without the server's view (a server with no /metrics), the level itself does not follow from them.
    for (const l of forged.levels) delete l.serverTruth;
    await refused(
      'rehashed-no-server-view',
      base,
      forged,
      /evidence\.optimized: run 1 levels\[c=1\]\.latencyMs\.(p50|p95|p99|mean): states [\d.]+, its records give [\d.]+ \[rule: records-reproduce\]/,
    );
  });

  it('a record that carries another batch size than the contract', async () => {
    const forged = structuredClone(fast);
    const rec = (forged.records ?? [])[0];
    if (rec === undefined) throw new Error('no record');
    rec.items = 3;
    forged.recordsSha256 = poolingRecordsSha256(forged.records ?? []);
    await refused('items', base, forged, /evidence\.optimized: run 1 records\[0\]\.items: is 3; the contract sends 4 per request \[rule: records-reproduce\]/);
  });

  it('records that could not have been measured: two in flight at concurrency 1, one number twice, a warm-up dropped, a level dropped whole', async () => {
    const overlap = structuredClone(fast);
    const [first, second] = (overlap.records ?? []).filter((x) => !x.warmup && x.concurrency === 1);
    if (first === undefined || second === undefined) throw new Error('no records');
    second.sentNs = first.sentNs;
    overlap.recordsSha256 = poolingRecordsSha256(overlap.records ?? []);
    await refused(
      'overlap',
      base,
      overlap,
      /evidence\.optimized: run 1 records\[c=1\]: have 2 requests in flight at once; a closed loop at concurrency 1 never has more \[rule: in-flight\]/,
    );
    const twice = structuredClone(fast);
    const [one, other] = (twice.records ?? []).filter((x) => !x.warmup && x.concurrency === 2);
    if (one === undefined || other === undefined) throw new Error('no records');
    other.seq = one.seq;
    twice.recordsSha256 = poolingRecordsSha256(twice.records ?? []);
    await refused(
      'twice',
      base,
      twice,
      /evidence\.optimized: run 1 records\[c=2\] record seq \d+: appears twice in its level; every request has its own sequence number \[rule: unique-records\]/,
    );
    const cold = structuredClone(fast);
    cold.records = (cold.records ?? []).filter((x) => !(x.warmup && x.concurrency === 2));
    cold.recordsSha256 = poolingRecordsSha256(cold.records);
    await refused('cold', base, cold, /evidence\.optimized: run 1 records\[c=2\]: hold 0 warm-ups; the contract runs 1 per level \[rule: level-count\]/);
    const dropped = structuredClone(fast);
    dropped.levels = dropped.levels.filter((l) => l.concurrency !== 2);
    dropped.records = (dropped.records ?? []).filter((x) => x.concurrency !== 2);
    dropped.recordsSha256 = poolingRecordsSha256(dropped.records);
    await refused(
      'dropped',
      base,
      dropped,
      /evidence\.optimized: run 1 levels: are at concurrency 1; a complete run measures every level it asked for \(1, 2\) \[rule: level-count\]/,
    );
  });

  it('a stated number in the receipt file', async () => {
    const out = join(dir, 'stated', 'r.json');
    expect((await createPair('s', base, fast, out)).code).toBe(0);
    const text = readFileSync(out, 'utf8');
    const file = JSON.parse(text) as { facts: Array<{ id: string; value: number | null }> };
    // The peak when the run has one (a loaded machine can leave every level client-bound, and then no peak is stated), else the first measured figure.
    const stated =
      file.facts.find((f) => f.id === 'optimized.peakItems' && f.value !== null) ??
      file.facts.find((f) => f.id.startsWith('optimized.') && typeof f.value === 'number' && f.value > 0);
    if (stated === undefined || stated.value === null) throw new Error('no measured figure in the receipt');
    stated.value *= 3;
    writeFileSync(out, JSON.stringify(file));
    const r = await cli(['publish', '--receipts', join(dir, 'stated'), '--out', join(dir, 'stated-site')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`facts[${stated.id}].value: states `);
    expect(r.stderr).toMatch(/, the evidence gives [\d.]+ \[rule: stated-equals-recomputed\]/);
  });

  it('embeddings against rerank, either way round, naming both endpoints', async () => {
    await refused('mixed', base, rerank, /a receipt compares two runs of one endpoint: --baseline is an embeddings run, --optimized a rerank run/);
    await refused('mixed2', rerank, base, /a receipt compares two runs of one endpoint: --baseline is a rerank run, --optimized an embeddings run/);
  });

  it('a quality score offered with embeddings runs', async () => {
    const out = join(dir, 'never', 'q.json');
    const r = await createPair('q', base, fast, out, ['--quality', write('q.json', {})]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--quality: an embeddings receipt carries no quality score/);
  });
});
