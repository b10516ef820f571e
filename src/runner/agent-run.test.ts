/**
 * The agent schedule on a virtual clock: roots at their recorded offsets, each
 * sub-agent at its parent turn's end plus its delay, each later turn at the
 * later of its tool wait and the end of every child it joins, all scaled by the
 * speed; a failed turn ends its session only; a stop sends nothing more.
 */
import { describe, expect, it } from 'vitest';
import type { AgentsSource } from '../workload/index.js';
import { runAgents } from './agent-run.js';

const MS = 1e6;
// main: 3 turns, spawns c1 and c2 after turn 1; c2 spawns g after its turn 1; solo: one root of 2 turns, 50 ms later.
const src: AgentsSource = {
  kind: 'agents',
  blockTokens: 4,
  context: null,
  sessions: [
    {
      name: 'main',
      line: 2,
      job: 0,
      parent: null,
      after: 0,
      atMs: 0,
      turns: [
        { p: 4, o: 1, w: 0 },
        { p: 8, o: 1, w: 30 },
        { p: 9, o: 1, w: 5 },
      ],
    },
    { name: 'c1', line: 3, job: 0, parent: 0, after: 0, atMs: 10, turns: [{ p: 4, o: 1, w: 0 }] },
    {
      name: 'c2',
      line: 4,
      job: 0,
      parent: 0,
      after: 0,
      atMs: 2,
      turns: [
        { p: 4, o: 1, w: 0 },
        { p: 6, o: 1, w: 1 },
      ],
    },
    {
      name: 'g',
      line: 5,
      job: 0,
      parent: 2,
      after: 0,
      atMs: 4,
      turns: [
        { p: 4, o: 1, w: 0 },
        { p: 5, o: 1, w: 0 },
      ],
    },
    {
      name: 'solo',
      line: 6,
      job: 4,
      parent: null,
      after: 0,
      atMs: 50,
      turns: [
        { p: 4, o: 1, w: 0 },
        { p: 5, o: 1, w: 20 },
      ],
    },
  ],
};

interface Sent {
  id: number;
  turn: number;
  seq: number;
  target: number;
  end: number;
}

/** Runs on a virtual clock: every turn lasts `durMs(id, turn)`; waits jump the clock. */
async function run(
  o: { speed?: number; durMs?: (id: number, turn: number) => number; fails?: (id: number, turn: number) => boolean; stopAfter?: number } = {},
) {
  let now = 1000 * MS;
  const sent: Sent[] = [];
  const preparedAt = new Map<number, number>();
  const stop = new AbortController();
  await runAgents(src, o.speed ?? 1, now, stop.signal, {
    clock: () => now,
    sleepUntil: async (target) => {
      now = Math.max(now, target);
    },
    prepare: (_id, _turn, seq) => {
      preparedAt.set(seq, now);
    },
    send: async (id, turn, seq, target) => {
      const end = target + (o.durMs?.(id, turn) ?? 100) * MS;
      sent.push({ id, turn, seq, target, end });
      if (o.stopAfter !== undefined && sent.length >= o.stopAfter) stop.abort();
      return { endNs: end, ok: !(o.fails?.(id, turn) ?? false) };
    },
  });
  const at = (id: number, turn: number) => sent.find((s) => s.id === id && s.turn === turn);
  return { sent, at, start: 1000 * MS, preparedAt };
}

describe('the agent schedule', () => {
  it('starts roots at their offsets, children at the parent turn end plus their delay, later turns after their wait and their children', async () => {
    const { sent, at, start } = await run({ durMs: (id) => (id === 3 ? 400 : 100) });
    expect(sent).toHaveLength(10);
    expect(sent.map((s) => s.seq).sort((a, b) => a - b)).toEqual([...Array(10).keys()]);
    const main0 = at(0, 0) as Sent;
    expect(main0.target).toBe(start);
    expect(at(4, 0)?.target).toBe(start + 50 * MS);
    expect(at(1, 0)?.target).toBe(main0.end + 10 * MS);
    expect(at(2, 0)?.target).toBe(main0.end + 2 * MS);
    // The grandchild starts after c2's turn 1; c2's turn 2 waits for it (400 ms) rather than its own 1 ms wait.
    const g = at(3, 0) as Sent;
    expect(g.target).toBe((at(2, 0) as Sent).end + 4 * MS);
    expect(at(2, 1)?.target).toBe((at(3, 1) as Sent).end);
    // main's turn 2 waits for both children: c2 (held by g) ends last, after main's own 30 ms wait.
    const joined = Math.max((at(1, 0) as Sent).end, (at(2, 1) as Sent).end);
    expect(joined).toBeGreaterThan(main0.end + 30 * MS);
    expect(at(0, 1)?.target).toBe(joined);
    // Without children the tool wait alone decides.
    expect(at(0, 2)?.target).toBe((at(0, 1) as Sent).end + 5 * MS);
    expect(at(4, 1)?.target).toBe((at(4, 0) as Sent).end + 20 * MS);
  });

  it("builds each turn at most 50 ms before it is due, never a level's worth up front", async () => {
    const { sent, preparedAt } = await run();
    for (const s of sent) {
      const at = preparedAt.get(s.seq) as number;
      expect(at).toBeLessThanOrEqual(s.target);
      expect(s.target - at).toBeLessThanOrEqual(50 * MS);
    }
  });

  it('takes the tool wait when it outlasts every child', async () => {
    const { at } = await run({ durMs: () => 1 });
    // Children end within 12 ms of main's turn 1; its 30 ms tool wait is later.
    expect(at(0, 1)?.target).toBe((at(0, 0) as Sent).end + 30 * MS);
  });

  it('divides every recorded offset, delay and wait by the speed', async () => {
    const { at, start } = await run({ speed: 2, durMs: () => 1 });
    expect(at(4, 0)?.target).toBe(start + 25 * MS);
    expect(at(1, 0)?.target).toBe((at(0, 0) as Sent).end + 5 * MS);
    expect(at(0, 1)?.target).toBe((at(0, 0) as Sent).end + 15 * MS);
  });

  it("scales every turn's schedule at speed 4, sub-agents' and later turns' as well as the roots'", async () => {
    // Turns that take no time leave the recorded schedule alone: every send is then its recorded offset ÷ the speed.
    const once = await run({ speed: 1, durMs: () => 0 });
    const fast = await run({ speed: 4, durMs: () => 0 });
    expect(fast.sent).toHaveLength(once.sent.length);
    const offset = (r: Awaited<ReturnType<typeof run>>, s: Sent) => (s.target - r.start) / MS;
    for (const s of once.sent) {
      const f = fast.at(s.id, s.turn) as Sent;
      expect(offset(fast, f), `${src.sessions[s.id]?.name} turn ${s.turn + 1}`).toBeCloseTo(offset(once, s) / 4, 9);
    }
    // Children and later turns are in it, not only the roots.
    expect(once.sent.filter((s) => src.sessions[s.id]?.parent !== null || s.turn > 0).every((s) => offset(once, s) > 0)).toBe(true);
  });

  it('ends only the session whose turn failed: its children are not spawned, its parent joins it and goes on', async () => {
    const { sent, at } = await run({ fails: (id, turn) => id === 2 && turn === 0 });
    expect(at(3, 0)).toBeUndefined();
    expect(at(2, 1)).toBeUndefined();
    expect(at(0, 1)?.target).toBe(Math.max((at(0, 0) as Sent).end + 30 * MS, (at(1, 0) as Sent).end, (at(2, 0) as Sent).end));
    expect(sent).toHaveLength(7);
  });

  it('sends nothing once stopped', async () => {
    const { sent } = await run({ stopAfter: 3 });
    expect(sent).toHaveLength(3);
  });
});
