/**
 * Where a sweep's prompts come from, as part of the sweep spec: `synthetic`
 * (built on the fly, `promptTokens` common words with a salt first: the
 * `goodput sweep` default), `list` (prompts built beforehand — exact token
 * lengths, corpora, shared prefixes — used in order across the whole sweep) or
 * `trace` (a replayed trace's lengths and shared blocks, built at send time:
 * see trace-prompt.ts).
 */
import { z } from 'zod';
import { LIMITS } from '../core/index.js';
import type { PromptItem } from './cell-prompts.js';
import { syntheticPrompt } from './synthetic-prompt.js';
import { sessionUserText, sessionsSourceSchema } from './sessions.js';
import { tracePrompt } from './trace-prompt.js';
import { agentPrompt, agentsSourceSchema } from './agent-source.js';

export const promptSourceSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('synthetic') }).strict(),
    z
      .object({
        kind: z.literal('list'),
        /** The i-th request of the sweep (warm-ups included, levels in order) uses items[i mod length]. */
        items: z
          .array(
            z
              .object({
                text: z.string().min(1, 'a prompt must not be empty'),
                outputTokens: z.number().int().positive().optional(),
              })
              .strict(),
          )
          .min(1, 'give at least one prompt'),
      })
      .strict(),
    z
      .object({
        kind: z.literal('trace'),
        /** Prompt tokens per hash id (Mooncake: 512). */
        blockTokens: z.number().int().positive().max(LIMITS.traceBlockTokens.max),
        /** The i-th request of each level (a replay runs no warm-ups) uses requests[i mod length]: p prompt tokens, o output tokens, h block ids, text a literal prompt. */
        requests: z
          .array(
            z
              .object({
                p: z.number().int().positive().max(LIMITS.promptTokens.max),
                o: z.number().int().positive().max(LIMITS.outputTokens.max),
                h: z.array(z.number().int().nonnegative()).optional(),
                text: z.string().min(1).optional(),
              })
              .strict(),
          )
          .min(1)
          .max(LIMITS.requestsPerLevel.max),
        /** Built before the run to the exact lengths (runner/exact-texts.ts): per level salt, request i's text. */
        texts: z.record(z.string(), z.array(z.string())).optional(),
      })
      .strict(),
    /** Multi-turn sessions (sessions.ts): the runner sends each session's turns in order, each with the conversation so far. */
    sessionsSourceSchema,
    /** Agent sessions with sub-agents (agent-source.ts): the runner follows the trace's graph. */
    agentsSourceSchema,
  ],
  { error: (iss) => (iss.code === 'invalid_union' ? 'kind must be synthetic, list, trace, sessions or agents' : undefined) },
);

export type PromptSource = z.output<typeof promptSourceSchema>;

/** What a synthetic prompt is built from. */
export interface PromptRequest {
  /** Position of the request in the whole sweep, warm-ups included. */
  index: number;
  /** Synthetic length in words. */
  promptTokens: number;
  seed: number;
  /** Unique per request: comes first so no two prompts share a prefix. */
  salt: string;
  /** The run's own salt (trace prompts share blocks within a run, never across runs). */
  run?: string;
}

interface SourceOps<S> {
  prompt(s: S, r: PromptRequest): PromptItem;
  /** The request's own output cap, tokens, when the source sets one. */
  cap(s: S, index: number): number | undefined;
}

const SOURCES: { [K in PromptSource['kind']]: SourceOps<Extract<PromptSource, { kind: K }>> } = {
  synthetic: {
    prompt: (_s, r) => ({ text: syntheticPrompt(r.promptTokens, r.seed, r.salt) }),
    cap: () => undefined,
  },
  list: {
    prompt: (s, r) => s.items[r.index % s.items.length] as PromptItem,
    cap: (s, index) => s.items[index % s.items.length]?.outputTokens,
  },
  trace: {
    prompt: (s, r) => {
      const i = r.index % s.requests.length;
      const q = s.requests[i] as (typeof s.requests)[number];
      const run = r.run ?? r.salt;
      return { text: s.texts?.[run]?.[i] ?? tracePrompt(q, s.blockTokens, run, i), outputTokens: q.o };
    },
    cap: (s, index) => s.requests[index % s.requests.length]?.o,
  },
  // Turns in session order; the runner builds each turn with its history (run-level.ts), this is turn i alone.
  sessions: {
    prompt: (s, r) => {
      const { id, turn } = turnAt(s, r.index);
      return { text: sessionUserText(s, id, turn, r.run ?? r.salt), outputTokens: s.sessions[id]?.turns[turn]?.o };
    },
    cap: (s, index) => {
      const { id, turn } = turnAt(s, index);
      return s.sessions[id]?.turns[turn]?.o;
    },
  },
  // Turns in session order; the runner follows the graph (agent-run.ts), this is turn i alone.
  agents: {
    prompt: (s, r) => {
      const { id, turn } = turnAt(s, r.index);
      return { text: agentPrompt(s, id, turn, r.run ?? r.salt), outputTokens: s.sessions[id]?.turns[turn]?.o };
    },
    cap: (s, index) => {
      const { id, turn } = turnAt(s, index);
      return s.sessions[id]?.turns[turn]?.o;
    },
  },
};

/** Session and turn of the i-th turn overall (i mod the total). */
function turnAt(s: { sessions: ReadonlyArray<{ turns: readonly unknown[] }> }, index: number): { id: number; turn: number } {
  const total = s.sessions.reduce((a, x) => a + x.turns.length, 0);
  let i = index % total;
  for (const [id, x] of s.sessions.entries()) {
    if (i < x.turns.length) return { id, turn: i };
    i -= x.turns.length;
  }
  return { id: 0, turn: 0 };
}

const opsOf = (source: PromptSource) => SOURCES[source.kind] as SourceOps<PromptSource>;

/** The prompt (and its own output cap, if any) of one request. */
export function promptFor(source: PromptSource, r: PromptRequest): PromptItem {
  return opsOf(source).prompt(source, r);
}

/** The own output cap of the request at `index` in the sweep, if its prompt carries one. */
export function outputCapAt(source: PromptSource, index: number): number | undefined {
  return opsOf(source).cap(source, index);
}
