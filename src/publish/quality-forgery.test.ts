// Forged quality scores, each re-derived and re-hashed as a forger with
// goodput's code would: every one is refused, naming the field and the rule,
// because a receipt recomputes the score from its per-prompt evidence and
// binds it to its runs. The untouched scores (standalone, or measured in the
// optimized run) recompute.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evidencePair } from '../test-support/evidence-fixture.js';
import { measuredQualityFixture } from '../test-support/quality-fixture.js';
import { type ForgedSides, QUALITY_FORGERIES, inRunSides } from '../test-support/quality-forgeries.js';
import { packReceipt } from '../test-support/receipt-dir.js';
import { recomputeReceipt } from './receipt-file.js';

const TODAY = '2026-07-01';
const root = mkdtempSync(join(tmpdir(), 'goodput-quality-forgery-'));

async function recompute(name: string, sides: ForgedSides) {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const d = packReceipt(join(dir, 'r.json'), sides);
  return { d, r: await recomputeReceipt(d.text, dir, TODAY) };
}

describe('a quality score is recomputed from its per-prompt evidence and bound to its runs', () => {
  it('a standalone score naming both runs recomputes, and its composite is the one its evidence gives', async () => {
    const pair = evidencePair();
    const q = measuredQualityFixture(pair);
    const { r } = await recompute('standalone', { ...pair, quality: q });
    expect(r.ok ? [] : r.refusals.map((x) => x.message)).toEqual([]);
    if (!r.ok) return;
    expect(r.receipt.facts.find((f) => f.id === 'optimized.quality')?.value).toBe(q.composite);
    expect(q.composite).toBeGreaterThan(0.8);
    expect(q.composite).toBeLessThan(1);
  });

  it('a score measured in the optimized run (its contract declaring it) recomputes with no separate score file', async () => {
    const sides = inRunSides();
    const { d, r } = await recompute('in-run', sides);
    expect(r.ok ? [] : r.refusals.map((x) => x.message)).toEqual([]);
    expect(d.refs.quality).toBeNull();
    if (r.ok) expect(r.receipt.facts.find((f) => f.id === 'optimized.quality')?.value).toBe(sides.optimized.quality?.composite);
  });

  QUALITY_FORGERIES.forEach(([what, make, names, rule], i) => {
    it(what, async () => {
      const { r } = await recompute(`forged-${i}`, make());
      const messages = r.ok ? [] : r.refusals.map((x) => x.message);
      expect(
        messages.find((m) => m.includes(names) && m.endsWith(`[rule: ${rule}]`)),
        messages.join('\n'),
      ).toBeDefined();
    });
  });
});
