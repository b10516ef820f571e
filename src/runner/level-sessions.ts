/**
 * A level of conversations: multi-turn sessions (each turn sent with the
 * conversation so far) and agent traces (turns sent as the trace's graph
 * allows). Each turn's request is built as it leaves (level-request.ts); the
 * level's records, warm-ups and schedule are run-level.ts's.
 */
import { type RequestRecord, isOk } from '../core/index.js';
import { type RequestSpec, answerOf, responseIdOf } from '../client/index.js';
import { type AgentsSource, type SessionsSource, agentPrompt, arrivalOps, sessionUserText } from '../workload/index.js';
import { runAgents, sleepUntilOn } from './agent-run.js';
import { type LevelContext, levelSalt, requestSpec } from './level-request.js';
import { runOpenLoop } from './open-loop.js';
import { capPart, closedPart, openPart } from './share-parts.js';

/** Waits `ms`, or less when the signal stops the run. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Multi-turn sessions: at a session concurrency (C sessions at once, the next one
 * starting when one ends) or a session rate (open loop over session starts). Each
 * turn is sent with the conversation so far — earlier user messages and the
 * model's own answers — after the session's think time, or, on the Responses API of
 * an engine that keeps answers, only the new message with `previous_response_id`;
 * a turn that fails ends its session (the next turn would need its answer).
 */
export async function runSessions(
  ctx: LevelContext,
  src: SessionsSource,
  startNs: number,
  signal: AbortSignal,
  finish: (r: RequestRecord) => void,
): Promise<void> {
  // Shares number their turns apart: share i of n sends seq i, i + n, i + 2n…
  const stride = ctx.share?.count ?? 1;
  let sent = 0;
  const nextSeq = () => sent++ * stride + (ctx.share?.index ?? 0);
  const runSession = async (id: number, firstTargetNs: number): Promise<Pick<RequestRecord, 'endNs'>> => {
    const session = src.sessions[id] as SessionsSource['sessions'][number];
    const history: Array<{ role: 'user' | 'assistant'; content: string }> = [];
    const responses = ctx.spec.endpoint === 'responses';
    let previous: string | undefined;
    let targetSendNs = firstTargetNs;
    let endNs: number | null = null;
    for (const [turn, t] of session.turns.entries()) {
      if (turn > 0) {
        await pause(session.thinkMs[turn - 1] ?? 0, signal);
        targetSendNs = ctx.clock();
      }
      if (signal.aborted) break;
      const user = sessionUserText(src, id, turn, levelSalt(ctx));
      const seq = nextSeq();
      // Responses: an engine that keeps answers gets only the new message after the last answer's id; one that keeps none, the history.
      const spec: RequestSpec = {
        ...requestSpec(ctx, seq, { text: user, outputTokens: t.o }),
        history: [...history],
        keepAnswer: true,
        ...(previous === undefined ? {} : { previousResponseId: previous }),
      };
      const r = await ctx.client.send(spec, { seq, concurrency: ctx.concurrency, warmup: false, targetSendNs, session: { id, turn } }, signal);
      finish(r);
      endNs = r.endNs;
      if (!isOk(r)) break;
      if (responses) {
        previous = responseIdOf(r);
        // A Responses turn whose answer named no response id cannot be continued.
        if (previous === undefined) break;
      }
      history.push({ role: 'user', content: user }, { role: 'assistant', content: answerOf(r) ?? '' });
    }
    return { endNs: endNs ?? ctx.clock() };
  };
  const n = src.sessions.length;
  const plan = arrivalOps(ctx.spec.arrival).plan(ctx.concurrency, n);
  if (plan.kind === 'closed') {
    const part = closedPart(plan.slots, n, ctx.share);
    let next = part.from;
    const worker = async () => {
      let target = startNs;
      while (next < part.to && !signal.aborted) target = (await runSession(next++, target)).endNs ?? ctx.clock();
    };
    await Promise.all(Array.from({ length: part.slots }, worker));
  } else {
    const mine = openPart(plan.offsetsNs.length, ctx.share);
    await runOpenLoop({
      offsetsNs: mine.map((i) => plan.offsetsNs[i] as number),
      maxInFlight: capPart(plan.maxInFlight, ctx.share),
      startNs,
      clock: ctx.clock,
      signal,
      send: (j, target) => runSession(mine[j] as number, target),
    });
  }
}

/** An agent trace's level (agent-run.ts): every turn built with its context when it leaves, recorded with its session and turn. */
export async function runAgentLevel(
  ctx: LevelContext,
  src: AgentsSource,
  startNs: number,
  signal: AbortSignal,
  finish: (r: RequestRecord) => void,
): Promise<void> {
  // Each turn is built before its wait (prompts of a long context take a while), used once, then dropped.
  const prepared = new Map<number, RequestSpec>();
  const build = (id: number, turn: number, seq: number) =>
    requestSpec(ctx, seq, { text: agentPrompt(src, id, turn, levelSalt(ctx)), outputTokens: src.sessions[id]?.turns[turn]?.o });
  await runAgents(src, ctx.concurrency, startNs, signal, {
    clock: ctx.clock,
    sleepUntil: sleepUntilOn(ctx.clock),
    prepare: (id, turn, seq) => {
      prepared.set(seq, build(id, turn, seq));
    },
    send: async (id, turn, seq, targetSendNs) => {
      const spec = prepared.get(seq) ?? build(id, turn, seq);
      prepared.delete(seq);
      const r = await ctx.client.send(spec, { seq, concurrency: ctx.concurrency, warmup: false, targetSendNs, session: { id, turn } }, signal);
      finish(r);
      return { endNs: r.endNs ?? ctx.clock(), ok: isOk(r) };
    },
  });
}
