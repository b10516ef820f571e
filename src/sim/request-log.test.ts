/** `goodput sim --request-log`: the server's own instants per request, joined with the client's records by request id. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStreamingClient, type RequestSpec } from '../client/index.js';
import { spawnSimProcess } from './index.js';
import type { RequestLogEntry } from './request-log.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'goodput-request-log-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const spec: RequestSpec = { endpoint: 'chat', model: 'goodput-sim-1', prompt: 'one two three', maxTokens: 6, forceLength: true, thinking: false };

describe('the simulator request log', () => {
  for (const timing of ['independent', 'batched'] as const) {
    it(`${timing}: one line per request, keyed by X-Request-Id, arrival ≤ first write ≤ last write`, async () => {
      const path = join(dir, `${timing}.jsonl`);
      const sim = await spawnSimProcess(['--request-log', path, '--step-timing', timing, '--decode-step-ms', '2', '--prefill-base-ms', '2']);
      const client = createStreamingClient({ baseUrl: sim.url }, { connections: 3 });
      const records = await Promise.all([0, 1, 2].map((seq) => client.send(spec, { seq, concurrency: 3, warmup: false, targetSendNs: 0 })));
      await client.close();
      await sim.stop();
      const lines = (await readFile(path, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as RequestLogEntry);
      expect(lines).toHaveLength(3);
      for (const r of records) {
        const entry = lines.find((l) => l.id === r.requestId);
        expect(entry, `no log line for ${r.requestId}`).toBeDefined();
        const e = entry as RequestLogEntry;
        expect(e).toMatchObject({ outputTokens: 6, end: 'complete' });
        expect(e.firstWriteMs as number).toBeGreaterThanOrEqual(e.arrivalMs);
        expect(e.lastWriteMs as number).toBeGreaterThanOrEqual(e.firstWriteMs as number);
        // Epoch ms on the shared monotonic base: the same base as this process's timeOrigin + now.
        expect(Math.abs(e.arrivalMs - (performance.timeOrigin + performance.now()))).toBeLessThan(60_000);
      }
    });
  }

  it('a log that cannot be written stops the simulator before it listens, exit 2, naming the file', async () => {
    const path = join(dir, 'no-such-dir', 'log.jsonl');
    await expect(spawnSimProcess(['--request-log', path])).rejects.toThrow(
      /exited with code 2: goodput sim: cannot write the request log .*no-such-dir.*log\.jsonl: ENOENT/,
    );
  });
});
