import { describe, expect, it } from 'vitest';
import { RUN_KINDS, kindOfEndpoint, kindOfResult } from './run-kinds.js';
import { type TranscriptionRecord, transcriptionLevel, transcriptionLevelSchema } from './transcription.js';

const rec = (seq: number, sentMs: number, endMs: number, over: Partial<TranscriptionRecord> = {}): TranscriptionRecord => ({
  seq,
  concurrency: 2,
  warmup: false,
  sentNs: sentMs * 1e6,
  endNs: endMs * 1e6,
  audioS: 4,
  words: 10,
  outcome: { kind: 'ok' },
  ...over,
});

describe('a transcription level', () => {
  it('is requests/s, latency, real-time factor, words and audio seconds per second, from measured records only', () => {
    const l = transcriptionLevel(2, [
      rec(0, 0, 5000, { warmup: true }),
      rec(1, 0, 400),
      rec(2, 0, 800),
      rec(3, 400, 1000, { words: null, outcome: { kind: 'http-error', status: 500, message: 'boom' } }),
    ]);
    expect(l).toMatchObject({ concurrency: 2, requests: 3, failed: 1, durationS: 1, requestsPerS: 3, wordsPerS: 20, audioSecondsPerS: 8 });
    expect(l.latencyMs).toMatchObject({ mean: 600 });
    expect(l.realTimeFactor?.mean).toBeCloseTo(0.15, 12);
    expect(l.failures).toEqual([{ reason: 'HTTP 500: boom', count: 1 }]);
    expect(transcriptionLevelSchema.parse(l)).toEqual(l);
  });

  it('has no rates when every request failed', () => {
    const l = transcriptionLevel(1, [rec(0, 0, 10, { words: null, outcome: { kind: 'timeout', message: 'late' } })]);
    expect(l).toMatchObject({ requestsPerS: null, wordsPerS: null, latencyMs: null, realTimeFactor: null });
  });

  it('is its own run kind, read from the endpoint', () => {
    expect(kindOfEndpoint('transcriptions')).toBe('transcriptions');
    expect(kindOfResult({ run: { endpoint: 'transcriptions' } })).toBe('transcriptions');
    expect(RUN_KINDS.transcriptions.label).toBe('speech to text');
  });
});
