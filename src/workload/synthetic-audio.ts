/**
 * Synthetic audio for chat requests with audio inputs: a WAV clip (8 kHz,
 * 16-bit mono PCM) drawn from a seed alone with integer arithmetic only, so the
 * same seed gives the same bytes on every run and machine: three triangle tones
 * of seeded pitch with seeded noise, different for every clip index.
 */
import { AUDIO_SAMPLE_RATE, LIMITS, mulberry32 } from '../core/index.js';

/** The refusal for a length no clip may have, naming the flag; null when it is fine. */
export function audioSecondsProblem(seconds: number, flag = '--audio-seconds'): string | null {
  if (!Number.isFinite(seconds) || Math.round(seconds * AUDIO_SAMPLE_RATE) < 1) return `${flag}: the clip must be longer than 0 seconds (got ${seconds})`;
  if (seconds > LIMITS.audioSeconds.max) return `${flag}: ${seconds} is above the limit of ${LIMITS.audioSeconds.max} ${LIMITS.audioSeconds.what}`;
  return null;
}

/** The WAV file of clip `index` drawn from `seed`. @throws RangeError for a length past the limits table. */
export function syntheticWav(seconds: number, seed: number, index: number): Buffer {
  const problem = audioSecondsProblem(seconds, 'audio length');
  if (problem !== null) throw new RangeError(problem);
  const samples = Math.round(seconds * AUDIO_SAMPLE_RATE);
  const random = mulberry32((Math.imul(seed, 0x27d4eb2f) ^ Math.imul(index + 1, 0x165667b1)) >>> 0);
  // Periods of 8–80 samples: 100 Hz to 1 kHz tones.
  const periods = [0, 1, 2].map(() => 8 + Math.floor(random() * 72));
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8, 'latin1');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(AUDIO_SAMPLE_RATE, 24);
  wav.writeUInt32LE(AUDIO_SAMPLE_RATE * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(samples * 2, 40);
  for (let n = 0; n < samples; n++) {
    let v = 0;
    for (const p of periods) {
      const phase = n % p;
      v += Math.floor(((phase < p / 2 ? phase : p - phase) * 4 * 8000) / p) - 8000;
    }
    v += Math.floor(random() * 2000) - 1000;
    wav.writeInt16LE(Math.max(-32768, Math.min(32767, v)), 44 + n * 2);
  }
  return wav;
}
