/**
 * The closed loop replaces a request that ended well from its end hook (before
 * its record is in), a failed or paced one once its record is in, never sends
 * more than the level's requests, and settles only when every record is in.
 */
import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../core/index.js';
import { runClosedLoop } from './closed-loop.js';

interface Sent {
  i: number;
  targetSendNs: number;
  end(ok: boolean, endNs: number): void;
}

/** A fake send: each request waits for the test to end it; `end(true)` calls the hook, then resolves a turn later. */
function fakeSends() {
  const sent: Sent[] = [];
  const send = (i: number, targetSendNs: number, onEnded?: (endNs: number) => void) =>
    new Promise<RequestRecord>((resolve) => {
      sent.push({
        i,
        targetSendNs,
        end(ok, endNs) {
          if (ok) onEnded?.(endNs);
          setImmediate(() => resolve({ endNs, outcome: ok ? { kind: 'ok' } : { kind: 'timeout', phase: 'stream', message: 't' } } as RequestRecord));
        },
      });
    });
  return { sent, send };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('runClosedLoop', () => {
  it('replaces a good end from the hook, before its record is in', async () => {
    const { sent, send } = fakeSends();
    let settled = false;
    const loop = runClosedLoop({ slots: 2, from: 0, to: 4, startNs: 5, clock: () => 0, signal: new AbortController().signal, early: true, send }).then(
      () => (settled = true),
    );
    expect(sent.map((s) => [s.i, s.targetSendNs])).toEqual([
      [0, 5],
      [1, 5],
    ]);
    sent[0]?.end(true, 100);
    // Sent at once, from the hook: no turn of the loop between the end and the replacement.
    expect(sent.map((s) => [s.i, s.targetSendNs])).toContainEqual([2, 100]);
    sent[1]?.end(false, 200);
    expect(sent).toHaveLength(3);
    await tick();
    await tick();
    // The failure is replaced once its record is in, at its end.
    expect(sent.map((s) => [s.i, s.targetSendNs])).toContainEqual([3, 200]);
    for (const s of sent.slice(2)) s.end(true, 300);
    expect(sent).toHaveLength(4);
    expect(settled).toBe(false);
    await loop;
    expect(settled).toBe(true);
  });

  it('waits for each record when it may not replace early (a paced loop)', async () => {
    const { sent, send } = fakeSends();
    const loop = runClosedLoop({ slots: 1, from: 10, to: 12, startNs: 0, clock: () => 0, signal: new AbortController().signal, early: false, send });
    sent[0]?.end(true, 50);
    expect(sent).toHaveLength(1);
    await tick();
    await tick();
    expect(sent.map((s) => [s.i, s.targetSendNs])).toEqual([
      [10, 0],
      [11, 50],
    ]);
    sent[1]?.end(true, 60);
    await loop;
  });

  it('sends nothing more once stopped, and settles when the requests out are in', async () => {
    const { sent, send } = fakeSends();
    const stop = new AbortController();
    const loop = runClosedLoop({ slots: 2, from: 0, to: 100, startNs: 0, clock: () => 0, signal: stop.signal, early: true, send });
    stop.abort();
    sent[0]?.end(true, 1);
    sent[1]?.end(true, 2);
    await loop;
    expect(sent).toHaveLength(2);
  });

  it("asks for each request's successor a round ahead, never past the level", async () => {
    const { sent, send } = fakeSends();
    const ahead: number[] = [];
    const signal = new AbortController().signal;
    const loop = runClosedLoop({ slots: 2, from: 10, to: 15, startNs: 0, clock: () => 0, signal, early: true, send, prepareAhead: (i) => ahead.push(i) });
    expect(ahead).toEqual([12, 13]);
    sent[0]?.end(true, 1);
    sent[1]?.end(true, 2);
    expect(ahead).toEqual([12, 13, 14]);
    for (let n = 2; n < 5; n++) sent[n]?.end(true, 3);
    await loop;
    expect(sent.map((s) => s.i)).toEqual([10, 11, 12, 13, 14]);
    expect(ahead).toEqual([12, 13, 14]);
  });

  it('rejects when a send does', async () => {
    const loop = runClosedLoop({
      slots: 1,
      from: 0,
      to: 3,
      startNs: 0,
      clock: () => 0,
      signal: new AbortController().signal,
      early: true,
      send: () => Promise.reject(new Error('thread lost')),
    });
    await expect(loop).rejects.toThrow('thread lost');
  });
});
