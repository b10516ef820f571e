// The simulator's /v1/audio/transcriptions: a multipart WAV upload answered with text whose
// word count follows the clip, after the transcriber's performance model, faults as profiled.
import { describe, expect, it } from 'vitest';
import { syntheticWav } from '../workload/index.js';
import { transcriptionBody } from '../client/index.js';
import { useSimulators } from '../test-support/simulators.js';
import type { SimServer } from './index.js';
import { TRANSCRIBER, formParts, wavSeconds } from './transcription-route.js';

const sim = useSimulators();

async function upload(s: SimServer, opts: { seconds?: number; model?: string; warm?: boolean; body?: Buffer; type?: string } = {}) {
  const made = transcriptionBody(opts.model ?? 'goodput-sim-1', syntheticWav(opts.seconds ?? 4, 7, 0));
  const t0 = performance.now();
  const res = await fetch(`${s.url}/v1/audio/transcriptions`, {
    method: 'POST',
    headers: { 'content-type': opts.type ?? made.contentType, ...(opts.warm ? { 'x-goodput-warmup': '1' } : {}) },
    body: opts.body ?? made.body,
  });
  const json = (await res.json()) as { text?: string; error?: { message: string } };
  return { status: res.status, json, ms: performance.now() - t0 };
}

describe("the simulator's transcription route", () => {
  it('answers {text} with 2.5 words per second of audio, the same text for the same clip', async () => {
    const s = await sim();
    const a = await upload(s, { seconds: 4 });
    expect(a.status).toBe(200);
    expect(a.json.text?.split(' ')).toHaveLength(4 * TRANSCRIBER.wordsPerSecond);
    expect((await upload(s, { seconds: 4 })).json.text).toBe(a.json.text);
    expect((await upload(s, { seconds: 0.1 })).json.text?.split(' ')).toHaveLength(1);
  });

  it('takes baseMs plus msPerAudioSecond per second of audio, one request after another', async () => {
    const s = await sim();
    await upload(s, { seconds: 1 }); // the connection and the route's first run
    const seconds = 20;
    const service = TRANSCRIBER.baseMs + seconds * TRANSCRIBER.msPerAudioSecond;
    const one = await upload(s, { seconds });
    expect(one.ms).toBeGreaterThanOrEqual(service - 2);
    expect(one.ms).toBeLessThan(service + 300);
    // Two at once: the second waits for the first, so the slower of them takes about two services.
    const both = await Promise.all([upload(s, { seconds }), upload(s, { seconds })]);
    expect(Math.max(...both.map((b) => b.ms))).toBeGreaterThanOrEqual(2 * service - 2);
  });

  it('refuses what is not an upload of a WAV clip for the served model, naming the field', async () => {
    const s = await sim();
    expect((await upload(s, { type: 'application/json', body: Buffer.from('{}') })).status).toBe(400);
    const wrong = await upload(s, { model: 'whisper-x' });
    expect(wrong.status).toBe(404);
    expect(wrong.json.error?.message).toContain('whisper-x');
    const notWav = transcriptionBody('goodput-sim-1', Buffer.from('not a wav file at all, just some bytes that are long enough to read'));
    const r = await upload(s, { body: notWav.body, type: notWav.contentType });
    expect(r.status).toBe(400);
    expect(r.json.error?.message).toContain('not a WAV file');
  });

  it('injects the profile faults on measured requests, never on a warm-up', async () => {
    const s = await sim({ faults: { http503: 1 } });
    const r = await upload(s);
    expect(r.status).toBe(503);
    expect(r.json.error?.message).toContain('injected fault');
    expect((await upload(s, { warm: true })).status).toBe(200);
    const dropped = await sim({ faults: { dropStream: 1 } });
    await expect(upload(dropped)).rejects.toThrow();
  });

  it('reads form parts and WAV lengths', () => {
    const { body, contentType } = transcriptionBody('m', syntheticWav(2.5, 1, 0), 'XyZ');
    const parts = formParts(contentType, body);
    expect(parts instanceof Map && [...parts.keys()]).toEqual(['model', 'response_format', 'file']);
    expect(wavSeconds((parts as Map<string, Buffer>).get('file') as Buffer)).toBe(2.5);
    expect(formParts('text/plain', body)).toContain('multipart/form-data');
  });
});
