/**
 * Ctrl-C while a level waits on time rather than on answers: inside the ramp of
 * a level bounded by an hour (`--duration 1h --ramp-up 30`), and between two
 * rows of a dataset replayed on its own times an hour apart. The stop ends the
 * wait at once, not when the time is up: exit 130, "nothing was finished", no
 * file written.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimServer, startSimulator } from '../sim/index.js';
import { startGoodput } from '../test-support/goodput-process.js';
import { patient } from '../test-support/patience.js';

let sim: SimServer;
const dir = mkdtempSync(join(tmpdir(), 'goodput-stop-waiting-'));
beforeAll(async () => {
  sim = await startSimulator({ prefillBaseMs: 1, decodeStepMs: 1, decodeMsPerExtraSeq: 0 });
});
afterAll(async () => {
  await sim?.close();
});

/** Starts `args`, waits for `ready` and a little more, sends SIGINT: the exit code, what was said, and whether `json` was written. */
async function interrupt(args: string[], ready: RegExp, json: string): Promise<{ code: number | null; stderr: string; wrote: boolean }> {
  const run = startGoodput([...args, '--json', json, '--no-save']);
  await run.waitFor(ready, 60_000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const code = await run.stop('SIGINT');
  return { code, stderr: run.out().stderr, wrote: existsSync(json) };
}

describe('Ctrl-C while a level waits on time', () => {
  it(
    'inside the ramp of a level bounded by an hour',
    async () => {
      const json = join(dir, 'timed.json');
      const args = ['sweep', '--url', sim.url, '--levels', '4', '--duration', '1h', '--ramp-up', '30', '--output-tokens', '16', '--prompt-tokens', '8'];
      const r = await interrupt(args, /^engine /m, json);
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toMatch(/nothing was finished: stopped before the first level ended, so no result was written/);
      expect(r.wrote).toBe(false);
    },
    patient(90_000),
  );

  it(
    'between two rows of a dataset replayed on its own times, an hour apart',
    async () => {
      const data = join(dir, 'hour.csv');
      writeFileSync(data, 'sent,question,n\n0,What is a llama?,4\n3600,Why is the sky blue?,4\n');
      const json = join(dir, 'hour.json');
      const args = ['replay', data, '--column', 'prompt=question,output_len=n,timestamp=sent', '--url', sim.url];
      const r = await interrupt(args, /^engine /m, json);
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toMatch(/nothing was finished/);
      expect(r.wrote).toBe(false);
    },
    patient(90_000),
  );
});
