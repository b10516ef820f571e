/**
 * `goodput sweep --endpoint transcriptions` in-process against the simulator:
 * the table (latency, RTF, words/s), the JSON result through its schema, the
 * raw records; the run saved in an embedded store and read back (runs show,
 * runs export); and every surface that does not serve speech to text
 * refusing it by name (flags, workers, client threads, compare, report, cards,
 * export, a contract run and capacity, the API's start body).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type TranscriptionResult, transcriptionResultSchema } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { startRunSchema } from '../api/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { poolingContract } from '../test-support/pooling-contract.js';

let sim: SimServer;
const dir = mkdtempSync(join(tmpdir(), 'goodput-transcriptions-'));
const data = join(dir, 'db');
const json = join(dir, 'stt.json');
const raw = join(dir, 'stt.jsonl');
const SECONDS = 4;
const sweep = (...more: string[]) =>
  cli(['sweep', '--url', sim.url, '--endpoint', 'transcriptions', '--audio-seconds', String(SECONDS), '--levels', '1,2', '--requests-per-level', '6', ...more]);
let result: TranscriptionResult;
// The simulator's transcriber as docs/endpoints.md states it: 20 ms plus 8 ms per second of audio, 2.5 words per second.
const TRANSCRIBER = { baseMs: 20, msPerAudioSecond: 8, wordsPerSecond: 2.5 };

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await sim.close();
});

describe('goodput sweep --endpoint transcriptions', () => {
  it('prints latency, real-time factor and words/s per level, writes the JSON result and raw records, and stores the run', async () => {
    const r = await sweep('--json', json, '--raw', raw, '--data', data);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`transcriptions /v1/audio/transcriptions: clips of ${SECONDS} s, model goodput-sim-1`);
    expect(r.stdout).toMatch(/Concurrency +Requests\/s +Latency p50 \(ms\) +p90 \(ms\) +p99 \(ms\) +RTF p50 +RTF p90 +Words\/s +Audio s\/s +Failed/);
    expect(r.stderr).toContain('stored as run 1 (complete)');
    result = transcriptionResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.run).toMatchObject({ endpoint: 'transcriptions', path: '/v1/audio/transcriptions', audioSeconds: SECONDS, status: 'complete' });
    const service = TRANSCRIBER.baseMs + SECONDS * TRANSCRIBER.msPerAudioSecond;
    const [one, two] = result.levels;
    expect(one).toMatchObject({ concurrency: 1, requests: 6, failed: 0 });
    // One transcriber: at one stream a request takes its service time; at two it also waits for the other's.
    expect(one!.latencyMs!.p50).toBeGreaterThanOrEqual(service - 1);
    expect(one!.latencyMs!.p50).toBeLessThan(service + 250);
    expect(one!.realTimeFactor!.p50).toBeCloseTo(one!.latencyMs!.p50 / 1000 / SECONDS, 6);
    expect(two!.latencyMs!.p50).toBeGreaterThan(one!.latencyMs!.p50 * 1.4);
    // Words follow the clip: 2.5 a second of audio, so words/s is 2.5 × audio seconds per second.
    expect(one!.wordsPerS! / one!.audioSecondsPerS!).toBeCloseTo(TRANSCRIBER.wordsPerSecond, 6);
    const records = readFileSync(raw, 'utf8').trim().split('\n');
    expect(records).toHaveLength(2 * (6 + 1));
    expect(JSON.parse(records[1] as string)).toMatchObject({ audioS: SECONDS, words: SECONDS * TRANSCRIBER.wordsPerSecond, outcome: { kind: 'ok' } });
  });

  it('reads the saved run back: runs export gives the result the sweep wrote, runs show its table', async () => {
    const out = join(dir, 'export.json');
    const exported = await cli(['runs', 'export', '1', '--out', out, '--data', data]);
    expect(exported.code, exported.stderr).toBe(0);
    const back = transcriptionResultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(back).toEqual(result);
    const show = await cli(['runs', 'show', '1', '--data', data]);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain(`transcriptions: clips of ${SECONDS} s`);
    expect(show.stdout).toMatch(/RTF p50 +RTF p90 +Words\/s/);
    const list = await cli(['runs', 'list', '--data', data]);
    expect(list.stdout).toMatch(/\n1 +complete .* transcriptions +2\/2 +—/);
  });

  it('counts injected faults as failed requests with their reasons', async () => {
    const faulty = await startSimulator({ faults: { http500: 0.5 } });
    try {
      const f = join(dir, 'faults.json');
      const r = await cli([
        'sweep',
        '--url',
        faulty.url,
        '--endpoint',
        'transcriptions',
        '--audio-seconds',
        '1',
        '--levels',
        '1',
        '--requests-per-level',
        '20',
        '--json',
        f,
      ]);
      const level = transcriptionResultSchema.parse(JSON.parse(readFileSync(f, 'utf8'))).levels[0]!;
      expect(level.failed).toBeGreaterThan(0);
      expect(level.failed).toBeLessThan(20);
      expect(level.failures[0]?.reason).toContain('HTTP 500');
      expect(r.stdout).toContain('failed: HTTP 500');
    } finally {
      await faulty.close();
    }
  });

  it('refuses flags it does not read, workers and client threads, naming the flag and the kind', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--workers', '2'], /--workers: transcriptions \(speech to text\) is sent from this process only/],
      [['--client-threads', '2'], /--client-threads: transcriptions \(speech to text\) is sent from one event loop/],
      [['--output-tokens', '64'], /--output-tokens: does not apply to --endpoint transcriptions/],
      [['--batch-size', '4'], /--batch-size: does not apply to --endpoint transcriptions/],
      [['--request-rate', '4'], /--request-rate: does not apply to --endpoint transcriptions/],
    ];
    for (const [flags, message] of cases) {
      const r = await sweep(...flags);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(message);
    }
    const none = await cli(['sweep', '--url', sim.url, '--endpoint', 'transcriptions']);
    expect(none.stderr).toContain('--audio-seconds: needs a length');
  });

  it('refuses a clip past the limit naming the transcription request, not a chat one', async () => {
    const r = await cli(['sweep', '--url', sim.url, '--endpoint', 'transcriptions', '--audio-seconds', '1e9', '--levels', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--audio-seconds: 1000000000 is above the limit of 120 seconds of synthetic audio in one transcription request');
    expect(r.stderr).not.toContain('chat request');
  });

  it('is refused by name where text or pooling results are read: compare, report, cards, export, and a stored run for compare', async () => {
    const copy = join(dir, 'stt-copy.json');
    writeFileSync(copy, readFileSync(json));
    for (const args of [
      ['compare', json, copy],
      ['report', json, '--out', join(dir, 'report.html')],
      ['cards', json],
      ['export', json, '--format', 'vllm'],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stderr, args.join(' ')).toContain('a transcriptions (speech to text) result, which this command does not read');
    }
    const stored = await cli(['compare', '1', copy, '--data', data]);
    expect(stored.code).not.toBe(0);
    expect(stored.stderr).toContain('run 1 is a transcriptions run; this reads text-generation runs');
  });

  it('is refused by a contract (goodput run, capacity) and by the API start body, naming the endpoint', async () => {
    const contract = join(dir, 'contract.yaml');
    writeFileSync(contract, stringify(poolingContract(sim.url, 'embeddings', (c) => (c.server.endpoint = 'transcriptions'))));
    for (const command of ['run', 'capacity']) {
      const r = await cli([command, contract]);
      expect(r.code, command).not.toBe(0);
      expect(r.stderr, command).toContain('endpoint must be chat, completions, embeddings or rerank');
    }
    const body = startRunSchema.safeParse({ serverId: 1, endpoint: 'transcriptions', levels: [1] });
    expect(body.success).toBe(false);
    expect(body.error?.issues[0]?.message).toBe(
      'endpoint: transcriptions (speech to text) runs are not started from the page or the API: run goodput sweep --endpoint transcriptions --save',
    );
  });
});
