import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { audioSecondsProblem, syntheticWav } from './synthetic-audio.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('syntheticWav', () => {
  it('is byte-identical for the same seed and index, different otherwise, and pinned', () => {
    const a = syntheticWav(1.5, 42, 0);
    expect(sha(syntheticWav(1.5, 42, 0))).toBe(sha(a));
    expect(sha(syntheticWav(1.5, 42, 1))).not.toBe(sha(a));
    expect(sha(syntheticWav(1.5, 43, 0))).not.toBe(sha(a));
    expect(sha(a)).toMatchInlineSnapshot(`"c483aed7e77db55a8930382c3a14c86942f74c845993cc12e0ca07032c16ed84"`);
  });

  it('writes an 8 kHz 16-bit mono PCM WAV of the asked length that is not silence', () => {
    const w = syntheticWav(2, 1, 0);
    expect(w.toString('latin1', 0, 4)).toBe('RIFF');
    expect(w.toString('latin1', 8, 16)).toBe('WAVEfmt ');
    expect([w.readUInt16LE(20), w.readUInt16LE(22), w.readUInt32LE(24), w.readUInt16LE(34)]).toEqual([1, 1, 8000, 16]);
    expect(w.readUInt32LE(40)).toBe(2 * 8000 * 2);
    expect(w.length).toBe(44 + 32_000);
    const samples = new Set(Array.from({ length: 1000 }, (_, i) => w.readInt16LE(44 + i * 2)));
    expect(samples.size).toBeGreaterThan(100);
  });

  it('refuses 0, negative, NaN and past the limits table, naming the flag', () => {
    expect(audioSecondsProblem(0)).toBe('--audio-seconds: the clip must be longer than 0 seconds (got 0)');
    expect(audioSecondsProblem(-3)).toBe('--audio-seconds: the clip must be longer than 0 seconds (got -3)');
    expect(audioSecondsProblem(Number.NaN)).toMatch(/longer than 0 seconds/);
    expect(audioSecondsProblem(121)).toBe('--audio-seconds: 121 is above the limit of 120 seconds of synthetic audio in one chat request');
    expect(() => syntheticWav(-1, 1, 0)).toThrow(RangeError);
  });
});
