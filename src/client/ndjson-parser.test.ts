// Trap 17: Ollama native is NDJSON, not SSE; lines are buffered across reads and decoded whole.
import { describe, expect, it } from 'vitest';
import { NdjsonParser } from './ndjson-parser.js';
import { randomPieces, seededRandom } from '../test-support/scripted-server.js';

function parse(pieces: Buffer[]): string[] {
  const lines: string[] = [];
  const p = new NdjsonParser((l) => lines.push(l));
  for (const piece of pieces) p.push(piece);
  p.end();
  return lines;
}

describe('NdjsonParser', () => {
  const text = '{"message":{"content":"猫"},"done":false}\n\n{"message":{"content":"🤔"},"done":false}\r\n{"done":true}';
  const expected = ['{"message":{"content":"猫"},"done":false}', '{"message":{"content":"🤔"},"done":false}', '{"done":true}'];

  it('splits on LF, drops CR and blank lines, and flushes a last line without LF at end()', () => {
    expect(parse([Buffer.from(text)])).toEqual(expected);
  });

  it('gives the same lines for every two-way split and one byte per read (multi-byte characters split)', () => {
    const bytes = Buffer.from(text);
    for (let i = 0; i <= bytes.length; i++) expect(parse([bytes.subarray(0, i), bytes.subarray(i)])).toEqual(expected);
    expect(parse([...bytes].map((b) => Buffer.from([b])))).toEqual(expected);
  });

  it('gives the same lines for seeded random splits', () => {
    const random = seededRandom(11);
    const bytes = Buffer.from(text.repeat(20));
    const all = parse([bytes]);
    for (let round = 0; round < 30; round++) expect(parse(randomPieces(bytes, random, 1 + Math.floor(random() * 40)))).toEqual(all);
  });
});
