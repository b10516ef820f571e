/**
 * Agent traces as part of a sweep spec: sessions of turns, each session either a
 * root (started at its recorded offset) or a sub-agent spawned when its
 * parent's turn `after` ends, `delayMs` later, and joined before the parent's
 * next turn. A turn leaves once its tool wait after the previous turn has passed
 * and every child spawned after the previous turn has ended.
 *
 * A turn's prompt is its whole context, `p` tokens in blocks of `blockTokens`:
 * block b carries the trace's id `h[b]` when given (equal ids, equal text, in any
 * session), else the session's own block b, so each turn resends its session's
 * history (the previous turn's blocks) and extends it.
 */
import { z } from 'zod';
import { LIMITS } from '../core/index.js';
import { tracePromptFromKeys } from './trace-prompt.js';

/** The longest recorded delay or tool wait, ms (an hour). */
export const AGENT_WAIT_MAX_MS = 3_600_000;

export const agentsSourceSchema = z
  .object({
    kind: z.literal('agents'),
    blockTokens: z.number().int().positive().max(LIMITS.traceBlockTokens.max),
    /** The context length the trace declares, tokens; null: none declared. */
    context: z.number().int().positive().nullable(),
    sessions: z
      .array(
        z
          .object({
            /** The trace's own name for the agent, and the line it was read from. */
            name: z.string().min(1).max(256),
            line: z.number().int().positive(),
            /** The root session's index (the job), the parent's index (null for a root) and the parent turn that spawns it. */
            job: z.number().int().nonnegative(),
            parent: z.number().int().nonnegative().nullable(),
            after: z.number().int().nonnegative(),
            /** Root: offset from the trace's first root, ms. Child: delay after the parent's turn ends, ms. */
            atMs: z
              .number()
              .nonnegative()
              .max(AGENT_WAIT_MAX_MS * 24 * 366),
            turns: z
              .array(
                z
                  .object({
                    p: z.number().int().positive().max(LIMITS.promptTokens.max),
                    o: z.number().int().positive().max(LIMITS.outputTokens.max),
                    h: z.array(z.number().int().nonnegative()).optional(),
                    /** Tool wait before this turn, after the previous one ended, ms (0 for the first). */
                    w: z.number().nonnegative().max(AGENT_WAIT_MAX_MS),
                  })
                  .strict(),
              )
              .min(1)
              .max(LIMITS.agentTurns.max),
          })
          .strict(),
      )
      .min(1)
      .max(LIMITS.requestsPerLevel.max),
    /** Built before the run to the exact lengths (runner/exact-texts.ts): per level salt, session id's turn texts. */
    texts: z.record(z.string(), z.array(z.array(z.string()))).optional(),
  })
  .strict();
export type AgentsSource = z.output<typeof agentsSourceSchema>;
export type AgentSession = AgentsSource['sessions'][number];

/** Total turns over all sessions: the requests a level sends. */
export const agentTurnsOf = (src: AgentsSource): number => src.sessions.reduce((a, s) => a + s.turns.length, 0);

/** The children each session's turn spawns: `children[s][k]` lists the sessions started when turn k of s ends. */
export function agentChildren(src: AgentsSource): number[][][] {
  const out = src.sessions.map((s) => s.turns.map((): number[] => []));
  src.sessions.forEach((s, i) => {
    if (s.parent !== null) out[s.parent]?.[s.after]?.push(i);
  });
  return out;
}

/** The block keys of turn `turn` of session `id`: the trace's id, or the session's own block (so turns share their history). */
export function agentBlockKeys(src: AgentsSource, id: number, turn: number): string[] {
  const t = src.sessions[id]?.turns[turn];
  if (!t) return [];
  const n = Math.ceil(t.p / src.blockTokens);
  return Array.from({ length: n }, (_, b) => (t.h?.[b] === undefined ? `s${id}:${b}` : `id:${t.h[b]}`));
}

/** The prompt of one turn: its whole context, built from its blocks with the level's salt. */
export function agentPrompt(src: AgentsSource, id: number, turn: number, run: string): string {
  const t = src.sessions[id]?.turns[turn];
  if (!t) return '';
  const built = src.texts?.[run]?.[id]?.[turn];
  if (built !== undefined) return built;
  return tracePromptFromKeys(
    agentBlockKeys(src, id, turn).map((k) => `${run}:${k}`),
    t.p,
    src.blockTokens,
    run,
  );
}
