import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makePrivate } from './private-dir.js';
import { openStore } from './store.js';

const mode = (p: string) => lstatSync(p).mode & 0o777;

/** Every entry under `dir` (itself included) whose mode lets group or others in. */
function openToOthers(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return;
    if ((st.mode & 0o077) !== 0) out.push(`${p} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
  };
  walk(dir);
  return out;
}

describe('the embedded data directory is private', () => {
  afterEach(() => vi.restoreAllMocks());

  it('makePrivate closes folders to 0700 and files to 0600, keeps an owner exec bit and leaves links alone', async () => {
    const root = mkdtempSync(join(tmpdir(), 'goodput-private-'));
    const dir = join(root, 'db');
    mkdirSync(join(dir, 'pg_wal'), { recursive: true });
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'pg_wal', 'seg'), 'sk-secret');
    chmodSync(join(dir, 'pg_wal', 'seg'), 0o666);
    writeFileSync(join(dir, 'tool'), '');
    chmodSync(join(dir, 'tool'), 0o755);
    writeFileSync(join(root, 'outside'), '');
    chmodSync(join(root, 'outside'), 0o644);
    symlinkSync(join(root, 'outside'), join(dir, 'link'));

    expect(await makePrivate(dir)).toBe(4); // db, pg_wal (default umask 022 or looser), seg, tool
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'pg_wal'))).toBe(0o700);
    expect(mode(join(dir, 'pg_wal', 'seg'))).toBe(0o600);
    expect(mode(join(dir, 'tool'))).toBe(0o700);
    expect(mode(join(root, 'outside'))).toBe(0o644);
    expect(await makePrivate(dir)).toBe(0);
  });

  it('a store opened under a permissive umask leaves nothing readable by others, WAL included', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'goodput-private-')), 'db');
    const old = process.umask(0);
    try {
      const store = await openStore({ kind: 'embedded', dir }, { kind: 'cli', command: 'test' });
      await store.servers.add(
        { name: 'keyed', baseUrl: 'http://127.0.0.1:9', apiKey: 'sk-wal-secret' },
        { state: 'stopped', detail: null, model: null, checkedAt: '2025-01-02T03:04:05.000Z' },
      );
      await store.close();
    } finally {
      process.umask(old);
    }
    expect(readdirSync(dir).length).toBeGreaterThan(0);
    expect(openToOthers(dir)).toEqual([]);
  });

  it('an existing store open to others is fixed on open, with one warning line naming the directory', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'goodput-private-')), 'db');
    await (await openStore({ kind: 'embedded', dir }, { kind: 'cli', command: 'test' })).close();
    chmodSync(dir, 0o755);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await (await openStore({ kind: 'embedded', dir }, { kind: 'cli', command: 'test' })).close();
    const lines = err.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('private'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(dir);
    expect(mode(dir)).toBe(0o700);
  });
});
