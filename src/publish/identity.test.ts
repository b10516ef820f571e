// Identity, corroborated or declared: a simulator run relabelled as a GPU server
// is "simulated" on the index, its page, its share image and dataset.json, with
// the hardware shown as the publisher's declaration and the server's own account
// beside it; two sides whose servers gave identical accounts are refused.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { QualityScore, SweepResult } from '../core/index.js';
import { measuredQualityFixture } from '../test-support/quality-fixture.js';
import { evidencePair } from '../test-support/evidence-fixture.js';
import { packReceipt } from '../test-support/receipt-dir.js';
import { NO_PRICES } from './prices.js';
import { publishSite } from './publish-site.js';
import { recomputeReceipt } from './receipt-file.js';
import { receiptView } from './receipt-view.js';
import { shareSvg } from './share-image.js';

const root = mkdtempSync(join(tmpdir(), 'goodput-identity-'));
const simAccount = (configSha256: string): NonNullable<SweepResult['serverAccount']> => ({
  models: [{ id: 'Llama-3.1-8B-Instruct', ownedBy: 'vllm', maxModelLen: 8192 }],
  server: 'uvicorn',
  version: '0.6.3.post1',
  props: null,
  simulator: { version: '0.1.0', dialect: 'vllm', configSha256 },
});
/** Both sides labelled as a real GPU server; the servers' accounts say simulator. */
const relabelled = (b: string, o: string) =>
  evidencePair({
    baseline: { model: 'Llama-3.1-8B-Instruct', label: 'H100 SXM 80GB', engine: 'vllm', engineVersion: '0.6.3.post1', account: simAccount(b) },
    optimized: { model: 'Llama-3.1-8B-Instruct', label: 'H100 SXM 80GB', engine: 'vllm', engineVersion: '0.6.3.post1', account: simAccount(o) },
  });

async function recompute(name: string, pair: { baseline: SweepResult; optimized: SweepResult }, plainTitle = false, quality: QualityScore | null = null) {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const d = packReceipt(join(dir, 'r.json'), { ...pair, quality }, 'Tuned batching');
  // A pair that cannot make a receipt is packed under the good pair's statements: its title is the good pair's, so plain words here.
  return recomputeReceipt(plainTitle ? JSON.stringify({ ...JSON.parse(d.text), title: 'Tuned batching' }) : d.text, dir, '2026-07-01');
}

describe('identity', () => {
  it('a simulator relabelled as a GPU server is simulated on every page, image and dataset entry; its hardware is declared', async () => {
    const r = await recompute('relabelled', relabelled('1'.repeat(64), '2'.repeat(64)));
    if (!r.ok) throw new Error(r.refusals.map((x) => x.message).join('\n'));
    expect(r.receipt.simulated).toBe(true);
    expect(r.receipt.limitations.join('\n')).toMatch(/measured against the goodput simulator, not a real GPU/);
    const out = join(root, 'site');
    const published = await publishSite({ receipts: [r.receipt], prices: NO_PRICES, outDir: out, generator: '0.1.0', today: '2026-07-01' });
    expect(published.ok).toBe(true);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toMatch(/<strong class="simulated">simulated<\/strong>/);
    const page = readFileSync(join(out, `${r.receipt.id}.html`), 'utf8');
    expect(page).toContain('<strong>Simulated:</strong>');
    expect(page).toMatch(/<dd id="hardware">H100 SXM 80GB <span class="stat">\(declared by the publisher/);
    expect(page).toContain('the goodput simulator 0.1.0 playing vllm, configuration sha256:' + '2'.repeat(64));
    expect(shareSvg(receiptView(r.receipt))).toMatch(/simulated: measured against the goodput simulator, not a real GPU/);
    const dataset = JSON.parse(readFileSync(join(out, 'dataset.json'), 'utf8')) as {
      receipts: Array<{ simulated: boolean; hardwareDeclaredBy: string; configurations: { optimized: { serverAccount: string[] } } }>;
    };
    expect(dataset.receipts[0]).toMatchObject({ simulated: true, hardwareDeclaredBy: 'the publisher' });
    expect(dataset.receipts[0]?.configurations.optimized.serverAccount.join(' ')).toMatch(/goodput simulator/);
  });

  it('two sides whose servers gave identical accounts are one configuration compared with itself', async () => {
    const r = await recompute('self', relabelled('3'.repeat(64), '3'.repeat(64)), true);
    expect(r.ok ? [] : r.refusals.map((x) => x.message)).toContainEqual(
      expect.stringMatching(
        /^evidence: the baseline and the optimized server gave identical accounts of themselves .*one configuration compared with itself \[rule: self-comparison\]$/,
      ),
    );
  });

  it('a run that kept no account of its server says so on the page', async () => {
    const r = await recompute('none', evidencePair());
    if (!r.ok) throw new Error(r.refusals.map((x) => x.message).join('\n'));
    expect(r.receipt.configurations.baseline.serverAccount).toEqual([]);
    expect(r.receipt.simulated).toBe(false);
  });

  /** A score of these servers as goodput quality records it, its sides' accounts given. */
  const scored = (b: NonNullable<SweepResult['serverAccount']> | undefined, c: NonNullable<SweepResult['serverAccount']> | undefined): QualityScore => {
    const q = measuredQualityFixture(relabelled('4'.repeat(64), '5'.repeat(64)));
    const compared = q.compared as NonNullable<QualityScore['compared']>;
    const side = (s: typeof compared.baseline, a: typeof b) => ({
      ...s,
      model: 'Llama-3.1-8B-Instruct',
      engineVersion: '0.6.3.post1',
      ...(a === undefined ? {} : { account: a }),
    });
    return { ...q, compared: { ...compared, baseline: side(compared.baseline, b), candidate: side(compared.candidate, c) } };
  };
  it("a quality score of the two runs' servers belongs; one of the baseline against itself does not", async () => {
    const good = await recompute('q-good', relabelled('4'.repeat(64), '5'.repeat(64)), false, scored(simAccount('4'.repeat(64)), simAccount('5'.repeat(64))));
    expect(good.ok ? [] : good.refusals.map((x) => x.message)).toEqual([]);
    const self = await recompute('q-self', relabelled('4'.repeat(64), '5'.repeat(64)), false, scored(simAccount('4'.repeat(64)), simAccount('4'.repeat(64))));
    expect(self.ok ? [] : self.refusals.map((x) => x.message)).toContainEqual(
      expect.stringMatching(
        /^evidence\.quality: compared\.candidate\.account: differs from the account the optimized run's server gave of itself.*\[rule: quality-belongs\]$/,
      ),
    );
    const none = await recompute('q-none', relabelled('4'.repeat(64), '5'.repeat(64)), false, scored(undefined, undefined));
    expect(none.ok ? [] : none.refusals.map((x) => x.message)).toContainEqual(
      expect.stringMatching(/compared\.baseline\.account: is absent, but the baseline run recorded its server's account/),
    );
  });
});
