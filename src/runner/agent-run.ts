/**
 * An agent trace's level, following its graph: each root session starts at its
 * recorded offset; a turn that spawns sub-agents starts each one when the turn
 * ends plus the child's recorded delay; the session's next turn leaves once its
 * tool wait after the turn has passed and every child has ended (joined). All
 * recorded times are divided by the level's speed. A turn that fails ends its
 * session (the agent has no answer to go on with); its siblings and parent run on.
 *
 * The clock, the waits and the sends are given, so the schedule's logic is
 * checked in tests on a virtual clock and the wall-clock accuracy in the timing pass.
 */
import { type AgentsSource, agentChildren } from '../workload/index.js';

export interface AgentRunDeps {
  /** Now, ns. */
  clock(): number;
  /** Resolves at `targetNs` on the clock, or sooner when the signal stops the run. */
  sleepUntil(targetNs: number, signal: AbortSignal): Promise<void>;
  /** Builds turn `turn` of session `id` as request `seq`, before its wait, so the send after it pays only the write. */
  prepare?(id: number, turn: number, seq: number): void;
  /** Sends turn `turn` of session `id` as request `seq`, meant to leave at `targetSendNs`; resolves when it ends. */
  send(id: number, turn: number, seq: number, targetSendNs: number): Promise<{ endNs: number; ok: boolean }>;
}

/** How long before its instant a turn's request is built, ns. */
const PREPARE_AHEAD_NS = 50e6;

/** Runs every session of the trace once, from `startNs`, at `speed` × the recorded pace. */
export async function runAgents(src: AgentsSource, speed: number, startNs: number, signal: AbortSignal, deps: AgentRunDeps): Promise<void> {
  const children = agentChildren(src);
  let seq = 0;
  const runSession = async (id: number, firstTargetNs: number): Promise<number | null> => {
    const session = src.sessions[id];
    if (!session) return null;
    let target = firstTargetNs;
    let lastEnd: number | null = null;
    for (let k = 0; k < session.turns.length; k++) {
      // Built shortly before it is due, never far ahead: memory stays that of the turns about to leave.
      if (target - deps.clock() > PREPARE_AHEAD_NS) await deps.sleepUntil(target - PREPARE_AHEAD_NS, signal);
      if (signal.aborted) return lastEnd;
      const mine = seq++;
      deps.prepare?.(id, k, mine);
      await deps.sleepUntil(target, signal);
      if (signal.aborted) return lastEnd;
      const r = await deps.send(id, k, mine, target);
      lastEnd = r.endNs;
      if (!r.ok) return lastEnd;
      const spawned = (children[id]?.[k] ?? []).map((c) => runSession(c, r.endNs + ((src.sessions[c]?.atMs ?? 0) / speed) * 1e6));
      const joined = await Promise.all(spawned);
      const next = session.turns[k + 1];
      if (next === undefined) break;
      // The next turn waits for its tool (the recorded wait after this turn) and for every child it spawned.
      target = Math.max(r.endNs + (next.w / speed) * 1e6, ...joined.map((e) => e ?? 0));
    }
    return lastEnd;
  };
  await Promise.all(src.sessions.flatMap((s, id) => (s.parent === null ? [runSession(id, startNs + (s.atMs / speed) * 1e6)] : [])));
}

/**
 * Waits on a real clock until `targetNs`, or until the signal stops the run: a
 * timer to just short of it (timers fire up to a tick late), then the last
 * stretch in event-loop turns, so a sub-agent leaves on its instant, not a tick after.
 */
export function sleepUntilOn(clock: () => number): AgentRunDeps['sleepUntil'] {
  const SPIN_MS = 2;
  return (targetNs, signal) =>
    new Promise((resolve) => {
      const spin = () => {
        if (signal.aborted || clock() >= targetNs) resolve();
        else setImmediate(spin);
      };
      const ms = (targetNs - clock()) / 1e6 - SPIN_MS;
      if (ms <= 0 || signal.aborted) return spin();
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        spin();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });
}
