/**
 * `goodput publish --measurer-key FILE.pub` and `--require-signed` from the
 * command line: the site lists the key and verify recomputes every standing
 * from it; a key file that is not a public key, --require-signed with no key
 * to require, unsigned runs under --require-signed, and an edited
 * measurers.json are each refused (exit 2) naming what is wrong.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../test-support/cli-in-process.js';
import { goodReceipt } from '../test-support/receipt-dir.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-measurers-'));
const keys = join(dir, 'keys');
const receipts = join(dir, 'receipts');
let keyId = '';

beforeAll(async () => {
  const made = await cli(['keys', 'create', '--dir', keys]);
  expect(made.code, made.stderr).toBe(0);
  keyId = /ed25519:[0-9a-f]{32}/.exec(made.stdout)?.[0] ?? '';
  goodReceipt(join(receipts, 'r.json'));
});

describe('publish --measurer-key and --require-signed', () => {
  it('lists the measurer key on the site, and verify recomputes the standing from it', async () => {
    const site = join(dir, 'site');
    const r = await cli(['publish', '--receipts', receipts, '--out', site, '--measurer-key', join(keys, 'publisher.pub')]);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(readFileSync(join(site, 'dataset.json'), 'utf8')) as { measurers: string[] }).measurers).toEqual([keyId]);
    expect(readFileSync(join(site, 'measurers.json'), 'utf8')).toContain(keyId);
    expect((await cli(['verify', site])).code).toBe(0);

    // A key id edited in the shipped list is refused, naming the file and the entry.
    const copy = join(dir, 'edited');
    cpSync(site, copy, { recursive: true });
    const file = join(copy, 'measurers.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace(keyId, `ed25519:${'0'.repeat(32)}`));
    const v = await cli(['verify', copy]);
    expect(v.code).toBe(2);
    expect(v.stderr).toContain(`measurers.json: keys[0].keyid: names ed25519:${'0'.repeat(32)}, but its public key is ${keyId} [rule: signature]`);
  });

  it('refuses a key file that is not a public key, and --require-signed with no measurer key, writing nothing', async () => {
    const out = join(dir, 'not-written');
    const bad = join(dir, 'bad.pub');
    writeFileSync(bad, 'not a key\n');
    const r = await cli(['publish', '--receipts', receipts, '--out', out, '--measurer-key', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--measurer-key: ${bad}: is not a PEM public key (goodput keys create writes one) [rule: signature]`);
    const none = await cli(['publish', '--receipts', receipts, '--out', out, '--require-signed']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--require-signed: name the measurer keys whose signatures count with --measurer-key FILE.pub');
    const unsigned = await cli(['publish', '--receipts', receipts, '--out', out, '--measurer-key', join(keys, 'publisher.pub'), '--require-signed']);
    expect(unsigned.code).toBe(2);
    expect(unsigned.stderr).toMatch(
      /evidence\.baseline \(evidence\/[0-9a-f]{64}\.json\.gz\): not signed by a measurer \(the run is not signed\).*\[rule: require-signed\]/,
    );
    expect(existsSync(out)).toBe(false);
  });
});
