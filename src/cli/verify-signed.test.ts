/**
 * Signed sites: `goodput keys create`, `goodput publish --key`, `goodput
 * verify --key/--key-id`. A signed site verifies against its key; a site
 * edited, extended, re-rendered or signed by another key is refused with
 * exit 2 naming the file and the rule; symlinks, FIFOs and empty folders are
 * refused from lstat, before anything is opened.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../test-support/cli-in-process.js';
import { evidencePair } from '../test-support/evidence-fixture.js';
import { qualityReceipt } from '../test-support/receipt-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-signed-'));
const site = join(dir, 'site');
const keys = join(dir, 'keys');
const other = join(dir, 'other-keys');
let keyId = '';

beforeAll(async () => {
  const made = await cli(['keys', 'create', '--dir', keys]);
  expect(made.stderr).toBe('');
  keyId = /created key (ed25519:[0-9a-f]{32})/.exec(made.stdout)?.[1] ?? '';
  expect((await cli(['keys', 'create', '--dir', other])).code).toBe(0);
  const pair = evidencePair();
  await qualityReceipt(dir, 'r', pair, join(dir, 'receipts', 'r.json'));
  const p = await cli(['publish', '--receipts', join(dir, 'receipts'), '--key', join(keys, 'publisher.key'), '--out', site]);
  expect(p.stderr).toBe('');
});

function edited(name: string, edit: (copy: string) => void): string {
  const copy = join(dir, `copy-${name}`);
  cpSync(site, copy, { recursive: true });
  edit(copy);
  return copy;
}
const pub = () => join(keys, 'publisher.pub');

describe('goodput keys create', () => {
  it('writes the private key 0600 and never replaces it', async () => {
    expect(statSync(join(keys, 'publisher.key')).mode & 0o777).toBe(0o600);
    expect(keyId).toMatch(/^ed25519:[0-9a-f]{32}$/);
    const again = await cli(['keys', 'create', '--dir', keys]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/publisher\.key already exists; a publisher key is never replaced/);
  });
});

describe('a signed site', () => {
  it('verifies against the key the reader trusts, by file or by pinned id, and names the key on every page', async () => {
    for (const trust of [
      ['--key', pub()],
      ['--key-id', keyId],
    ]) {
      const r = await cli(['verify', site, ...trust]);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain(`signed by ${keyId}, the key you trust`);
    }
    for (const page of readdirSync(site).filter((n) => n.endsWith('.html')))
      expect(readFileSync(join(site, page), 'utf8'), page).toContain(`<code>${keyId}</code>`);
    expect(JSON.parse(readFileSync(join(site, 'dataset.json'), 'utf8')).signedBy).toBe(keyId);
    const envelope = JSON.parse(readFileSync(join(site, 'manifest.dsse.json'), 'utf8')) as {
      payloadType: string;
      payload: string;
      signatures: Array<{ keyid: string }>;
    };
    expect(envelope.payloadType).toBe('application/vnd.goodput.site-manifest+json');
    expect(envelope.signatures[0]?.keyid).toBe(keyId);
    const manifest = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as { files: Array<{ path: string; size: number; sha256: string }> };
    expect(manifest.files.map((f) => f.path)).toContain('dataset.json');
  });

  const refused: Array<[string, (copy: string) => void, string[], RegExp]> = [
    [
      'verified against another key',
      () => {},
      ['--key', join(other, 'publisher.pub')],
      /manifest\.dsse\.json: is signed by (ed25519:[0-9a-f]{32}), not by the key you trust \((?!\1)ed25519:[0-9a-f]{32}\) \[rule: signature\]/,
    ],
    [
      'one file edited after signing',
      (c) => {
        writeFileSync(join(c, 'index.html'), readFileSync(join(c, 'index.html'), 'utf8').replace('Benchmark receipts', 'Benchmark receipts, fastest'));
      },
      ['--key', pub()],
      /index\.html: is \d+ bytes; the signed manifest says \d+ \[rule: signature\]/,
    ],
    [
      'one file edited to the same size',
      (c) => {
        writeFileSync(join(c, 'index.html'), readFileSync(join(c, 'index.html'), 'utf8').replace('Benchmark', 'Benchmarc'));
      },
      ['--key', pub()],
      /index\.html: its SHA-256 is [0-9a-f]{64}; the signed manifest says [0-9a-f]{64}: the file was changed after signing \[rule: signature\]/,
    ],
    [
      'a symlink added',
      (c) => {
        symlinkSync(join(c, 'index.html'), join(c, 'best.html'));
      },
      ['--key', pub()],
      /best\.html: is a symbolic link; a published site holds only regular files and folders \[rule: site-file\]/,
    ],
    [
      'index.html replaced by a symlink to /dev/zero',
      (c) => {
        rmSync(join(c, 'index.html'));
        symlinkSync('/dev/zero', join(c, 'index.html'));
      },
      [],
      /index\.html: is a symbolic link/,
    ],
    [
      'a top-level symlink to a forged page',
      (c) => {
        writeFileSync(join(dir, 'forged.html'), '<p>forged</p>');
        symlinkSync(join(dir, 'forged.html'), join(c, 'forged.html'));
      },
      [],
      /forged\.html: is a symbolic link/,
    ],
    [
      'evidence symlinked outside the site',
      (c) => {
        const ev = readdirSync(join(c, 'evidence'))[0] as string;
        cpSync(join(c, 'evidence', ev), join(dir, 'outside.gz'));
        rmSync(join(c, 'evidence', ev));
        symlinkSync(join(dir, 'outside.gz'), join(c, 'evidence', ev));
      },
      [],
      /evidence\/[0-9a-f]{64}\.json\.gz: is a symbolic link/,
    ],
    [
      'a symlinked folder',
      (c) => {
        mkdirSync(join(dir, 'elsewhere'), { recursive: true });
        symlinkSync(join(dir, 'elsewhere'), join(c, 'more'));
      },
      [],
      /more: is a symbolic link/,
    ],
    [
      'a FIFO',
      (c) => {
        execFileSync('mkfifo', [join(c, 'pipe.html')]);
      },
      [],
      /pipe\.html: is a FIFO; a published site holds only regular files and folders \[rule: site-file\]/,
    ],
    [
      'an empty folder whose name makes a claim',
      (c) => {
        mkdirSync(join(c, 'three-times-faster'));
      },
      ['--key', pub()],
      /three-times-faster\/: folders the signed manifest holds no file in \(1\) \[rule: signature\]/,
    ],
    [
      'an empty folder in an unsigned copy',
      (c) => {
        rmSync(join(c, 'manifest.dsse.json'));
        mkdirSync(join(c, 'best-in-class'));
      },
      [],
      /best-in-class\/: folders the evidence puts nothing in \(1\) \[rule: published-equals-recomputed\]/,
    ],
    [
      'many files added: the first twenty listed and the rest counted',
      (c) => {
        for (let i = 0; i < 25; i++) writeFileSync(join(c, `extra-${String(i).padStart(2, '0')}.html`), 'x');
      },
      ['--key', pub()],
      /extra-00\.html, .*extra-19\.html and 5 more: not in the signed manifest \(25 unexpected files\) \[rule: signature\]/,
    ],
    [
      'verified against a pinned id of another key',
      () => {},
      ['--key-id', 'ed25519:' + '0'.repeat(32)],
      /is signed by ed25519:[0-9a-f]{32}, not by the key you trust \(ed25519:0{32}\)/,
    ],
    [
      "the manifest's payload edited",
      (c) => {
        const path = join(c, 'manifest.dsse.json');
        const env = JSON.parse(readFileSync(path, 'utf8')) as { payload: string };
        const m = JSON.parse(Buffer.from(env.payload, 'base64').toString('utf8')) as { files: Array<{ size: number }> };
        (m.files[0] as { size: number }).size += 1;
        env.payload = Buffer.from(JSON.stringify(m)).toString('base64');
        writeFileSync(path, JSON.stringify(env));
      },
      [],
      /manifest\.dsse\.json: the signature by ed25519:[0-9a-f]{32} does not verify: the manifest or the signature was changed \[rule: signature\]/,
    ],
    [
      'the signature removed, verified against the trusted key',
      (c) => {
        rmSync(join(c, 'manifest.dsse.json'));
      },
      ['--key', pub()],
      /manifest\.dsse\.json: the site is not signed, so nothing shows that the key you trust stands behind it \[rule: signature\]/,
    ],
    [
      'a site rendered as another goodput version',
      (c) => {
        rmSync(join(c, 'manifest.dsse.json'));
        writeFileSync(
          join(c, 'dataset.json'),
          readFileSync(join(c, 'dataset.json'), 'utf8').replace('"generator": "goodput 0.1.0"', '"generator": "goodput 9.9.9"'),
        );
      },
      [],
      /dataset\.json: generator: the site was rendered by goodput 9\.9\.9, and this is goodput 0\.1\.0; verify it with goodput 9\.9\.9 .*\[rule: generator\]/,
    ],
    [
      'a changelog entry added after publishing',
      (c) => {
        rmSync(join(c, 'manifest.dsse.json'));
        const path = join(c, 'dataset.json');
        const d = JSON.parse(readFileSync(path, 'utf8')) as { changelog: unknown[] };
        d.changelog.push({
          receipt: 'ghost',
          title: 'Ghost',
          page: 'ghost.html',
          addedOn: '2026-06-05',
          measuredAt: '2026-06-01',
          pricesCapturedAt: null,
          withdrawnOn: null,
        });
        writeFileSync(path, JSON.stringify(d, null, 2) + '\n');
      },
      [],
      /dataset\.json: changelog\[1\] \(ghost\): is listed as published, but the site holds no receipts\/ghost\.json.*\[rule: changelog-history\]/,
    ],
    [
      'a prices file swapped for one dated after today',
      (c) => {
        rmSync(join(c, 'manifest.dsse.json'));
        writeFileSync(
          join(c, 'prices.json'),
          JSON.stringify(
            {
              tokenPrices: [
                {
                  provider: 'Example Cloud',
                  model: 'demo-model',
                  inputUsdPer1M: 0.5,
                  outputUsdPer1M: 1.5,
                  sourceUrl: 'https://example.com/p',
                  asOf: '2999-01-01',
                },
              ],
              instancePrices: [],
            },
            null,
            2,
          ) + '\n',
        );
      },
      [],
      /prices\.json: tokenPrices\.0\.asOf: 2999-01-01 is after the publishing day .*\[rule: date\]/,
    ],
  ];
  for (const [what, edit, trust, message] of refused) {
    it(`refuses ${what}: exit 2, naming it, with bounded work`, async () => {
      const r = await cli(['verify', edited(what.replace(/\W+/g, '-'), edit), ...trust]);
      expect(r.code, r.stdout).toBe(2);
      expect(r.stderr).toMatch(/does not verify:\n/);
      expect(r.stderr).toMatch(message);
    });
  }

  it('refuses a key id that is not one, and two keys at once', async () => {
    expect((await cli(['verify', site, '--key-id', 'deadbeef'])).stderr).toMatch(/--key-id: "deadbeef" is not a key id/);
    expect((await cli(['verify', site, '--key', pub(), '--key-id', keyId])).code).toBe(2);
    expect((await cli(['verify', site, '--key', join(keys, 'missing.pub')])).stderr).toMatch(/--key: .*missing\.pub does not exist/);
  });

  it('reads a key only from a regular file (the one file reader): a device, a FIFO or a symlink is refused by kind, nothing blocks', async () => {
    const fifo = join(dir, 'key-fifo.pub');
    execFileSync('mkfifo', [fifo]);
    const link = join(dir, 'key-link.pub');
    symlinkSync(pub(), link);
    const refused = async (path: string) => {
      const r = await cli(['verify', site, '--key', path]);
      expect(r.code, r.stderr).toBe(2);
      return r.stderr;
    };
    expect(await refused('/dev/zero')).toMatch(/--key: \/dev\/zero is a device, not a regular file/);
    expect(await refused(fifo)).toMatch(/--key: .*key-fifo\.pub is a FIFO \(named pipe\), not a regular file/);
    expect(await refused(link)).toMatch(/--key: .*key-link\.pub is a symbolic link; give the file itself/);
  });
});

describe('a signed result (goodput run --sign)', () => {
  it("verifies against the signer's key, and is refused once edited or against another key", async () => {
    const { signedResult } = await import('../publish/index.js');
    const { createPrivateKey } = await import('node:crypto');
    const result = join(dir, 'signed-result.json');
    const bytes = Buffer.from(JSON.stringify(evidencePair().baseline, null, 2) + '\n');
    writeFileSync(result, bytes);
    writeFileSync(`${result}.dsse.json`, signedResult(bytes, createPrivateKey(readFileSync(join(keys, 'publisher.key'), 'utf8'))));
    const ok = await cli(['keys', 'verify-result', result, '--key', pub()]);
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toContain(`signed by ${keyId}, the key you trust`);
    expect((await cli(['keys', 'verify-result', result, '--key', join(other, 'publisher.pub')])).stderr).toMatch(
      /is signed by ed25519:[0-9a-f]{32}, not by the key you trust .*\[rule: signature\]/,
    );
    writeFileSync(result, Buffer.concat([bytes, Buffer.from(' ')]));
    const edited = await cli(['keys', 'verify-result', result, '--key', pub()]);
    expect(edited.code).toBe(2);
    expect(edited.stderr).toMatch(/the result was changed after signing \[rule: signature\]/);
  });
});
