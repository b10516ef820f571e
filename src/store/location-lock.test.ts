/** Where the store lives (flags, variables, default) and the embedded single-writer lock. */
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LOCK_HEARTBEAT_MS, LOCK_STALE_MS, acquireEmbeddedLock, currentHolder, lockPathOf } from './embedded-lock.js';
import { describeLocation, resolveStoreLocation, storeConfigured } from './location.js';
import { openStore } from './store.js';

describe('store location', () => {
  it('PostgreSQL from the flag or the variable, the flag first', () => {
    expect(resolveStoreLocation({ databaseUrl: 'postgres://u@h/db' }, { GOODPUT_DATABASE_URL: 'postgres://x@y/z' })).toEqual({
      location: { kind: 'postgres', url: 'postgres://u@h/db' },
      explicit: true,
    });
    expect(resolveStoreLocation({}, { GOODPUT_DATABASE_URL: 'postgres://x@y/z' }).location).toEqual({ kind: 'postgres', url: 'postgres://x@y/z' });
  });
  it('--data wins over the database variable; the default is GOODPUT_HOME/db', () => {
    expect(resolveStoreLocation({ data: '/tmp/d' }, { GOODPUT_DATABASE_URL: 'postgres://x@y/z' }).location).toEqual({ kind: 'embedded', dir: '/tmp/d' });
    expect(resolveStoreLocation({}, { GOODPUT_HOME: '/tmp/gh' })).toEqual({ location: { kind: 'embedded', dir: '/tmp/gh/db' }, explicit: false });
  });
  it('refuses both flags, and a URL that is not postgres://, naming the flag', () => {
    expect(() => resolveStoreLocation({ data: 'd', databaseUrl: 'postgres://h/db' })).toThrow(/either --data .* or --database-url/);
    expect(() => resolveStoreLocation({ databaseUrl: 'mysql://u:pw@h/db' })).toThrow('database URL must start with postgres:// (got "mysql://***:***@h/db")');
  });
  it('the default store counts as configured only once it exists', () => {
    const home = mkdtempSync(join(tmpdir(), 'goodput-home-'));
    const r = resolveStoreLocation({}, { GOODPUT_HOME: home });
    expect(storeConfigured(r)).toBe(false);
    mkdirSync(join(home, 'db'));
    expect(storeConfigured(r)).toBe(true);
    expect(describeLocation({ kind: 'postgres', url: 'postgres://u:pw@h:5/db' })).toBe('PostgreSQL at postgres://***:***@h:5/db');
  });
});

describe('embedded single-writer lock', () => {
  it('a second opener learns who holds the lock; release frees it', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'goodput-lock-')), 'db');
    const first = await acquireEmbeddedLock(dir, { kind: 'serve', command: 'goodput serve' });
    if (!first.ok) throw new Error('expected the lock');
    first.lock.update({ url: 'http://127.0.0.1:7878' });
    const second = await acquireEmbeddedLock(dir, { kind: 'cli', command: 'goodput sweep' });
    expect(second).toEqual({ ok: false, holder: expect.objectContaining({ pid: process.pid, kind: 'serve', url: 'http://127.0.0.1:7878' }) });
    first.lock.release();
    expect(existsSync(lockPathOf(dir))).toBe(false);
    expect(currentHolder(dir)).toBeNull();
  });
  it('a lock left by a killed process is taken over', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'goodput-lock-')), 'db');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    writeFileSync(lockPathOf(dir), JSON.stringify({ pid: dead, host: hostname(), kind: 'cli', command: 'goodput sweep', since: 'x' }), { mode: 0o600 });
    const got = await acquireEmbeddedLock(dir, { kind: 'cli', command: 'goodput runs' });
    expect(got.ok).toBe(true);
    expect(JSON.parse(readFileSync(lockPathOf(dir), 'utf8')).pid).toBe(process.pid);
    if (got.ok) got.lock.release();
  });
  it('a lock whose heartbeat is older than 60 s is stale whatever host wrote it; a fresh one from another host holds', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'goodput-lock-')), 'db');
    const path = lockPathOf(dir);
    writeFileSync(path, JSON.stringify({ pid: process.pid, host: 'other-host', kind: 'serve', command: 'goodput serve', since: 'x' }), { mode: 0o600 });
    const at = statSync(path).mtimeMs;
    expect(currentHolder(dir, at + LOCK_STALE_MS - 1)).toMatchObject({ host: 'other-host' });
    expect(currentHolder(dir, at + LOCK_STALE_MS + 1)).toBeNull();
    expect(await acquireEmbeddedLock(dir, { kind: 'cli', command: 'goodput runs' })).toMatchObject({ ok: false, holder: { host: 'other-host' } });
    const old = new Date(Date.now() - 2 * LOCK_STALE_MS);
    utimesSync(path, old, old);
    const got = await acquireEmbeddedLock(dir, { kind: 'cli', command: 'goodput runs' });
    expect(got.ok).toBe(true);
    expect(JSON.parse(readFileSync(path, 'utf8')).host).toBe(hostname());
    if (got.ok) got.lock.release();
  });
  it('a lock file not written the way we write ours (another mode, a symbolic link) is not trusted: refused naming the file', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'goodput-lock-')), 'db');
    const path = lockPathOf(dir);
    // A planted lock pointing our token at someone's port.
    writeFileSync(
      path,
      JSON.stringify({ pid: process.pid, host: hostname(), kind: 'serve', command: 'goodput serve', url: 'http://127.0.0.1:9/', since: 'x' }),
      { mode: 0o644 },
    );
    expect(() => currentHolder(dir)).toThrow(`the lock file ${path} has mode 644, not 600: not trusting it`);
    await expect(acquireEmbeddedLock(dir, { kind: 'cli', command: 'goodput runs' })).rejects.toThrow(/has mode 644, not 600/);
    rmSync(path);
    writeFileSync(`${path}.real`, '{}', { mode: 0o600 });
    symlinkSync(`${path}.real`, path);
    expect(() => currentHolder(dir)).toThrow(`the lock file ${path} is not a regular file: not trusting it`);
    if (process.getuid?.() === 0) {
      // As root (a container), a file owned by another user can be made: refused naming its owner.
      rmSync(path);
      writeFileSync(path, '{}', { mode: 0o600 });
      chownSync(path, 65534, 65534);
      expect(() => currentHolder(dir)).toThrow(`the lock file ${path} is owned by uid 65534, not by this user (uid 0)`);
    }
  });

  it('the holder touches its lock every heartbeat, so a long run never looks stale', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'goodput-lock-')), 'db');
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      const got = await acquireEmbeddedLock(dir, { kind: 'cli', command: 'goodput sweep' });
      if (!got.ok) throw new Error('expected the lock');
      const path = lockPathOf(dir);
      const old = new Date(Date.now() - 2 * LOCK_STALE_MS);
      utimesSync(path, old, old);
      vi.advanceTimersByTime(LOCK_HEARTBEAT_MS);
      expect(Math.abs(statSync(path).mtimeMs - Date.now())).toBeLessThan(1000);
      expect(currentHolder(dir)).toMatchObject({ pid: process.pid });
      got.lock.release();
    } finally {
      vi.useRealTimers();
    }
  });
  it('openStore refuses an embedded store held by another process, naming the holder', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'goodput-lock-')), 'db');
    const held = await acquireEmbeddedLock(dir, { kind: 'cli', command: 'goodput sweep' });
    await expect(openStore({ kind: 'embedded', dir }, { kind: 'cli', command: 'goodput runs' })).rejects.toMatchObject({
      code: 'busy',
      message: expect.stringMatching(/embedded database at .* is in use by goodput sweep \(pid \d+, since/),
    });
    if (held.ok) held.lock.release();
  });
});
