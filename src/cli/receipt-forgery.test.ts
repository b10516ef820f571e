// Every hand edit of test-support/receipt-edits.ts through `goodput publish`
// in process: exit code 2, the field and the rule named on their own line,
// and nothing written.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../test-support/cli-in-process.js';
import { goodReceipt, packReceipt } from '../test-support/receipt-dir.js';
import { QUALITY_FORGERIES, inRunSides } from '../test-support/quality-forgeries.js';
import { type Doc, RECEIPT_EDITS } from '../test-support/receipt-edits.js';

const root = mkdtempSync(join(tmpdir(), 'goodput-forgery-cli-'));
const good = goodReceipt(join(root, 'good.json'));

describe('goodput publish refuses each hand-edited receipt: exit 2, the field and the rule, nothing written', () => {
  it('publishes the untouched receipt', async () => {
    expect((await cli(['publish', '--receipts', good.file, '--out', join(root, 'site-good')])).code).toBe(0);
  });

  RECEIPT_EDITS.forEach(([what, edit, names, rule], i) => {
    it(what, async () => {
      const doc = JSON.parse(good.text) as Doc;
      edit(doc);
      const file = join(root, `edit-${i}.json`);
      writeFileSync(file, JSON.stringify(doc, null, 2));
      const out = join(root, `site-${i}`);
      const r = await cli(['publish', '--receipts', file, '--out', out]);
      expect(r.code).toBe(2);
      expect(r.stderr.startsWith('goodput: nothing published:\n')).toBe(true);
      const line = r.stderr.split('\n').find((l) => l.includes(names) && l.endsWith(`[rule: ${rule}]`));
      expect(line, r.stderr).toBeDefined();
      expect(existsSync(out)).toBe(false);
    });
  });
});

describe('goodput publish refuses each forged quality score: exit 2, the field and the rule, nothing written', () => {
  it('publishes a score measured in the optimized run', async () => {
    const d = join(root, 'q-in-run');
    mkdirSync(d, { recursive: true });
    const packed = packReceipt(join(d, 'r.json'), inRunSides());
    const r = await cli(['publish', '--receipts', packed.file, '--out', join(root, 'site-q-in-run')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  QUALITY_FORGERIES.forEach(([what, make, names, rule], i) => {
    it(what, async () => {
      const d = join(root, `q-${i}`);
      mkdirSync(d, { recursive: true });
      const packed = packReceipt(join(d, 'r.json'), make());
      const out = join(root, `site-q-${i}`);
      const r = await cli(['publish', '--receipts', packed.file, '--out', out]);
      expect(r.code).toBe(2);
      const line = r.stderr.split('\n').find((l) => l.includes(names) && l.endsWith(`[rule: ${rule}]`));
      expect(line, r.stderr).toBeDefined();
      expect(existsSync(out)).toBe(false);
    });
  });
});
