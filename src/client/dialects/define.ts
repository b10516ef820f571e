/**
 * Builds a {@link Dialect} for an OpenAI-style engine from its data: body rules
 * plus the facts of types.ts. The body, the warnings and the derived fields come
 * from the rules, so a dialect module is declarations only.
 */
import { dataWarnings } from './compose.js';
import { openAiBody, type OpenAiBodyRules } from './openai-body.js';
import type { Dialect, DialectSettings, DialectWarning, PoolingRoutes, ResponsesMode } from './types.js';

/** The OpenAI-compatible generation routes over SSE. */
export const OPENAI_API: Dialect['api'] = {
  framing: 'sse',
  paths: { chat: '/v1/chat/completions', completions: '/v1/completions', responses: null, messages: null },
  accept: 'text/event-stream',
  requestIdHeaders: [],
};

/** OpenAI's `/v1/embeddings`, as most engines serve it. */
export const OPENAI_EMBEDDINGS = { path: '/v1/embeddings', shape: 'openai' } as const;

/** The Cohere/Jina-style `/v1/rerank` most engines with a rerank route serve. */
export const RERANK_V1 = { path: '/v1/rerank', shape: 'rerank' } as const;

/**
 * Body rules most engines share, stated by a dialect only where its engine differs: no key always sent, no cache
 * switch of its own (a cold request's prompt carries its salt), every key accepted.
 */
const RULE_DEFAULTS = { fixed: {}, coldCache: { chat: null, completions: null }, acceptedKeys: 'any' } as const satisfies Partial<OpenAiBodyRules>;

/** A dialect's declarations; what `defineOpenAiDialect` derives is left out. */
export type OpenAiDialectDef = Omit<Dialect, 'api' | 'pooling' | 'length' | 'sampling' | 'acceptedKeys' | 'cacheControl' | 'buildBody' | 'warnings'> & {
  rules: Omit<OpenAiBodyRules, keyof typeof RULE_DEFAULTS> & Partial<OpenAiBodyRules>;
  /** The engine's own request-id headers, when it reads one (see `Dialect.api`). */
  requestIdHeaders?: readonly string[];
  /**
   * The engine serves the OpenAI Responses API at `/v1/responses`: `stored` keeps answers, so a later turn
   * continues one with `previous_response_id`; `via-chat` turns each request into a chat request (llama.cpp),
   * keeps nothing (a later turn resends the conversation) and reads the chat body's own keys. Default: none.
   */
  responses?: ResponsesMode;
  /** The engine serves Anthropic's Messages API at `/v1/messages` (llama.cpp, and any server that speaks it). Default: none. */
  messages?: true;
  /** Embeddings and rerank routes the engine serves. Default: none. */
  pooling?: Partial<PoolingRoutes>;
  /** Facts worth a run warning whatever the settings (e.g. Ollama's serialised requests). */
  notes?: readonly string[];
};

/** Notes as `engine-note` warnings. */
export function noteWarnings(label: string, notes: readonly string[] | undefined): DialectWarning[] {
  return (notes ?? []).map((n) => ({ code: 'engine-note' as const, message: `${label}: ${n}` }));
}

/** A dialect whose body is {@link openAiBody} under `def.rules`. */
export function defineOpenAiDialect(def: OpenAiDialectDef): Dialect {
  const { rules: own, notes, requestIdHeaders, responses, messages, pooling, ...facts } = def;
  const rules: OpenAiBodyRules = { ...RULE_DEFAULTS, ...own };
  return {
    ...facts,
    pooling: { embeddings: null, rerank: null, more: [], ...pooling },
    api: {
      ...OPENAI_API,
      paths: { ...OPENAI_API.paths, responses: responses === undefined ? null : '/v1/responses', messages: messages === true ? '/v1/messages' : null },
      requestIdHeaders: requestIdHeaders ?? [],
    },
    ...(responses === undefined ? {} : { responsesMode: responses }),
    length: rules.length,
    sampling: rules.sampling,
    acceptedKeys: rules.acceptedKeys,
    cacheControl: rules.coldCache.chat === null ? 'prompt-salt-only' : rules.coldCache.chat,
    buildBody: (spec) => openAiBody(spec, rules, responses ?? 'stored'),
    warnings: (s: DialectSettings) => [...dataWarnings(def.label, rules.length, rules.thinking, s), ...noteWarnings(def.label, notes)],
  };
}

/** The usual reading of an OpenAI-style stream; dialects override what differs. */
export function openAiReading(over: Partial<Dialect['stream']> = {}): Dialect['stream'] {
  return {
    chunk: 'openai',
    reasoningFields: ['reasoning_content'],
    inlineThink: true,
    cumulativeTokenPaths: [['usage', 'completion_tokens']],
    reasoningTokenPaths: [],
    ...over,
  };
}
