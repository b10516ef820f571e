/**
 * writeSite refuses a target the file system will not take as a SiteTargetError
 * (a usage problem with --out), never a bare errno, and leaves nothing behind.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SiteTargetError, writeSite } from './write-site.js';

const FILES = new Map([['dataset.json', '{}\n']]);

describe('writeSite', () => {
  it('refuses a target under a regular file with an --out message, writing nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'goodput-write-site-'));
    const file = join(dir, 'FILE');
    writeFileSync(file, 'x');
    for (const out of [join(file, 'site'), join(file, 'a', 'site')]) {
      const err = await writeSite(out, FILES).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(SiteTargetError);
      expect((err as SiteTargetError).message).toBe(`--out: cannot write the site to ${out}: a part of the path is a file, not a directory`);
      expect(['ENOTDIR', 'EEXIST']).toContain((err as SiteTargetError).code);
    }
    expect(readdirSync(dir)).toEqual(['FILE']);
  });

  it('words every refused errno for the user', () => {
    expect(new SiteTargetError('/srv/site', 'EACCES').message).toBe('--out: cannot write the site to /srv/site: permission denied');
    expect(new SiteTargetError('/mnt/ro/site', 'EROFS').message).toBe('--out: cannot write the site to /mnt/ro/site: the file system is read-only');
    expect(new SiteTargetError('/x', 'EPERM').message).toBe('--out: cannot write the site to /x: operation not permitted');
  });

  it('writes a site into a new folder', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'goodput-write-site-')), 'new', 'site');
    await writeSite(out, FILES);
    expect(readdirSync(out)).toEqual(['dataset.json']);
  });
});
