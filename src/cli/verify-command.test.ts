/**
 * `goodput verify SITE_DIR` in process: a site just published verifies (exit
 * 0); each kind of edit to a published file, its shipped receipts or its
 * evidence is refused with exit 2, naming the file and the number.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../test-support/cli-in-process.js';
import { evidencePair } from '../test-support/evidence-fixture.js';
import { qualityReceipt } from '../test-support/receipt-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-verify-'));
const site = join(dir, 'site');
const write = (name: string, body: string) => {
  writeFileSync(join(dir, name), body);
  return join(dir, name);
};

beforeAll(async () => {
  const pair = evidencePair();
  await qualityReceipt(dir, 'r', pair, join(dir, 'receipts', 'r.json'));
  const prices = write(
    'prices.yaml',
    'tokenPrices:\n  - { provider: Example Cloud, model: demo-model, inputUsdPer1M: 0.5, outputUsdPer1M: 1.5, sourceUrl: "https://example.com/pricing", asOf: 2026-06-01 }\n',
  );
  const published = await cli(['publish', '--receipts', join(dir, 'receipts'), '--prices', prices, '--out', site]);
  expect(published.stderr).toBe('');
});

/** A copy of the published site with one edit. */
function edited(name: string, edit: (copy: string) => void): string {
  const copy = join(dir, `copy-${name}`);
  cpSync(site, copy, { recursive: true });
  edit(copy);
  return copy;
}
const verify = (path: string) => cli(['verify', path]);

describe('goodput verify', () => {
  it('recomputes every number of a site just published: exit 0', async () => {
    const r = await verify(site);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^verified .*site: 1 receipt\(s\), \d+ files, every published number recomputed from the shipped evidence; not signed\n$/);
  });

  const cases: Array<[string, (copy: string) => void, RegExp]> = [
    [
      'a number edited in dataset.json',
      (c) => {
        const path = join(c, 'dataset.json');
        writeFileSync(path, readFileSync(path, 'utf8').replace(/"value": 30,/, '"value": 20,'));
      },
      /^ {2}dataset\.json: receipts\[[^\]]+\]\.numbers\[[a-z0-9-]+\/optimized\.ttftSingle\]\.value: states 20, the evidence gives 30 \[rule: published-equals-recomputed\]$/m,
    ],
    [
      'a page edited',
      (c) => {
        const page = readdirSync(c).find((n) => n.endsWith('.html') && n !== 'index.html') as string;
        writeFileSync(join(c, page), readFileSync(join(c, page), 'utf8').replace('FP8 dynamic quantization', 'FP8, best in class'));
      },
      /^ {2}[a-z0-9-]+\.html: differs from what the evidence renders \[rule: published-equals-recomputed\]$/m,
    ],
    [
      'a file the evidence does not produce',
      (c) => {
        writeFileSync(join(c, 'extra.html'), '<p>3x faster</p>');
      },
      /^ {2}extra\.html: the site holds it, but the evidence does not produce it \[rule: published-equals-recomputed\]$/m,
    ],
    [
      'a page removed',
      (c) => {
        rmSync(join(c, 'index.html'));
      },
      /^ {2}index\.html: the evidence renders it, but the site does not have it/m,
    ],
    [
      'an evidence file removed',
      (c) => {
        rmSync(join(c, 'evidence', readdirSync(join(c, 'evidence'))[0] as string));
      },
      /^ {2}receipts: .*\.json: evidence\.[a-z]+: names evidence\/[0-9a-f]{64}\.json\.gz, which is not beside the receipt \[rule: evidence-file\]$/m,
    ],
    [
      'a shipped receipt edited',
      (c) => {
        const r = join(c, 'receipts', readdirSync(join(c, 'receipts'))[0] as string);
        writeFileSync(r, readFileSync(r, 'utf8').replace('"hardware": "Test GPU 24GB"', '"hardware": "H100"'));
      },
      /^ {2}receipts: .*\.json: hardware: states "H100", the evidence gives "Test GPU 24GB" \[rule: stated-equals-recomputed\]$/m,
    ],
    [
      'the shipped prices edited',
      (c) => {
        const p = join(c, 'prices.json');
        writeFileSync(p, readFileSync(p, 'utf8').replace('"outputUsdPer1M": 1.5', '"outputUsdPer1M": 15'));
      },
      /^ {2}dataset\.json: prices\.token\[0\]\.output\.value: states 1\.5, the evidence gives 15 \[rule: published-equals-recomputed\]$/m,
    ],
    [
      'no receipts shipped',
      (c) => {
        rmSync(join(c, 'receipts'), { recursive: true });
      },
      /^ {2}receipts\/: the site ships no receipt/m,
    ],
    [
      'no dataset.json',
      (c) => {
        rmSync(join(c, 'dataset.json'));
      },
      /^ {2}SITE_DIR: .*dataset\.json does not exist$/m,
    ],
  ];
  it("renders the publisher's site file verbatim on every page and in dataset.json, and verifies it", async () => {
    const out = join(dir, 'site-with-words');
    const published = await cli(['publish', '--receipts', join(dir, 'receipts'), '--site', 'examples/site.yaml', '--out', out]);
    expect(published.stderr).toBe('');
    const words = (await import('yaml')).parse(readFileSync('examples/site.yaml', 'utf8')) as { notClaimed: string[] };
    expect((JSON.parse(readFileSync(join(out, 'dataset.json'), 'utf8')) as { notClaimed: string[] }).notClaimed).toEqual(words.notClaimed);
    for (const page of readdirSync(out).filter((n) => n.endsWith('.html'))) {
      const text = readFileSync(join(out, page), 'utf8').replace(/&#39;/g, "'");
      for (const w of words.notClaimed) expect(text, page).toContain(w);
    }
    expect((await verify(out)).code).toBe(0);
    const edited = join(dir, 'site-with-words-edited');
    cpSync(out, edited, { recursive: true });
    writeFileSync(join(edited, 'site.json'), JSON.stringify({ notClaimed: ['We claim nothing at all.'] }));
    const r = await verify(edited);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^ {2}dataset\.json: notClaimed(\.length|\[0\]): states .*\[rule: published-equals-recomputed\]$/m);
  });

  it('refuses a site file with an internal identifier, an invisible character or an unknown key, naming each', async () => {
    const bad = write('site-bad.yaml', 'notClaimed:\n  - See http://10.0.0.7/prices\n  - Nothing\u200b here\nextra: 1\n');
    const r = await cli(['publish', '--receipts', join(dir, 'receipts'), '--site', bad, '--out', join(dir, 'site-bad')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^ {2}--site: .*site-bad\.yaml: \(top level\): Unrecognized key: "extra"$/m);
    const bad2 = write('site-bad2.yaml', 'notClaimed:\n  - See http://10.0.0.7/prices\n  - "Nothing\\u200b here"\n');
    const r2 = await cli(['publish', '--receipts', join(dir, 'receipts'), '--site', bad2, '--out', join(dir, 'site-bad')]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/^ {2}--site: .*site-bad2\.yaml: notClaimed\.0: holds a URL .*\[rule: no-internal-identifiers\]$/m);
    expect(r2.stderr).toMatch(
      /^ {2}--site: .*site-bad2\.yaml: notClaimed\.1: holds the invisible or control character U\+200B .*\[rule: no-control-characters\]$/m,
    );
    expect(existsSync(join(dir, 'site-bad'))).toBe(false);
  });

  for (const [what, edit, message] of cases) {
    it(`refuses ${what}: exit 2, naming it`, async () => {
      const r = await verify(edited(what.replace(/\W+/g, '-'), edit));
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^goodput: .* does not verify:\n/);
      expect(r.stderr).toMatch(message);
    });
  }
});
