// The site-versions state: where it lives by default, what counts as a
// rollback or an equivocation, and that it is written whole and read back
// only when it is one of ours.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_SITE_VERSIONS, defaultStateDir, freshnessProblem, readSiteVersions, withSeen, writeSiteVersions } from './site-versions.js';

const KEY = `ed25519:${'a'.repeat(32)}`;
const seen = (siteVersion: number, sha = 'b') => ({
  siteVersion,
  manifestSha256: sha.repeat(64),
  publishedAt: '2026-06-01T10:00:00.000Z',
  seenAt: '2026-06-02T10:00:00.000Z',
});

describe('the state folder', () => {
  it('is GOODPUT_STATE_DIR, else an absolute XDG_STATE_HOME/goodput, else ~/.local/state/goodput', () => {
    expect(defaultStateDir({ GOODPUT_STATE_DIR: '/s', XDG_STATE_HOME: '/x' }, '/h')).toBe('/s');
    expect(defaultStateDir({ XDG_STATE_HOME: '/x' }, '/h')).toBe('/x/goodput');
    expect(defaultStateDir({ XDG_STATE_HOME: 'relative' }, '/h')).toBe('/h/.local/state/goodput');
    expect(defaultStateDir({}, '/h')).toBe('/h/.local/state/goodput');
  });

  it('points at a temporary folder in tests, never the home', () => {
    expect(process.env.GOODPUT_STATE_DIR).toContain(tmpdir());
  });
});

describe('what was seen of a key', () => {
  const state = withSeen(NO_SITE_VERSIONS, KEY, seen(3));
  if (!state.ok) throw new Error(state.problem);
  it('a key never seen, or a newer version, is no problem; the same version with the same manifest neither', () => {
    expect(freshnessProblem(NO_SITE_VERSIONS, KEY, { siteVersion: 1, manifestSha256: 'c'.repeat(64) })).toBeNull();
    expect(freshnessProblem(state.state, KEY, { siteVersion: 4, manifestSha256: 'c'.repeat(64) })).toBeNull();
    expect(freshnessProblem(state.state, KEY, { siteVersion: 3, manifestSha256: 'b'.repeat(64) })).toBeNull();
  });

  it('an older version is a rollback and another manifest under the same version an equivocation, each naming both', () => {
    expect(freshnessProblem(state.state, KEY, { siteVersion: 2, manifestSha256: 'b'.repeat(64) })).toMatch(
      new RegExp(`^rollback: this site is version 2 signed by ${KEY}, but version 3 signed by that key .*\\[rule: freshness\\]$`),
    );
    expect(freshnessProblem(state.state, KEY, { siteVersion: 3, manifestSha256: 'c'.repeat(64) })).toMatch(
      new RegExp(`^equivocation: this site is version 3 signed by ${KEY}.*manifest SHA-256 ${'b'.repeat(64)}, this one ${'c'.repeat(64)}`),
    );
  });

  it('is never lowered', () => {
    const lower = withSeen(state.state, KEY, seen(2));
    expect(lower.ok && lower.state.keys[KEY]?.siteVersion).toBe(3);
  });
});

describe('the state file', () => {
  it('is written whole (no temporary file left) and read back as written; an absent one is empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'goodput-versions-'));
    const file = join(dir, 'deep', 'site-versions.json');
    expect(await readSiteVersions(file)).toEqual({ ok: true, state: NO_SITE_VERSIONS });
    const state = withSeen(NO_SITE_VERSIONS, KEY, seen(5));
    if (!state.ok) throw new Error(state.problem);
    await writeSiteVersions(file, state.state);
    expect(readdirSync(join(dir, 'deep'))).toEqual(['site-versions.json']);
    expect(await readSiteVersions(file)).toEqual({ ok: true, state: state.state });
  });

  it('a key stated twice, an unknown field, or a folder in its place is refused naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'goodput-versions-'));
    const file = join(dir, 'site-versions.json');
    const entry = JSON.stringify(seen(1));
    for (const [body, why] of [
      [`{"version":"goodput-site-versions/1","keys":{"${KEY}":${entry},"${KEY}":${entry}}}`, 'is not JSON'],
      [`{"version":"goodput-site-versions/1","keys":{},"reset":true}`, '(top level)'],
      [`{"version":"goodput-site-versions/1","keys":{"${KEY}":${JSON.stringify({ ...seen(1), siteVersion: 1.5 })}}}`, `keys.${KEY}.siteVersion`],
    ]) {
      writeFileSync(file, body as string);
      const r = await readSiteVersions(file);
      expect(r.ok ? '' : r.problem).toContain(`${file}: ${why}`);
    }
    const r = await readSiteVersions(dir);
    expect(r.ok ? '' : r.problem).toContain(`${dir}: is not a regular file`);
  });
});
