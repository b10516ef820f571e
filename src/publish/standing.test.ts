/**
 * Each fact's standing, planted as a motivated publisher would: unsigned runs
 * relabelled as H100 and a real engine, runs signed by a key the site lists,
 * a quality score rewritten and re-signed by another key, a set whose
 * manifest was removed, a standing edited in dataset.json or in the receipt,
 * and publish --require-signed over unsigned runs and quality evidence.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SweepResult } from '../core/index.js';
import { evidencePair } from '../test-support/evidence-fixture.js';
import { forge } from '../test-support/forger.js';
import { measuredQualityFixture } from '../test-support/quality-fixture.js';
import { type ReceiptDir, goodReceipt, packReceipt } from '../test-support/receipt-dir.js';
import type { Doc } from '../test-support/receipt-edits.js';
import { evidencePath, signaturePath } from './evidence-files.js';
import { PublishRefused, SiteNotVerified, publishReceipts, verifySite } from './index.js';
import { recomputeReceipt } from './receipt-file.js';
import { newKeyPair, parseKey, signedResult } from './site-signing.js';
import { STANDINGS, factStanding, requireSignedRefusals } from './standing.js';
import type { RunSignatures } from './standing-schema.js';

const root = mkdtempSync(join(tmpdir(), 'goodput-standing-'));
const TODAY = new Date().toISOString().slice(0, 10);
const measurer = newKeyPair();
const other = newKeyPair();
const keyOf = (pem: string) => {
  const k = parseKey(pem, 'private');
  if (!k.ok) throw new Error(k.problem);
  return k.key;
};
const listed = [{ name: 'measurer.pub', pem: measurer.publicPem }];
const DECLARED = 'declared by the publisher, not signed by a measurer';

/** Signs `side`'s evidence with `pem` as goodput run --sign would, and states that key in the receipt as receipt create does. */
function sign(r: ReceiptDir, keys: Partial<Record<'baseline' | 'optimized', KeyPairLike>>): void {
  const dir = join(r.file, '..');
  const doc = JSON.parse(readFileSync(r.file, 'utf8')) as Doc;
  for (const side of ['baseline', 'optimized'] as const) {
    const k = keys[side];
    if (k === undefined) continue;
    writeFileSync(join(dir, signaturePath(r.refs[side])), signedResult(Buffer.from(`result ${side}`), keyOf(k.privatePem), r.refs[side]));
    doc.signatures[side].keyid = k.keyId;
    if (side === 'optimized' && doc.signatures.quality?.source === 'in-run') doc.signatures.quality.keyid = k.keyId;
  }
  writeFileSync(r.file, JSON.stringify(doc, null, 2) + '\n');
}
type KeyPairLike = { privatePem: string; keyId: string };

const read = (site: string) => JSON.parse(readFileSync(join(site, 'dataset.json'), 'utf8')) as Doc;
const numberOf = (d: Doc, fact: string) => (d.receipts[0].numbers as Doc[]).find((n) => (n.id as string).endsWith(`/${fact}`)) as Doc;

async function refusedWith(p: Promise<unknown>): Promise<string[]> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (err instanceof PublishRefused || err instanceof SiteNotVerified) return [...(err instanceof PublishRefused ? err.problems : err.lines)];
  throw new Error(`expected a refusal, got ${String(err)}`);
}

describe('every fact on a site carries its standing', () => {
  it('unsigned runs relabelled as an H100 on vllm stand as declared by the publisher, beside the headlines, on the index and in dataset.json', async () => {
    const pair = evidencePair();
    const relabel = (r: SweepResult) =>
      forge(r, {
        contract: (c) => (c.hardware.label = 'NVIDIA H100 SXM 80GB'),
        run: (run) => {
          run.gpuLabel = 'NVIDIA H100 SXM 80GB';
          run.engine = { name: 'vllm', version: '0.6.3.post1' };
        },
      });
    const r = packReceipt(join(root, 'relabelled', 'r.json'), { baseline: relabel(pair.baseline), optimized: relabel(pair.optimized), quality: null });
    expect(r.receipt.hardware).toBe('NVIDIA H100 SXM 80GB');
    const site = join(root, 'relabelled-site');
    await publishReceipts({ receipts: [r.file], out: site, today: TODAY, measurerKeys: listed });
    const d = read(site);
    expect(d.measurers).toEqual([measurer.keyId]);
    const standing = d.receipts[0].standing as Doc;
    for (const label of [standing.hardware, standing.simulated, standing.engine.baseline, standing.engine.optimized])
      expect(label).toEqual({ by: 'declared', what: `${DECLARED} (the run is not signed)` });
    for (const n of d.receipts[0].numbers as Doc[]) expect(STANDINGS).toContain(n.standing.by);
    expect(numberOf(d, 'optimized.hourlyRate').standing.by).toBe('declared');
    // A cost stands no higher than the declared rate it is computed from.
    expect(numberOf(d, 'optimized.costPer1M').standing.by).toBe('declared');
    expect(numberOf(d, 'optimized.peakThroughput').standing.what).toMatch(/not signed by a measurer \(the run is not signed\)$/);
    const page = readFileSync(join(site, `${r.receipt.id}.html`), 'utf8');
    expect(page).toContain(`<li>Not simulated: ${DECLARED} (the run is not signed)</li>`);
    expect(page).toContain(`<li>Hardware (NVIDIA H100 SXM 80GB): ${DECLARED} (the run is not signed)</li>`);
    expect(page).toContain(`<div class="standing">${DECLARED}</div>`);
    expect(page).toContain('<ul id="run-signatures"><li>baseline run: not signed</li><li>optimized run: not signed</li></ul>');
    const index = readFileSync(join(site, 'index.html'), 'utf8');
    expect(index).toContain(`<span class="standing">${DECLARED}</span>`);
    expect(index).toContain(`<code>${measurer.keyId}</code>`);
    expect((await verifySite(site, { today: TODAY })).receipts).toBe(1);
  });

  it('runs signed by a measurer key the site lists stand as signed, naming the key, and verify recomputes it', async () => {
    const r = goodReceipt(join(root, 'signed', 'r.json'));
    sign(r, { baseline: measurer, optimized: measurer });
    const site = join(root, 'signed-site');
    await publishReceipts({ receipts: [r.file], out: site, today: TODAY, measurerKeys: listed });
    const d = read(site);
    expect(d.receipts[0].standing.hardware).toEqual({
      by: 'signed',
      what: `signed by measurer ${measurer.keyId}: the run signature verified`,
      key: measurer.keyId,
    });
    expect(numberOf(d, 'optimized.peakThroughput').standing).toMatchObject({ by: 'signed', key: measurer.keyId });
    // The score came as a file: no run signature covers it, whoever signed the runs.
    expect(numberOf(d, 'optimized.quality').standing.what).toMatch(/unsigned quality evidence/);
    const page = readFileSync(join(site, `${r.receipt.id}.html`), 'utf8');
    expect(page).toContain(`<div class="standing">signed by measurer ${measurer.keyId}</div>`);
    expect(page).toContain(`<li>baseline run: signed by ${measurer.keyId}, the signature over the evidence verified; a measurer this site lists</li>`);
    expect((await verifySite(site, { today: TODAY })).receipts).toBe(1);

    // The same site without the measurer list: the signature is shown, and nothing stands as signed.
    const unlisted = join(root, 'signed-unlisted-site');
    await publishReceipts({ receipts: [r.file], out: unlisted, today: TODAY });
    const u = read(unlisted);
    expect(u.measurers).toBeUndefined();
    expect(u.receipts[0].standing.hardware.what).toBe(`declared by the publisher, signed by ${measurer.keyId}, which this site does not list as a measurer`);
  });

  it('a quality score rewritten in the optimized run and re-signed by another key shows that key is not a listed measurer', async () => {
    // A score whose evidence recomputes (a forger rewrites the logprobs and the score together), in an optimized run re-signed by the forger's own key.
    const pair = evidencePair();
    const optimized = { ...pair.optimized, quality: measuredQualityFixture(pair) };
    const r = packReceipt(join(root, 'quality', 'r.json'), { baseline: pair.baseline, optimized, quality: null });
    expect(r.receipt.signatures?.quality).toEqual({ source: 'in-run', keyid: null });
    sign(r, { baseline: measurer, optimized: other });
    const site = join(root, 'quality-site');
    await publishReceipts({ receipts: [r.file], out: site, today: TODAY, measurerKeys: listed });
    const d = read(site);
    const q = numberOf(d, 'optimized.quality').standing as Doc;
    expect(q.by).toBe('recomputed');
    expect(q.what).toBe(`recomputed from the quality evidence, signed by ${other.keyId}, which this site does not list as a measurer`);
    expect(d.receipts[0].runSignatures).toContain(
      `optimized run: signed by ${other.keyId}, the signature over the evidence verified; not a measurer this site lists`,
    );
    expect(d.receipts[0].standing.hardware.by).toBe('declared');
  });

  it('a set whose manifest was removed is unsigned, and the standing says so', () => {
    const side = { keyid: measurer.keyId, runs: 3, setKeyid: null, server: null };
    const sig: RunSignatures = { baseline: side, optimized: { ...side, setKeyid: measurer.keyId }, quality: null };
    const fact = {
      id: 'baseline.peakThroughput',
      metric: 'peakThroughput',
      label: 'Peak',
      value: 1,
      unit: 'tok/s',
      statistic: 'peak',
      provenance: 'measured' as const,
      configuration: 'baseline' as const,
      digits: 1,
    };
    const listedSet = new Set([measurer.keyId]);
    expect(factStanding(sig, fact, listedSet)).toEqual({
      by: 'recomputed',
      what: `recomputed from the run's records, not signed by a measurer (its 3 runs carry no set manifest signed by ${measurer.keyId}, so the set is not signed)`,
    });
    expect(factStanding(sig, { ...fact, configuration: 'optimized', id: 'optimized.peakThroughput' }, listedSet).by).toBe('signed');
    expect(requireSignedRefusals(sig, { baseline: 'a'.repeat(64), optimized: 'b'.repeat(64), quality: null }, listedSet).map((x) => x.message)).toEqual([
      `evidence.baseline (${evidencePath('a'.repeat(64))}): not signed by a measurer (its 3 runs carry no set manifest signed by ${measurer.keyId}, so the set is not signed); --require-signed publishes signed runs only [rule: require-signed]`,
    ]);
  });

  it("what a result states that its records cannot give (the server's counters, the GPU readings) is the publisher's word, or the run signature's", () => {
    const unsigned = { keyid: null, runs: 1, setKeyid: null, server: "its /metrics agree with the records at every one of the run's levels" };
    const sig: RunSignatures = { baseline: unsigned, optimized: { ...unsigned, keyid: measurer.keyId }, quality: null };
    const fact = {
      id: 'baseline.c1.acceptanceLength',
      metric: 'acceptanceLength',
      label: 'Acceptance length',
      value: 2.7,
      unit: 'tokens per step',
      statistic: 'mean',
      provenance: 'measured' as const,
      configuration: 'baseline' as const,
      digits: 2,
    };
    const listedSet = new Set([measurer.keyId]);
    // Corroboration by the server's /metrics does not reach a figure only the server states.
    expect(factStanding(sig, fact, listedSet)).toEqual({
      by: 'declared',
      what: "declared by the publisher: the run's result states the server's speculative-decoding counters or gauge, which its records cannot recompute (only the arithmetic on them), not signed by a measurer (the run is not signed)",
    });
    expect(factStanding(sig, { ...fact, id: 'baseline.c1.joulesPerOutputToken', metric: 'joulesPerOutputToken' }, listedSet).what).toMatch(
      /^declared by the publisher: the run's result states the GPU source's power or energy readings/,
    );
    expect(factStanding(sig, { ...fact, id: 'optimized.c1.acceptanceLength', configuration: 'optimized' }, listedSet)).toEqual({
      by: 'signed',
      what: `signed by measurer ${measurer.keyId}: the run signature verified over the result that states the server's speculative-decoding counters or gauge`,
      key: measurer.keyId,
    });
    // Our own tokens per chunk are recomputed from the records.
    expect(factStanding(sig, { ...fact, id: 'baseline.c1.chunkTokens', metric: 'chunkTokens' }, listedSet).by).toBe('recomputed');
  });

  it('a standing edited in dataset.json is refused naming the fact; a signature the evidence does not carry is refused in the receipt', async () => {
    const r = goodReceipt(join(root, 'edits', 'r.json'));
    const site = join(root, 'edits-site');
    await publishReceipts({ receipts: [r.file], out: site, today: TODAY, measurerKeys: listed });
    const copy = join(root, 'edits-copy');
    cpSync(site, copy, { recursive: true });
    const d = read(copy);
    const n = numberOf(d, 'optimized.ttftSingle');
    n.standing = { by: 'signed', what: `signed by measurer ${measurer.keyId}: the run signature verified; recomputed from its records`, key: measurer.keyId };
    writeFileSync(join(copy, 'dataset.json'), JSON.stringify(d, null, 2) + '\n');
    const lines = await refusedWith(verifySite(copy, { today: TODAY }));
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^dataset\.json: receipts\[[^\]]+\]\.numbers\[[^\]]+\/optimized\.ttftSingle\]\.standing\.by: states "signed", the evidence gives "(recomputed|corroborated)" \[rule: published-equals-recomputed\]$/,
      ),
    );

    const doc = JSON.parse(r.text) as Doc;
    doc.signatures.baseline.keyid = measurer.keyId;
    const stated = await recomputeReceipt(JSON.stringify(doc), join(r.file, '..'), TODAY);
    expect(stated.ok ? [] : stated.refusals.map((x) => x.message)).toEqual([
      `signatures.baseline.keyid: states "${measurer.keyId}", the evidence gives null [rule: stated-equals-recomputed]`,
    ]);
    const { signatures: _s, ...dropped } = JSON.parse(r.text) as Doc;
    const left = await recomputeReceipt(JSON.stringify(dropped), join(r.file, '..'), TODAY);
    expect(left.ok ? [] : left.refusals.map((x) => x.rule + ' ' + x.field)).toEqual(['stated-equals-recomputed signatures']);
  });

  it('publish --require-signed refuses unsigned runs and quality evidence naming each file, and writes nothing', async () => {
    const r = goodReceipt(join(root, 'required', 'r.json'));
    const out = join(root, 'required-site');
    const problems = await refusedWith(publishReceipts({ receipts: [r.file], out, today: TODAY, measurerKeys: listed, requireSigned: true }));
    expect(problems).toEqual([
      `--receipts: ${r.file}: evidence.baseline (${evidencePath(r.refs.baseline)}): not signed by a measurer (the run is not signed); --require-signed publishes signed runs only [rule: require-signed]`,
      `--receipts: ${r.file}: evidence.optimized (${evidencePath(r.refs.optimized)}): not signed by a measurer (the run is not signed); --require-signed publishes signed runs only [rule: require-signed]`,
      `--receipts: ${r.file}: evidence.quality (${evidencePath(r.refs.quality as string)}): not signed by a measurer (unsigned quality evidence: a score file carries no run signature); --require-signed publishes signed quality evidence only [rule: require-signed]`,
    ]);
    expect(existsSync(out)).toBe(false);

    // Both runs signed by the listed measurer, the score measured in the optimized run: published.
    const pair = evidencePair();
    const signed = packReceipt(join(root, 'required-ok', 'r.json'), {
      baseline: pair.baseline,
      optimized: { ...pair.optimized, quality: measuredQualityFixture(pair) },
      quality: null,
    });
    sign(signed, { baseline: measurer, optimized: measurer });
    await publishReceipts({ receipts: [signed.file], out, today: TODAY, measurerKeys: listed, requireSigned: true });
    expect(numberOf(read(out), 'optimized.quality').standing).toMatchObject({ by: 'signed', key: measurer.keyId });
  });
});
