/**
 * Wall-clock accuracy of an agent replay (timing pass, not npm test): a
 * synthetic trace of 20 root agents, sub-agent fan-out 1–4 and tool waits of
 * 0.2–2 s, as recorded, against the simulator: every sub-agent's first request
 * leaves within 10 ms of its parent turn's end plus its recorded delay, from the
 * raw records, and the level's own figure agrees.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { replayAgents } from '../test-support/agent-replay.js';
import { wallClock } from '../test-support/wall-clock.js';
import { patient } from '../test-support/patience.js';

let sim: SimProcess;
beforeAll(async () => {
  sim = await spawnSimProcess(['--prefill-base-ms', '5', '--decode-step-ms', '5']);
});
afterAll(async () => {
  await sim?.stop();
});

describe('agent replay timing', () => {
  it(
    "starts every sub-agent within 10 ms of its parent turn's end plus its delay",
    async () => {
      const rep = await replayAgents(
        mkdtempSync(join(tmpdir(), 'goodput-agents-timing-')),
        sim.url,
        ['--agents', '20', '--fan-out', '1..4', '--tool-wait-s', '0.2..2', '--seed', '7'],
        [],
        240_000,
      );
      expect(rep.ran.code).toBe(0);
      expect(rep.spawns.length).toBeGreaterThanOrEqual(20);
      const lags = rep.spawns.map(({ child, parent, delayMs }) => (child.sendNs - ((parent.endNs as number) + delayMs * 1e6)) / 1e6);
      expect(Math.min(...lags)).toBeGreaterThanOrEqual(0);
      wallClock(Math.max(...lags), 'sub-agent start lag max (ms)').toBeLessThan(10);
      wallClock(rep.result.levels[0]?.agents?.childStartLagMs?.max, 'childStartLagMs.max').toBeLessThan(10);
    },
    patient(300_000),
  );
});
