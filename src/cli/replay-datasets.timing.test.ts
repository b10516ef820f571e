/**
 * Wall-clock accuracy of production data replayed (timing pass, not npm test):
 * an Azure trace CSV of 400 requests at ~25 req/s with Poisson gaps, and a
 * ShareGPT file's first turns at a constant 25 req/s, against the simulator:
 * each request leaves within 20 ms of its scheduled offset at p99, from the raw
 * records (sendNs − targetSendNs).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestRecord, percentiles } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { runGoodput } from '../test-support/goodput-process.js';
import { writeAzureTrace, writeShareGpt } from '../test-support/dataset-fixtures.js';
import { wallClock } from '../test-support/wall-clock.js';
import { patient } from '../test-support/patience.js';

let sim: SimProcess;
const dir = mkdtempSync(join(tmpdir(), 'goodput-datasets-timing-'));
beforeAll(async () => {
  sim = await spawnSimProcess(['--prefill-base-ms', '2', '--decode-step-ms', '2', '--max-batch', '256']);
});
afterAll(async () => {
  await sim?.stop();
});

const lateP99 = (raw: string) => {
  const recs = readFileSync(raw, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as RequestRecord);
  return {
    n: recs.length,
    p99: percentiles(
      recs.map((r) => (r.sendNs - r.targetSendNs) / 1e6),
      [99],
    )?.p99,
  };
};

describe('production data replay timing', () => {
  it(
    'sends an Azure trace on its schedule: send offsets p99 under 20 ms',
    async () => {
      const trace = join(dir, 'azure.csv');
      writeAzureTrace(trace, 400, 40);
      const raw = join(dir, 'azure-raw.jsonl');
      const r = await runGoodput(['replay', trace, '--url', sim.url, '--raw', raw, '--no-save'], {}, 120_000);
      expect(r.code).toBe(0);
      const { n, p99 } = lateP99(raw);
      expect(n).toBe(400);
      wallClock(p99, 'Azure replay send offset p99 (ms)').toBeLessThan(20);
    },
    patient(180_000),
  );

  it(
    "sends a ShareGPT file's first turns at a constant rate on schedule: send offsets p99 under 20 ms",
    async () => {
      const file = join(dir, 'sharegpt.json');
      writeShareGpt(file, 200);
      const raw = join(dir, 'sharegpt-raw.jsonl');
      const r = await runGoodput(
        [
          'sweep',
          '--url',
          sim.url,
          '--dataset',
          file,
          '--arrival',
          'rate',
          '--burstiness',
          'inf',
          '--levels',
          '25',
          '--requests-per-level',
          '200',
          '--warmup',
          '0',
          '--raw',
          raw,
          '--no-save',
        ],
        {},
        120_000,
      );
      expect(r.code).toBe(0);
      const { n, p99 } = lateP99(raw);
      expect(n).toBe(200);
      wallClock(p99, 'ShareGPT sweep send offset p99 (ms)').toBeLessThan(20);
    },
    patient(180_000),
  );
});
