/**
 * The trust check as a library call, with no CLI in between: a site published
 * through publishReceipts verifies through verifySite, which returns what it
 * found; an edited site throws SiteNotVerified naming the number, and a bad
 * receipt set throws PublishRefused naming the file. Nothing is printed and
 * nothing exits, so the API or an embedder can call both.
 */
import { mkdtempSync, readFileSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { goodReceipt } from '../test-support/receipt-dir.js';
import { PublishRefused, SiteNotVerified, publishReceipts, verifySite } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-verify-lib-'));
const site = join(dir, 'site');
let files: string[] = [];

beforeAll(async () => {
  goodReceipt(join(dir, 'receipts', 'r.json'));
  files = await publishReceipts({ receipts: [join(dir, 'receipts')], out: site });
});

describe('verifySite and publishReceipts as library functions', () => {
  it('publishes a site and verifies it, returning what it found without printing or exiting', async () => {
    const out = vi.spyOn(process.stdout, 'write');
    const exit = vi.spyOn(process, 'exit');
    const v = await verifySite(site);
    expect(v).toEqual({ receipts: 1, files: expect.any(Number), signer: null, trusted: false, freshness: null });
    expect(v.files).toBe(files.length);
    expect(files).toContain('dataset.json');
    expect(out).not.toHaveBeenCalled();
    expect(exit).not.toHaveBeenCalled();
    out.mockRestore();
    exit.mockRestore();
  });

  it('throws SiteNotVerified naming the edited number', async () => {
    const copy = join(dir, 'edited');
    cpSync(site, copy, { recursive: true });
    const path = join(copy, 'dataset.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace(/"value": 30,/, '"value": 20,'));
    const err = await verifySite(copy).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SiteNotVerified);
    const lines = (err as SiteNotVerified).lines;
    expect(
      lines.some((l) => /^dataset\.json: .*optimized\.ttftSingle\]\.value: states 20, the evidence gives 30 \[rule: published-equals-recomputed\]$/.test(l)),
    ).toBe(true);
    expect((err as Error).message.startsWith(`${copy} does not verify:\n  `)).toBe(true);
  });

  it('throws PublishRefused naming a receipt path that does not exist, writing nothing', async () => {
    const missing = join(dir, 'nowhere.json');
    const err = await publishReceipts({ receipts: [missing], out: join(dir, 'not-written') }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PublishRefused);
    expect((err as PublishRefused).problems).toEqual([`--receipts: ${missing} does not exist`]);
    await expect(verifySite(join(dir, 'not-written'))).rejects.toThrow(/does not exist/);
  });
});
