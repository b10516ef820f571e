/**
 * `goodput reproduce` refuses before anything runs: a tampered receipt (one
 * stated figure edited) names the field and its rule, exit 2; a URL carrying
 * credentials and a run count past the limits table are refused as `run`
 * refuses them, before the receipt is read; a receipt whose evidence is not
 * beside it is refused naming the file; so are files and an image base URL
 * given back that the receipt does not withhold. Nothing is run or written. (The runs
 * themselves, against simulators, are in reproduce.timing.test.ts.)
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../test-support/cli-in-process.js';
import { evidencePair } from '../test-support/evidence-fixture.js';
import { EXIT } from './exit-codes.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-reproduce-refusals-'));
const receiptPath = join(dir, 'receipts', 'receipt.json');
/** Nothing listens here: a run against it would fail, so a refusal must come first. */
const NOWHERE = 'http://127.0.0.1:9';

beforeAll(async () => {
  const pair = evidencePair();
  const b = join(dir, 'baseline.json');
  const o = join(dir, 'optimized.json');
  writeFileSync(b, JSON.stringify(pair.baseline));
  writeFileSync(o, JSON.stringify(pair.optimized));
  const made = await cli(['receipt', 'create', '--baseline', b, '--optimized', o, '--method', 'FP8 dynamic quantization', '--out', receiptPath]);
  expect(made.code, made.stderr).toBe(0);
});

const reproduce = (path: string, more: string[] = []) =>
  cli(['reproduce', path, '--baseline-url', NOWHERE, '--optimized-url', NOWHERE, '--json', join(dir, 'claims.json'), ...more]);

describe('goodput reproduce refuses before it runs', () => {
  it('a tampered receipt, naming the field and the rule', async () => {
    const file = JSON.parse(readFileSync(receiptPath, 'utf8')) as { facts: Array<{ id: string; value: number | null }> };
    const fact = file.facts.find((f) => f.id === 'optimized.tpotSingle') as { value: number };
    const stated = fact.value;
    fact.value = stated / 2;
    const forged = join(dir, 'receipts', 'forged.json');
    writeFileSync(forged, JSON.stringify(file, null, 2));
    const r = await reproduce(forged);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('goodput: receipt refused, nothing run:\n');
    expect(r.stderr).toContain(`  facts[optimized.tpotSingle].value: states ${stated / 2}, the evidence gives ${stated} [rule: stated-equals-recomputed]`);
    expect(r.stdout).toBe('');
    expect(existsSync(join(dir, 'claims.json'))).toBe(false);
  });

  it('a receipt whose evidence is not beside it', async () => {
    const alone = join(dir, 'alone.json');
    writeFileSync(alone, readFileSync(receiptPath));
    const r = await reproduce(alone);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toMatch(/evidence\.baseline: .*\[rule: evidence-file\]/);
  });

  it('a URL with credentials, without echoing them, before reading the receipt', async () => {
    const r = await cli(['reproduce', join(dir, 'absent.json'), '--baseline-url', NOWHERE, '--optimized-url', 'http://user:hunter2@127.0.0.1:9']);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toMatch(/^goodput: --optimized-url: /);
    expect(r.stderr).not.toContain('hunter2');
  });

  it('a run count past the limits table, or one that gives no spread', async () => {
    const many = await reproduce(receiptPath, ['--repeats', '21']);
    expect(many.code).toBe(EXIT.usage);
    expect(many.stderr).toContain('--repeats: 21 is above the limit of 20');
    const two = await reproduce(receiptPath, ['--repeats', '2']);
    expect(two.code).toBe(EXIT.usage);
    expect(two.stderr).toContain('--repeats: 2 runs give no spread worth stating');
  });

  it('a --file no side reads, or an image base URL for images not sent by URL, before anything runs', async () => {
    const file = await reproduce(receiptPath, ['--file', `corpus=${receiptPath}`]);
    expect(file.code).toBe(EXIT.usage);
    expect(file.stderr).toBe('goodput: --file: corpus: no side of this receipt reads a withheld corpus\n');
    expect(file.stdout).toBe('');
    const images = await reproduce(receiptPath, ['--image-base-url', 'http://127.0.0.1:8090']);
    expect(images.code).toBe(EXIT.usage);
    expect(images.stderr).toBe("goodput: --image-base-url: applies to a receipt whose images were sent by URL; this one's were not\n");
    expect(existsSync(join(dir, 'claims.json'))).toBe(false);
  });
});
