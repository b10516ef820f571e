/** Commands arriving while a `goodput serve` is starting: it holds the lock before it listens. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentHolder, openStore } from '../store/index.js';
import { openCatalog } from '../runs/index.js';
import { startServe } from './serve.js';
import { patient } from '../test-support/patience.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a command meeting a serve that holds the lock but does not listen yet', () => {
  it(
    'waits for its URL and then goes through it, instead of being refused',
    async () => {
      const dir = join(mkdtempSync(join(tmpdir(), 'goodput-serve-start-')), 'db');
      // The serve's window: the lock is taken, the database opened, nothing listens yet.
      const store = await openStore({ kind: 'embedded', dir }, { kind: 'serve', command: 'goodput serve' });
      expect(currentHolder(dir)).toMatchObject({ kind: 'serve', pid: process.pid });
      expect(currentHolder(dir)?.url).toBeUndefined();
      const pending = openCatalog({ data: dir, command: 'goodput sweep', env: {} });
      const outcome = pending.then(
        () => 'opened',
        (err: Error) => err.message,
      );
      await sleep(300);
      const serving = await startServe({ store, port: 0 });
      try {
        expect(await outcome).toBe('opened');
        const catalog = await pending;
        await catalog.addServer({ name: 'through-serve', baseUrl: 'http://127.0.0.1:9' });
        // Written through the serve's API into the serve's store, not into a second opener's.
        expect((await store.servers.list()).map((s) => s.name)).toEqual(['through-serve']);
        await catalog.close();
      } finally {
        await serving.close();
        await store.close();
      }
    },
    patient(60_000),
  );

  it(
    'opens the store itself when that serve goes away before it listens',
    async () => {
      const dir = join(mkdtempSync(join(tmpdir(), 'goodput-serve-start-')), 'db');
      const serveStore = await openStore({ kind: 'embedded', dir }, { kind: 'serve', command: 'goodput serve' });
      const pending = openCatalog({ data: dir, command: 'goodput sweep', env: {} });
      await sleep(300);
      await serveStore.close();
      const catalog = await pending;
      expect(await catalog.listServers()).toEqual([]);
      expect(currentHolder(dir)).toMatchObject({ kind: 'cli', command: 'goodput sweep', pid: process.pid });
      await catalog.close();
    },
    patient(60_000),
  );
});
