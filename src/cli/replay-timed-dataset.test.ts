/**
 * A local dataset replayed on its own send times, as a user runs it against the
 * simulator: each row's target send offset is its timestamp's offset from the
 * first row's (halved at speed 2), with its own output length, the source
 * recorded as a dataset; and the refusals, by flag or by file and line, exit 2
 * with nothing written.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestRecord, sweepResultSchema } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli as inProcess } from '../test-support/cli-in-process.js';

let sim: SimServer;
const dir = mkdtempSync(join(tmpdir(), 'goodput-timed-dataset-'));
const cli = (args: string[]) => inProcess([...args, '--no-save']);
const csv = (name: string, ...lines: string[]) => {
  const p = join(dir, name);
  writeFileSync(p, lines.join('\n') + '\n');
  return p;
};
/** Seconds from any zero, a quoted prompt with a comma, output lengths of their own. */
const TIMED = ['sent,question,n', '1700000000.0,What is a llama?,3', '1700000000.25,"Why, then, is the sky blue?",5', '1700000000.5,Name three rivers.,4'];

beforeAll(async () => {
  sim = await startSimulator({ prefillBaseMs: 1, decodeStepMs: 1, decodeMsPerExtraSeq: 0 });
});
afterAll(async () => {
  await sim?.close();
});

describe('goodput replay DATASET --column …,timestamp=COL', () => {
  it("sends each row at its own offset, with its own output length, at each speed; the source is the dataset's", async () => {
    const path = csv('timed.csv', ...TIMED);
    const json = join(dir, 'timed.json');
    const raw = join(dir, 'timed-raw.jsonl');
    const ran = await cli([
      'replay',
      path,
      '--column',
      'prompt=question,output_len=n,timestamp=sent',
      '--url',
      sim.url,
      '--speed',
      '1,2',
      '--json',
      json,
      '--raw',
      raw,
    ]);
    expect(ran.stderr).toMatch(/trace dataset: 3 requests over 0\.5 s; sha256 [0-9a-f]{12}…/);
    expect(ran.code).toBe(0);
    const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.run.arrival).toMatchObject({ kind: 'trace', source: { file: 'timed.csv', format: 'dataset', window: null } });
    // A level per speed, each sending every row.
    expect(result.levels.map((l) => l.requests)).toEqual([3, 3]);
    const records = readFileSync(raw, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RequestRecord);
    for (const speed of [1, 2]) {
      const level = records.filter((r) => r.concurrency === speed).sort((a, b) => a.targetSendNs - b.targetSendNs);
      const t0 = level[0]?.targetSendNs ?? NaN;
      expect(level.map((r) => Math.round((r.targetSendNs - t0) / 1e3) / 1e3)).toEqual([0, 250, 500].map((ms) => ms / speed));
      expect(level.map((r) => r.outputTokens)).toEqual([3, 5, 4]);
    }
  });

  it('refuses a sweep given a send time, a replay mapping none, and a bad row by file and line, writing nothing', async () => {
    const path = csv('refused.csv', ...TIMED);
    const json = join(dir, 'refused.json');
    const sweep = await cli(['sweep', '--url', sim.url, '--dataset', path, '--column', 'prompt=question,output_len=n,timestamp=sent', '--json', json]);
    expect(sweep.code).toBe(2);
    expect(sweep.stderr).toContain(
      '--column: timestamp= sends each row at its own time: replay the dataset with goodput replay FILE --column … (its levels are speeds)',
    );
    const untimed = await cli(['replay', path, '--column', 'prompt=question,output_len=n', '--url', sim.url, '--json', json]);
    expect(untimed.code).toBe(2);
    expect(untimed.stderr).toContain(
      '--column: a replay sends each row at its own time: map timestamp=COLUMN (seconds, or a date and time) or timestamp_ms=COLUMN',
    );
    const noOutput = await cli(['replay', path, '--column', 'prompt=question,timestamp=sent', '--url', sim.url, '--json', json]);
    expect(noOutput.code).toBe(2);
    expect(noOutput.stderr).toContain("--column: a replay takes each request's output length from its row: map output_len=COLUMN");
    const bad = csv('bad.csv', 'sent,question,n', '0,a,1', 'later,b,1');
    const badRow = await cli(['replay', bad, '--column', 'prompt=question,output_len=n,timestamp=sent', '--url', sim.url, '--json', json]);
    expect(badRow.code).toBe(2);
    expect(badRow.stderr).toContain(`dataset ${bad}: line 3: timestamp (column "sent") "later" is not a date and time like 2023-11-16 18:15:46.6805900`);
    expect(existsSync(json)).toBe(false);
  });

  it('refuses a dataset that is a link to /dev/zero, a FIFO, a sparse 2 GB file, or a row far before the first, writing nothing', async () => {
    const json = join(dir, 'attacked.json');
    const replay = (path: string) => cli(['replay', path, '--column', 'prompt=question,output_len=n,timestamp=sent', '--url', sim.url, '--json', json]);
    const zero = join(dir, 'zero.csv');
    symlinkSync('/dev/zero', zero);
    const fifo = join(dir, 'fifo.csv');
    execFileSync('mkfifo', [fifo]);
    const huge = join(dir, 'huge.csv');
    writeFileSync(huge, '');
    truncateSync(huge, 2 * 1024 ** 3);
    // Sorted to the front, the second row would push the first 400 days (and every row after it) later.
    const back = csv('back.csv', 'sent,question,n', `${400 * 86_400},a,1`, '0,b,1');
    const refusals: Array<[string, string]> = [
      [zero, `dataset ${zero} is a symbolic link; give the file itself`],
      [fifo, `dataset ${fifo} is a FIFO (named pipe), not a regular file`],
      [huge, `dataset ${huge} is 2147483648 bytes, above the limit of 536870912 bytes in one dataset file (Parquet, JSONL, CSV or ShareGPT JSON)`],
      [back, `dataset ${back}: line 3: the timestamp is 400 days before the first row's, past the 366 days a trace may span; take a --window`],
    ];
    for (const [path, message] of refusals) {
      const ran = await replay(path);
      expect(ran.code, ran.stderr).toBe(2);
      expect(ran.stderr).toContain(message);
    }
    expect(existsSync(json)).toBe(false);
  });
});
