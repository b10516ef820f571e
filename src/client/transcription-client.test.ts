// The transcription client over loopback: against the simulator (a record with the clip's seconds and the
// text's words, timed), and against servers that break the route's contract (an error status, no text).
import { afterEach, describe, expect, it } from 'vitest';
import { syntheticWav } from '../workload/index.js';
import { useSimulators } from '../test-support/simulators.js';
import { startServer, type TestServer } from '../test-support/scripted-server.js';
import { monotonicNs } from './clock.js';
import { createTranscriptionClient, wordsOfAnswer } from './transcription-client.js';

const sim = useSimulators();
const meta = { seq: 3, concurrency: 2, warmup: false };
const clip = { wav: syntheticWav(2, 1, 0), seconds: 2 };
let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

const clientOf = (baseUrl: string) => createTranscriptionClient({ baseUrl }, { connections: 1, clock: monotonicNs, timeoutMs: 10_000 });

describe('the transcription client', () => {
  it("uploads a clip to the simulator and records its seconds, the answer's words and both instants", async () => {
    const s = await sim();
    const client = clientOf(s.url);
    try {
      const r = await client.send('goodput-sim-1', clip, meta);
      expect(r).toMatchObject({ seq: 3, concurrency: 2, warmup: false, audioS: 2, words: 5, outcome: { kind: 'ok' } });
      expect(r.endNs).toBeGreaterThan(r.sentNs);
      const missing = await client.send('nope', clip, meta);
      expect(missing.outcome).toMatchObject({ kind: 'http-error', status: 404 });
      expect(missing.words).toBeNull();
    } finally {
      await client.close();
    }
  });

  it('records an answer with no text as a bad answer', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"words": 3}');
    });
    servers.push(server);
    const client = clientOf(server.url);
    try {
      expect((await client.send('m', clip, meta)).outcome).toEqual({ kind: 'bad-answer', message: 'the answer has no text' });
    } finally {
      await client.close();
    }
  });

  it('counts words of the text, whatever the spacing', () => {
    expect(wordsOfAnswer('{"text": "  one two\\nthree  "}')).toEqual({ ok: true, words: 3 });
    expect(wordsOfAnswer('{"text": ""}')).toEqual({ ok: true, words: 0 });
    expect(wordsOfAnswer('not json')).toEqual({ ok: false, message: 'the answer is not JSON' });
  });
});
