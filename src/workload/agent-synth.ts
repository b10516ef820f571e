/**
 * Synthetic agent traces in the goodput agents form, seeded: `agents` root
 * agents starting `rootGapS` apart, each with a number of turns drawn from
 * `turns`; after one of its turns (never its last) a root spawns a number of
 * sub-agents drawn from `fanOut`, each started `delayS` after that turn and
 * joined before the next. Every prompt opens with the same system blocks (ids
 * from 0), then the session's own blocks: each turn resends its session's
 * context and adds `growTokens`, as an agent's history grows tool result by
 * tool result. Tool waits between turns are drawn from `toolWaitS`.
 */
import { LIMITS, limitMessage, mulberry32 } from '../core/index.js';
import { WorkloadError } from './errors.js';
import type { Range } from './sessions.js';

export interface AgentSynthOptions {
  agents: number;
  fanOut: Range;
  turns: Range;
  toolWaitS: Range;
  delayS: Range;
  rootGapS: Range;
  systemTokens: number;
  firstTokens: Range;
  growTokens: Range;
  outTokens: Range;
  blockTokens: number;
  seed: number;
}

const draw = (rand: () => number, [a, b]: Range) => a + rand() * (b - a);
const drawInt = (rand: () => number, [a, b]: Range) => a + Math.floor(rand() * (b - a + 1));
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** The trace's lines (header first). @throws WorkloadError when it would pass the limits a replay holds it to. */
export function synthAgentTrace(o: AgentSynthOptions): string[] {
  const rand = mulberry32(o.seed);
  const sysBlocks = Math.ceil(o.systemTokens / o.blockTokens);
  let nextId = sysBlocks;
  let turnsTotal = 0;
  let sessions = 0;
  const session = (name: string, head: Record<string, unknown>, n: number) => {
    const own: number[] = [];
    let context = o.systemTokens + drawInt(rand, o.firstTokens);
    const turns = Array.from({ length: n }, (_, k) => {
      if (k > 0) context += drawInt(rand, o.growTokens);
      const blocks = Math.ceil(context / o.blockTokens);
      while (sysBlocks + own.length < blocks) own.push(nextId++);
      if (context + o.outTokens[1] > LIMITS.promptTokens.max)
        throw new WorkloadError(
          'length',
          `agent ${name} turn ${k + 1}: ${limitMessage('promptTokens', context, 'the context')}; use fewer turns or fewer tokens per turn`,
        );
      return {
        in: context,
        out: drawInt(rand, o.outTokens),
        hash_ids: [...Array.from({ length: sysBlocks }, (_, b) => b), ...own].slice(0, blocks),
        ...(k > 0 ? { wait: round3(draw(rand, o.toolWaitS)) } : {}),
      };
    });
    turnsTotal += n;
    sessions++;
    if (turnsTotal > LIMITS.requestsPerLevel.max || sessions > LIMITS.requestsPerLevel.max) {
      throw new WorkloadError(
        'length',
        `${limitMessage('requestsPerLevel', Math.max(turnsTotal, sessions), turnsTotal > sessions ? 'turns' : 'agent sessions')}: use fewer agents, turns or sub-agents`,
      );
    }
    return JSON.stringify({ agent: name, ...head, turns });
  };
  const lines = [JSON.stringify({ goodput: 'agents', block_tokens: o.blockTokens })];
  let t = 0;
  for (let a = 0; a < o.agents; a++) {
    if (a > 0) t += draw(rand, o.rootGapS);
    const name = `agent${a + 1}`;
    const n = drawInt(rand, o.turns);
    lines.push(session(name, { t: round3(t) }, n));
    if (n < 2) continue;
    // Spawned after a turn that has a later one to join at.
    const after = 1 + Math.floor(rand() * (n - 1));
    const kids = drawInt(rand, o.fanOut);
    for (let c = 0; c < kids; c++) {
      lines.push(session(`${name}.sub${c + 1}`, { parent: name, after, delay: round3(draw(rand, o.delayS)) }, drawInt(rand, o.turns)));
    }
  }
  return lines;
}
