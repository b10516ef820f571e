/**
 * Public input types of the client: where to send, what to send, how long to wait.
 */
import type { ExtraHeader, ResponseSchemaSpec, ToolsSpec } from '../core/index.js';
import type { TraceIds } from './trace-context.js';

/**
 * How the key is sent: `Authorization: Bearer …` (OpenAI and compatible servers), `x-api-key` (Anthropic's
 * Messages API) or `api-key` (Azure OpenAI).
 */
export type AuthStyle = 'bearer' | 'x-api-key' | 'api-key';

/** An Azure OpenAI deployment: generation goes to `/openai/deployments/{deployment}/…?api-version=…`. */
export interface AzureDeployment {
  deployment: string;
  apiVersion: string;
}

/** An OpenAI-compatible server. */
export interface Target {
  /** `http://host:port` or `http://host:port/v1` (both accepted; a path prefix before `/v1` is kept). */
  baseUrl: string;
  /** Sent only in the header `auth` names; never copied into a record, message or log. */
  apiKey?: string;
  /** Default `bearer`. */
  auth?: AuthStyle;
  /** Sent with every request (a gateway's tenant, an affinity hint, `anthropic-version`); secret-looking values are scrubbed from messages. */
  headers?: readonly ExtraHeader[];
  /** Azure OpenAI's deployment paths instead of `/v1/…`. */
  azure?: AzureDeployment;
}

/** The text-generation endpoints every dialect has. */
export type TextEndpoint = 'chat' | 'completions';

/** One streamed completion to request. */
export interface RequestSpec {
  /** `responses`: the OpenAI Responses API (`/v1/responses`), where the dialect has it; `messages`: Anthropic's Messages API (`/v1/messages`). */
  endpoint: TextEndpoint | 'responses' | 'messages';
  model: string;
  /** Chat: the content of the (last) user message. Completions: the raw prompt. */
  prompt: string;
  /** Chat only: images sent with the user message, as data URLs (`data:image/png;base64,…`). */
  images?: readonly string[];
  /** Chat only: a WAV clip sent with the user message, as base64 (OpenAI `input_audio`). */
  audio?: string;
  /** Chat only: the conversation before this user message (a session's earlier turns, with the model's own answers). */
  history?: ReadonlyArray<{ role: 'user' | 'assistant'; content: string }>;
  /** Chat only: tools offered with the request and the tool_choice; the answer's calls are judged against them. */
  tools?: ToolsSpec;
  /**
   * Chat only: structured output. `control: false` sends the schema (response_format or the engine's
   * key) and judges the answer against it; `control: true` sends the same request without it.
   */
  structured?: { spec: ResponseSchemaSpec; control: boolean };
  /** Responses only: continue the stored conversation of this response id where the engine stores answers (only the new message is sent); an engine that stores none gets `history`. */
  previousResponseId?: string;
  /** Keep the answer text (see answerOf): a session's next turn carries it. */
  keepAnswer?: boolean;
  /** Output cap in tokens, sent as both `max_tokens` and `max_completion_tokens`. */
  maxTokens: number;
  /** Ask for exactly `maxTokens`: sends `ignore_eos: true` and `min_tokens: maxTokens`. */
  forceLength: boolean;
  /** Chat only: sent as `chat_template_kwargs.enable_thinking`. */
  thinking: boolean;
  temperature?: number;
  /** Nucleus sampling; unset: the dialect's neutral value (top_p 1). */
  topP?: number;
  seed?: number;
  /**
   * Set on a cold run: a per-request salt the dialect uses to keep the prefix cache
   * cold where the engine has a switch (`cache_salt`, llama.cpp `cache_prompt: false`).
   * The prompt itself already starts with a unique salt. Unset: no cache control is sent.
   */
  cacheSalt?: string;
  /**
   * Merged last into the body (shallow; `stream_options` and `chat_template_kwargs`
   * one level deep). A key set to `undefined` is dropped from the body, which is how
   * an engine dialect removes a key the engine rejects (e.g. `max_tokens`).
   */
  extraBody?: Record<string, unknown>;
  /** The user's `--extra-body`: merged after everything else whatever the engine's key allowlist, so it reaches the server as given. */
  passThrough?: Record<string, unknown>;
  /** Give the request up on purpose at this point (its socket closed): its record's outcome is then `cancelled`. Unset: read to the end. */
  cancel?: CancelPoint;
}

/** Where a request is given up on purpose: ms after its send, or once its chunks carried this many tokens; whichever comes first (null: not that one). */
export interface CancelPoint {
  afterMs: number | null;
  afterTokens: number | null;
}

/** Scheduling facts copied into the record unchanged. */
export interface RequestMeta {
  /** Sequence number within the level (warm-ups included). */
  seq: number;
  /** Concurrency level the request belongs to. */
  concurrency: number;
  /** Warm-up requests are recorded but excluded from metrics. */
  warmup: boolean;
  /** When the scheduler meant to send it, in the client clock's nanoseconds. */
  targetSendNs: number;
  /** The session and turn (0-based) it belongs to, in a multi-turn run. */
  session?: { id: number; turn: number };
  /** Sent as `X-Request-Id` (and the dialect's own header) and kept on the record; the client makes one when unset. */
  requestId?: string;
  /** The request's trace and span ids, sent as `traceparent` and kept on the record; the client makes them unless turned off. */
  trace?: TraceIds;
}

/** Per-phase limits, all in milliseconds. */
export interface Timeouts {
  /** TCP (and TLS) connect. Default 10 000. */
  connectMs: number;
  /** Request written → response headers. Default 120 000. */
  headersMs: number;
  /** Longest silence between two body reads. Default 60 000. */
  idleMs: number;
  /** Send → end of stream. Default 600 000. */
  totalMs: number;
}

/** Defaults for {@link Timeouts}, in milliseconds. */
export const DEFAULT_TIMEOUTS: Readonly<Timeouts> = {
  connectMs: 10_000,
  headersMs: 120_000,
  idleMs: 60_000,
  totalMs: 600_000,
};
