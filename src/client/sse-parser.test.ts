import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SseParser } from './sse-parser.js';
import { randomPieces, seededRandom } from '../test-support/scripted-server.js';

const fixture = (name: string): Buffer => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

/** Feeds `pieces` one by one and returns every event, in order. */
function parse(pieces: Buffer[], end = true): string[] {
  const events: string[] = [];
  const parser = new SseParser((d) => events.push(d));
  for (const p of pieces) parser.push(p);
  if (end) parser.end();
  return events;
}

const whole = (text: string | Buffer): string[] => parse([Buffer.from(text)]);

/** Every split of `bytes` into two reads, and one byte per read. */
function everySplit(bytes: Buffer, expected: string[]): void {
  for (let i = 0; i <= bytes.length; i++) {
    expect(parse([bytes.subarray(0, i), bytes.subarray(i)])).toEqual(expected);
  }
  expect(parse([...bytes].map((b) => Buffer.from([b])))).toEqual(expected);
}

describe('SseParser', () => {
  it('reads LF, CRLF and CR line endings alike', () => {
    const expected = ['{"a":1}', '{"b":2}'];
    expect(whole('data: {"a":1}\n\ndata: {"b":2}\n\n')).toEqual(expected);
    expect(whole('data: {"a":1}\r\n\r\ndata: {"b":2}\r\n\r\n')).toEqual(expected);
    expect(whole('data: {"a":1}\r\rdata: {"b":2}\r\r')).toEqual(expected);
    expect(whole('data: {"a":1}\r\n\ndata: {"b":2}\n\r\n')).toEqual(expected);
  });

  it('ignores comments, keep-alives and fields other than data', () => {
    const text = ': ping\n\n:keep-alive\nevent: message\nid: 7\nretry: 10\ndata: x\n\n: bye\n\n';
    expect(whole(text)).toEqual(['x']);
  });

  it('accepts data with or without the space, and a stray trailing space', () => {
    expect(whole('data:{"a":1}\n\ndata:  two\n\n')).toEqual(['{"a":1}', ' two']);
    expect(whole('data: {"a":1} \n\ndata: [DONE] \n\n')).toEqual(['{"a":1} ', '[DONE] ']);
    expect(whole('data: {"a":1}\n \ndata: b\n\t\n')).toEqual(['{"a":1}', 'b']);
  });

  it('joins multi-line data with \\n and dispatches only events that have data', () => {
    expect(whole('data: a\ndata: b\ndata\n\nevent: x\n\ndata: c\n\n')).toEqual(['a\nb\n', 'c']);
    expect(whole('database: nope\ndata2: no\n\n')).toEqual([]);
  });

  it('flushes a final event without its blank line only at end()', () => {
    expect(parse([Buffer.from('data: a\n\ndata: last')], false)).toEqual(['a']);
    expect(parse([Buffer.from('data: a\n\ndata: last')])).toEqual(['a', 'last']);
    expect(parse([Buffer.from('data: a\n\ndata: last\r')])).toEqual(['a', 'last']);
  });

  it('strips a leading byte-order mark', () => {
    expect(whole(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('data: x\n\n')]))).toEqual(['x']);
  });

  it('decodes emoji and CJK split at every byte boundary', () => {
    const text = 'data: {"t":"🤔 猫の数 — ok"}\n\ndata: 😀😀\r\n\r\n';
    everySplit(Buffer.from(text), ['{"t":"🤔 猫の数 — ok"}', '😀😀']);
  });

  it('gives the same events for a transcript split at every byte boundary', () => {
    for (const name of ['llama-server/10-chat-stream-usage.sse', 'vllm/continuous-usage-crlf.sse', 'mixed/trtllm-stray-space.sse']) {
      const bytes = fixture(name);
      const expected = whole(bytes);
      expect(expected.length).toBeGreaterThan(4);
      expect(expected.at(-1)?.trim()).toBe('[DONE]');
      everySplit(bytes, expected);
    }
  });

  it('gives the same events for transcripts split at seeded random boundaries, in LF, CRLF and CR', () => {
    const base = fixture('llama-server/22-midstream-error-random-model.sse');
    const expected = whole(base);
    expect(expected).toHaveLength(185);
    const variants = [base, Buffer.from(base.toString('utf8').replace(/\n/g, '\r\n')), Buffer.from(base.toString('utf8').replace(/\n/g, '\r'))];
    const random = seededRandom(42);
    for (let round = 0; round < 60; round++) {
      const bytes = variants[round % 3] as Buffer;
      const maxPiece = 1 + Math.floor(random() * 200);
      expect(parse(randomPieces(bytes, random, maxPiece))).toEqual(expected);
    }
  });
});
