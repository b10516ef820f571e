// A real receipt over two in-process simulators, the baseline started with
// max batch 1: the receipt lays both servers' configurations side by side,
// flags the handicapped baseline beside the headlines and in its limitations
// with no hand edit, publishes, and recomputes; the recorded configuration
// edited in the evidence (re-hashed) is refused naming it. Embeddings runs get
// the same section from the same code; embeddings runs recorded before pooling
// runs recorded a configuration still make a receipt without one.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runContract, runPoolingContract, validateContract } from '../contract/index.js';
import type { PoolingResult, SweepResult } from '../core/index.js';
import { poolingContract } from '../test-support/pooling-contract.js';
import { goodReceipt } from '../test-support/receipt-dir.js';
import { useSimulators } from '../test-support/simulators.js';
import { buildReceipt } from './build-receipt.js';
import { packEvidence } from './evidence-files.js';
import { NO_PRICES } from './prices.js';
import { publishSite } from './publish-site.js';
import { recomputeReceipt, receiptFile } from './receipt-file.js';
import { publicResult } from './receipt-kinds.js';
import type { Receipt } from './receipt-schema.js';

const sims = useSimulators({ prefillBaseMs: 2, prefillMsPerToken: 0, decodeMsPerExtraSeq: 0 });
const root = mkdtempSync(join(tmpdir(), 'goodput-receipt-config-'));
const TODAY = new Date().toISOString().slice(0, 10);

const contract = (url: string, quantization: string) =>
  validateContract(
    {
      version: 1,
      server: { url, endpoint: 'chat' },
      model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization },
      workload: { prompts: { kind: 'synthetic', tokens: 16 }, outputTokens: 8, cache: { kind: 'cold' }, requestsPerLevel: 4, warmup: 1 },
      decoding: { temperature: 0, topP: 1, seed: 42, ignoreEos: true },
      thinking: 'off',
      load: { pattern: { kind: 'concurrency' }, levels: [1, 2] },
      slo: { ttftMs: { p: 95, max: 2000 } },
      hardware: { label: 'SimGPU 80GB', gpuHourlyUsd: 2.5, priceAsOf: TODAY },
    },
    'test contract',
    process.cwd(),
  );

/** The receipt file in `dir` stating `receipt` over these evidence files. */
function write<R extends SweepResult | PoolingResult>(dir: string, receipt: Receipt, sides: { baseline: R; optimized: R }): string {
  mkdirSync(join(dir, 'evidence'), { recursive: true });
  const b = packEvidence(publicResult(sides.baseline));
  const o = packEvidence(publicResult(sides.optimized));
  for (const p of [b, o]) writeFileSync(join(dir, p.path), p.gz);
  const text = JSON.stringify(receiptFile(receipt, { baseline: b.sha256, optimized: o.sha256, quality: null }), null, 2) + '\n';
  writeFileSync(join(dir, 'r.json'), text);
  return text;
}

describe('server configurations on a receipt', () => {
  it('a baseline at max batch 1 is flagged as handicapped without a hand edit; its configuration edited in the evidence is refused', async () => {
    const base = await sims({ maxBatch: 1, decodeStepMs: 4 });
    const opt = await sims({ decodeStepMs: 2 });
    const baseline = await runContract(contract(base.url, 'none'), { command: 'test' });
    const optimized = await runContract(contract(opt.url, 'fp8'), { command: 'test' });
    expect(baseline.serverAccount?.configuration?.settings).toContainEqual({ name: 'profile.maxBatch', value: 1 });
    expect(baseline.clientMachine).toMatch(/Node \d+/);

    const built = buildReceipt({ baseline, optimized, quality: null, method: 'FP8 quantization', generator: '0.1.0' });
    if (!built.ok) throw new Error(built.problems.join('\n'));
    const r = built.receipt;
    expect(r.serverConfiguration?.handicaps).toEqual(['handicapped baseline: max batch 1 (engine default 256)']);
    expect(r.serverConfiguration?.sources).toEqual({
      baseline: "the goodput simulator's configuration route",
      optimized: "the goodput simulator's configuration route",
    });
    expect(r.serverConfiguration?.rows).toContainEqual({ setting: 'max batch', baseline: '1', optimized: '256', differs: true });
    expect(r.serverConfiguration?.rows).toContainEqual({ setting: 'context tokens', baseline: '32768', optimized: '32768', differs: false });
    expect(r.limitations).toContainEqual(
      expect.stringMatching(/^handicapped baseline: max batch 1 \(engine default 256\): the baseline's server reported profile\.maxBatch 1/),
    );
    expect(r.limitations).toContainEqual(
      expect.stringMatching(
        /configured differently, as each reported it: max batch 1 on the baseline, 256 optimized; decode step ms 4 on the baseline, 2 optimized/,
      ),
    );

    const dir = join(root, 'good');
    const text = write(dir, r, { baseline, optimized });
    expect(await recomputeReceipt(text, dir, TODAY)).toMatchObject({ ok: true });

    const site = join(root, 'site');
    const published = await publishSite({ receipts: [r], prices: NO_PRICES, outDir: site, generator: '0.1.0', today: TODAY });
    expect(published.ok, JSON.stringify(published)).toBe(true);
    const page = readFileSync(join(site, `${r.id}.html`), 'utf8');
    expect(page).toMatch(
      /<h2>Headline stats<\/h2><p class="handicap" id="handicaps"><strong>Limitation:<\/strong> handicapped baseline: max batch 1 \(engine default 256\)/,
    );
    expect(page).toMatch(/<tr class="differs"><th scope="row">max batch<\/th><td data-label="Baseline">1<\/td><td data-label="Optimized">256<\/td>/);
    expect(readFileSync(join(site, 'index.html'), 'utf8')).toContain(
      '<strong class="handicap">handicapped baseline: max batch 1 (engine default 256)</strong>',
    );
    const dataset = JSON.parse(readFileSync(join(site, 'dataset.json'), 'utf8')) as { receipts: Array<{ serverConfiguration?: unknown }> };
    expect(dataset.receipts[0]?.serverConfiguration).toEqual(r.serverConfiguration);

    // The publisher edits the recorded configuration (max batch 256) and re-hashes the evidence; the receipt still states the run's.
    const account = baseline.serverAccount as NonNullable<SweepResult['serverAccount']>;
    const configuration = account.configuration as NonNullable<typeof account.configuration>;
    const edited: SweepResult = {
      ...baseline,
      serverAccount: {
        ...account,
        configuration: { ...configuration, settings: configuration.settings.map((s) => (s.name === 'profile.maxBatch' ? { ...s, value: 256 } : s)) },
      },
    };
    const forged = join(root, 'forged');
    const again = await recomputeReceipt(write(forged, r, { baseline: edited, optimized }), forged, TODAY);
    const messages = again.ok ? [] : again.refusals.map((x) => x.message);
    expect(messages, messages.join('\n')).toContainEqual(
      expect.stringMatching(/^serverConfiguration\.rows\[\d+\]\.baseline: states "1".*\[rule: stated-equals-recomputed\]$/),
    );
    expect(messages).toContainEqual(expect.stringMatching(/^serverConfiguration\.handicaps.*\[rule: stated-equals-recomputed\]$/));

    // The same edit followed by a full rebuild with goodput's own code is consistent evidence: no signature stands behind it,
    // so the configuration it shows stands as the publisher's word, and the page says so.
    const rebuilt = buildReceipt({ baseline: edited, optimized, quality: null, method: 'FP8 quantization', generator: '0.1.0' });
    if (!rebuilt.ok) throw new Error(rebuilt.problems.join('\n'));
    expect(rebuilt.receipt.serverConfiguration?.handicaps).toEqual([]);
    const rebuiltSite = join(root, 'rebuilt-site');
    expect((await publishSite({ receipts: [rebuilt.receipt], prices: NO_PRICES, outDir: rebuiltSite, generator: '0.1.0', today: TODAY })).ok).toBe(true);
    const standing = (JSON.parse(readFileSync(join(rebuiltSite, 'dataset.json'), 'utf8')) as { receipts: Array<{ standing: Record<string, unknown> }> })
      .receipts[0]?.standing;
    expect(standing?.serverConfiguration).toEqual({ by: 'declared', what: 'declared by the publisher, not signed by a measurer (the run is not signed)' });
    expect(readFileSync(join(rebuiltSite, `${rebuilt.receipt.id}.html`), 'utf8')).toContain(
      '<li id="configuration-standing">Server configuration: declared by the publisher, not signed by a measurer (the run is not signed)</li>',
    );

    // Leaving the section out of the stated receipt does not drop the flag either.
    const { serverConfiguration: _dropped, ...without } = r;
    const omitted = join(root, 'omitted');
    const left = await recomputeReceipt(write(omitted, without, { baseline, optimized }), omitted, TODAY);
    expect(left.ok ? [] : left.refusals.map((x) => x.message)).toEqual([
      "serverConfiguration: is absent, but the evidence gives both servers' configurations (1 handicap(s) flagged); a receipt states them [rule: stated-equals-recomputed]",
    ]);
  }, 60_000);

  it('an embeddings baseline at max batch 1 is flagged the same way; pooling runs recorded before configurations make a receipt without the section', async () => {
    const base = await sims({ maxBatch: 1, pooling: { dimension: 8, baseMs: 2, msPerInputToken: 0 } });
    const opt = await sims({ pooling: { dimension: 8, baseMs: 1, msPerInputToken: 0 } });
    const run = (url: string) =>
      runPoolingContract(
        validateContract(
          poolingContract(url, 'embeddings', (c) => {
            c.load.levels = [1];
          }),
          'test contract',
          process.cwd(),
        ),
        { command: 'test' },
      );
    const [baseline, optimized] = [await run(base.url), await run(opt.url)];
    expect(baseline.serverAccount?.configuration?.settings).toContainEqual({ name: 'profile.maxBatch', value: 1 });
    expect(baseline.clientMachine).toMatch(/Node \d+/);

    const built = buildReceipt({ baseline, optimized, quality: null, method: 'a faster encoder', generator: '0.1.0' });
    if (!built.ok) throw new Error(built.problems.join('\n'));
    const r = built.receipt;
    expect(r.modality).toBe('embeddings');
    expect(r.serverConfiguration?.handicaps).toEqual(['handicapped baseline: max batch 1 (engine default 256)']);
    expect(r.serverConfiguration?.rows).toContainEqual({ setting: 'max batch', baseline: '1', optimized: '256', differs: true });
    expect(r.limitations).toContainEqual(
      expect.stringMatching(/^handicapped baseline: max batch 1 \(engine default 256\): the baseline's server reported profile\.maxBatch 1/),
    );
    const dir = join(root, 'pooling');
    expect(await recomputeReceipt(write(dir, r, { baseline, optimized }), dir, TODAY)).toMatchObject({ ok: true });

    const account = baseline.serverAccount as NonNullable<PoolingResult['serverAccount']>;
    const configuration = account.configuration as NonNullable<typeof account.configuration>;
    const edited: PoolingResult = {
      ...baseline,
      serverAccount: {
        ...account,
        configuration: { ...configuration, settings: configuration.settings.map((s) => (s.name === 'profile.maxBatch' ? { ...s, value: 256 } : s)) },
      },
    };
    const forged = join(root, 'pooling-forged');
    const again = await recomputeReceipt(write(forged, r, { baseline: edited, optimized }), forged, TODAY);
    const messages = again.ok ? [] : again.refusals.map((x) => x.message);
    expect(messages, messages.join('\n')).toContainEqual(
      expect.stringMatching(/^serverConfiguration\.rows\[\d+\]\.baseline: states "1".*\[rule: stated-equals-recomputed\]$/),
    );

    // Runs of an earlier version carry no account: no section, and the receipt recomputes.
    const older = (x: PoolingResult): PoolingResult => {
      const { serverAccount: _a, clientMachine: _m, ...rest } = x;
      return rest;
    };
    const plain = buildReceipt({ baseline: older(baseline), optimized: older(optimized), quality: null, method: 'a faster encoder', generator: '0.1.0' });
    if (!plain.ok) throw new Error(plain.problems.join('\n'));
    expect(plain.receipt.serverConfiguration).toBeUndefined();
    expect(plain.receipt.limitations.some((l) => /handicapped|configured differently|reported no figures of its own/.test(l))).toBe(false);
    // A run of this version against a server with no /metrics says so, as a text run does.
    const unmetered = (x: PoolingResult): PoolingResult => ({ ...x, levels: x.levels.map(({ serverTruth: _s, ...l }) => l) });
    expect(r.limitations.some((l) => /reported no figures of its own/.test(l))).toBe(false);
    const bare = buildReceipt({ baseline: unmetered(baseline), optimized, quality: null, method: 'a faster encoder', generator: '0.1.0' });
    if (!bare.ok) throw new Error(bare.problems.join('\n'));
    expect(bare.receipt.limitations).toContain(
      "baseline: the server reported no figures of its own (no /metrics), so no number here is checked against the server's account.",
    );
    const oldDir = join(root, 'pooling-old');
    expect(await recomputeReceipt(write(oldDir, plain.receipt, { baseline: older(baseline), optimized: older(optimized) }), oldDir, TODAY)).toMatchObject({
      ok: true,
    });
  }, 60_000);

  it('a receipt over runs that recorded no configuration states no section and renders its page as before', async () => {
    const dir = join(root, 'old');
    mkdirSync(dir, { recursive: true });
    const old = goodReceipt(join(dir, 'r.json'));
    expect(old.receipt.serverConfiguration).toBeUndefined();
    expect(await recomputeReceipt(old.text, dir, '2026-07-01')).toMatchObject({ ok: true });
    const site = join(root, 'old-site');
    expect((await publishSite({ receipts: [old.receipt], prices: NO_PRICES, outDir: site, generator: '0.1.0', today: '2026-07-01' })).ok).toBe(true);
    const page = readFileSync(join(site, `${old.receipt.id}.html`), 'utf8');
    // Not even a blank line: a page published before this section existed must recompute byte for byte.
    expect(page).toContain('</dd></dl>\n<h2>Headline stats</h2><ul class="headlines"');
    expect(page).not.toMatch(/Server configuration|class="handicap"/);
  });
});
