/**
 * Freshness of signed sites: `goodput publish --key` numbers each site its
 * key signs (one more than the newest before) and states its publish time
 * inside the signed manifest; `goodput verify` remembers the newest version it
 * saw per key and refuses an older one (a rollback) or another site under the
 * same version (an equivocation), exit 2, naming both versions and the key. A
 * broken state file is refused naming it and left as it is; a site signed
 * before versions verifies with a line saying rollback cannot be checked.
 * Every state folder here is a temporary one, given by --state-dir.
 */
import { createPrivateKey, sign } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../test-support/cli-in-process.js';
import { evidencePair } from '../test-support/evidence-fixture.js';
import { qualityReceipt } from '../test-support/receipt-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-fresh-'));
const keys = join(dir, 'keys');
const publisherState = join(dir, 'publisher-state');
let keyId = '';

const manifestOfSite = (site: string): Record<string, unknown> => {
  const env = JSON.parse(readFileSync(join(site, 'manifest.dsse.json'), 'utf8')) as { payload: string };
  return JSON.parse(Buffer.from(env.payload, 'base64').toString('utf8')) as Record<string, unknown>;
};
const publish = (out: string, ...more: string[]) =>
  cli(['publish', '--receipts', join(dir, 'receipts'), '--key', join(keys, 'publisher.key'), '--out', out, '--state-dir', publisherState, ...more]);
const verify = (site: string, state: string) => cli(['verify', site, '--key', join(keys, 'publisher.pub'), '--state-dir', state]);
const fresh = (name: string) => join(mkdtempSync(join(dir, `${name}-`)), 'state');

beforeAll(async () => {
  keyId = /created key (ed25519:[0-9a-f]{32})/.exec((await cli(['keys', 'create', '--dir', keys])).stdout)?.[1] ?? '';
  await qualityReceipt(dir, 'r', evidencePair(), join(dir, 'receipts', 'r.json'));
});

describe('publish numbers the sites a key signs', () => {
  it('states version 1, then one more than the site already at --out, and its publish time, inside the signed manifest', async () => {
    const site = join(dir, 'numbered');
    expect((await publish(site)).stderr).toBe('');
    const first = manifestOfSite(site);
    expect(first).toMatchObject({ version: 'goodput-site-manifest/2', siteVersion: 1 });
    expect(Date.parse(first.publishedAt as string)).toBeGreaterThan(Date.now() - 600_000);
    expect((await publish(site)).stderr).toBe('');
    expect(manifestOfSite(site).siteVersion).toBe(2);
  });

  it('continues from the state the publisher recorded for the key when --out is new, and from --previous when it is higher', async () => {
    const a = join(dir, 'state-a');
    expect((await publish(a)).stderr).toBe('');
    const recorded = manifestOfSite(a).siteVersion as number;
    const b = join(dir, 'state-b');
    expect((await publish(b)).stderr).toBe('');
    expect(manifestOfSite(b).siteVersion).toBe(recorded + 1);
    const c = join(dir, 'state-c');
    expect((await publish(c, '--previous', '40')).stderr).toBe('');
    expect(manifestOfSite(c).siteVersion).toBe(41);
    const bad = await publish(join(dir, 'state-d'), '--previous', '-1');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--previous: "-1" is not a site version');
  });

  it('refuses to publish over a state file that does not read, writing nothing and leaving the file as it was', async () => {
    const state = fresh('pub-corrupt');
    const out = join(dir, 'never');
    const file = join(state, 'site-versions.json');
    mkdirSync(state, { recursive: true });
    writeFileSync(file, '{"version":"goodput-site-versions/1","keys":{');
    const r = await cli(['publish', '--receipts', join(dir, 'receipts'), '--key', join(keys, 'publisher.key'), '--out', out, '--state-dir', state]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}: is not JSON`);
    expect(existsSync(out)).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('{"version":"goodput-site-versions/1","keys":{');
  });
});

describe('verify remembers the newest site version per key', () => {
  let older = '';
  let newer = '';
  beforeAll(async () => {
    newer = join(dir, 'site');
    expect((await publish(newer)).stderr).toBe('');
    older = join(dir, 'older');
    cpSync(newer, older, { recursive: true });
    expect((await publish(newer)).stderr).toBe('');
  });

  it('passes the newer site, saying its version; then refuses the older one as a rollback, exit 2, naming both versions and the key', async () => {
    const state = fresh('rollback');
    const v = (manifestOfSite(newer).siteVersion as number) - 1;
    const ok = await verify(newer, state);
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toContain(`site version ${v + 1}, published `);
    expect(ok.stdout).toContain(`the first site by ${keyId} seen here`);
    const again = await verify(newer, state);
    expect(again.stdout).toContain('the version seen before, unchanged');
    const rolled = await verify(older, state);
    expect(rolled.code).toBe(2);
    expect(rolled.stderr).toContain(
      `manifest.dsse.json: rollback: this site is version ${v} signed by ${keyId}, but version ${v + 1} signed by that key (published `,
    );
    expect(rolled.stderr).toMatch(/an older site is being served as the current one \[rule: freshness\]/);
  });

  it('the older site verifies for a reader who has not seen the newer one, and then the newer one moves them on', async () => {
    const state = fresh('forward');
    const v = manifestOfSite(older).siteVersion as number;
    expect((await verify(older, state)).stdout).toContain(`site version ${v}, published`);
    expect((await verify(newer, state)).stdout).toContain(`newer than version ${v}, the newest seen before`);
    expect(JSON.parse(readFileSync(join(state, 'site-versions.json'), 'utf8')).keys[keyId].siteVersion).toBe(v + 1);
  });

  it('refuses another site under a version already seen (an equivocation), naming both manifests', async () => {
    const state = fresh('equivocation');
    expect((await verify(newer, state)).code).toBe(0);
    const twin = join(dir, 'twin');
    const v = manifestOfSite(newer).siteVersion as number;
    expect((await publish(twin, '--previous', String(v - 1), '--state-dir', fresh('twin-publisher'))).stderr).toBe('');
    expect(manifestOfSite(twin).siteVersion).toBe(v);
    const r = await verify(twin, state);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `equivocation: this site is version ${v} signed by ${keyId}, but another site of that version by that key \\(manifest SHA-256 [0-9a-f]{64}, this one [0-9a-f]{64}\\) was seen on .*\\[rule: freshness\\]`,
      ),
    );
  });

  it('refuses to check against a corrupt state file, naming it, and never resets it', async () => {
    for (const body of ['not json', '{"version":"goodput-site-versions/1","keys":{"ed25519:00":{"siteVersion":0}}}', 'x'.repeat(5 * 1024 * 1024)]) {
      const state = fresh('corrupt');
      const file = join(state, 'site-versions.json');
      mkdirSync(state, { recursive: true });
      writeFileSync(file, body);
      const r = await verify(newer, state);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${file}: `);
      expect(r.stderr).toContain('nothing is checked until you fix or remove the file deliberately');
      expect(readFileSync(file, 'utf8')).toBe(body);
    }
  });

  it('a site signed before versions verifies, with a line saying rollback cannot be checked, and records nothing', async () => {
    const old = join(dir, 'unversioned');
    cpSync(newer, old, { recursive: true });
    // The manifest as goodput signed it before sites carried a version: version 1, no siteVersion, no publishedAt,
    // signed here with node:crypto alone over DSSE's pre-authentication encoding.
    const { siteVersion: _v, publishedAt: _p, ...rest } = manifestOfSite(newer);
    const body = Buffer.from(JSON.stringify({ ...rest, version: 'goodput-site-manifest/1' }), 'utf8');
    const type = 'application/vnd.goodput.site-manifest+json';
    const pae = Buffer.concat([Buffer.from(`DSSEv1 ${type.length} ${type} ${body.length} `), body]);
    const sig = sign(null, pae, createPrivateKey(readFileSync(join(keys, 'publisher.key'), 'utf8'))).toString('base64');
    writeFileSync(
      join(old, 'manifest.dsse.json'),
      JSON.stringify({ payloadType: type, payload: body.toString('base64'), signatures: [{ keyid: keyId, sig }] }),
    );
    expect(manifestOfSite(old)).not.toHaveProperty('siteVersion');
    const state = fresh('unversioned');
    const r = await verify(old, state);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('unversioned: rollback cannot be checked');
    expect(r.stdout).not.toContain('site version');
    expect(existsSync(join(state, 'site-versions.json'))).toBe(false);
  });
});
