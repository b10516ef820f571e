/** A fleet's client: each policy's pick, the record naming its target, and the targets' sockets opened and closed together. */
import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../core/index.js';
import { rec } from '../test-support/records.js';
import { createFleetClient, routeTo } from './fleet-client.js';
import type { PreparedRequest, StreamingClient } from './streaming-client.js';
import type { RequestMeta, RequestSpec } from './types.js';

const meta = (seq: number, session?: number): RequestMeta => ({
  seq,
  concurrency: 1,
  warmup: false,
  targetSendNs: 0,
  ...(session === undefined ? {} : { session: { id: session, turn: 0 } }),
});

/** A target that answers when told to, counting what it was sent and how many sockets it was asked for. */
function heldTarget(): StreamingClient & { sent: number[]; release(): void; asked: number[]; closed: boolean } {
  const waiting: Array<() => void> = [];
  const t = {
    sent: [] as number[],
    asked: [] as number[],
    closed: false,
    release: () => waiting.splice(0).forEach((f) => f()),
    prepare: (spec: RequestSpec, meta: RequestMeta) => ({ spec, meta, wire: Buffer.alloc(0), bytes: 0, builtNs: 0 }),
    send: (_: RequestSpec | PreparedRequest, m: RequestMeta): Promise<RequestRecord> => {
      t.sent.push(m.seq);
      return new Promise((resolve) => waiting.push(() => resolve({ ...rec(), seq: m.seq })));
    },
    openConnections: async (n: number) => {
      t.asked.push(n);
      return n;
    },
    close: async () => {
      t.closed = true;
    },
  };
  return t;
}

describe('routeTo', () => {
  it('takes the targets in turn, the least in flight (ties in turn), or the session’s own', () => {
    expect([0, 1, 2, 3].map((turn) => routeTo('round-robin', {}, [0, 0, 0], turn))).toEqual([0, 1, 2, 0]);
    expect(routeTo('least-in-flight', {}, [2, 0, 1], 0)).toBe(1);
    expect(routeTo('least-in-flight', {}, [1, 1, 1], 2)).toBe(2);
    expect([0, 1, 2, 3, 4].map((id) => routeTo('session', { session: { id, turn: 3 } }, [0, 9, 0], 7))).toEqual([0, 1, 2, 0, 1]);
    // A request outside any session (a warm-up of a session run) goes in turn.
    expect(routeTo('session', {}, [0, 0], 3)).toBe(1);
  });
});

describe('createFleetClient', () => {
  it('names the target on each record and sends the next request to the one with fewest in flight', async () => {
    const [a, b] = [heldTarget(), heldTarget()];
    const fleet = createFleetClient([a, b], 'least-in-flight');
    const spec = {} as RequestSpec;
    const first = [fleet.send(spec, meta(0)), fleet.send(spec, meta(1)), fleet.send(spec, meta(2))];
    expect([a.sent, b.sent]).toEqual([[0, 2], [1]]);
    b.release();
    expect((await first[1])?.target).toBe(1);
    // b is free again, a still holds two: the next two go to b.
    const next = [fleet.send(spec, meta(3)), fleet.send(spec, meta(4))];
    expect(b.sent).toEqual([1, 3, 4]);
    a.release();
    b.release();
    expect((await Promise.all([...first, ...next])).map((r) => [r.seq, r.target])).toEqual([
      [0, 0],
      [1, 1],
      [2, 0],
      [3, 1],
      [4, 1],
    ]);
    expect(await fleet.openConnections(4)).toBe(4);
    expect([a.asked, b.asked]).toEqual([[4], [4]]);
    await fleet.close();
    expect([a.closed, b.closed]).toEqual([true, true]);
  });
});

describe('a request built ahead for a fleet', () => {
  it('leaves unbuilt until it is sent, then goes to its target as a plain request, the end hook passed on', async () => {
    const got: Array<{ request: RequestSpec | PreparedRequest; hook: boolean }> = [];
    const target: StreamingClient = {
      prepare: () => {
        throw new Error('a fleet must not build on one target ahead of the route');
      },
      send: async (request, m, _signal, onEnded) => {
        got.push({ request, hook: onEnded !== undefined });
        return { ...rec(), seq: m.seq };
      },
      openConnections: async (n) => n,
      close: async () => {},
    };
    const fleet = createFleetClient([target, target], 'round-robin');
    const spec: RequestSpec = { endpoint: 'chat', model: 'm', prompt: 'p', maxTokens: 4, forceLength: false, thinking: false };
    const meta: RequestMeta = { seq: 1, concurrency: 1, warmup: false, targetSendNs: 0 };
    const r = await fleet.send(fleet.prepare(spec, meta), meta, undefined, () => {});
    expect(got).toEqual([{ request: spec, hook: true }]);
    expect(r.target).toBe(0);
  });
});
