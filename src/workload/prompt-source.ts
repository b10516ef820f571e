/**
 * Where a sweep's prompts come from, as part of the sweep spec: `synthetic`
 * (built on the fly, `promptTokens` common words with a salt first: the
 * `goodput sweep` default) or `list` (prompts built beforehand — exact token
 * lengths, corpora, shared prefixes — used in order across the whole sweep).
 */
import { z } from 'zod';
import type { PromptItem } from './cell-prompts.js';
import { syntheticPrompt } from './synthetic-prompt.js';

export const promptSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('synthetic') }).strict(),
  z.object({
    kind: z.literal('list'),
    /** The i-th request of the sweep (warm-ups included, levels in order) uses items[i mod length]. */
    items: z.array(z.object({
      text: z.string().min(1, 'a prompt must not be empty'),
      outputTokens: z.number().int().positive().optional(),
    }).strict()).min(1, 'give at least one prompt'),
  }).strict(),
], { error: (iss) => (iss.code === 'invalid_union' ? 'kind must be synthetic or list' : undefined) });

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
};

const opsOf = (source: PromptSource) => SOURCES[source.kind] as SourceOps<PromptSource>;

/** The prompt (and its own output cap, if any) of one request. */
export function promptFor(source: PromptSource, r: PromptRequest): PromptItem {
  return opsOf(source).prompt(source, r);
}

/** The own output cap of the request at `index` in the sweep, if its prompt carries one. */
export function outputCapAt(source: PromptSource, index: number): number | undefined {
  return opsOf(source).cap(source, index);
}
