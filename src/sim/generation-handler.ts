/**
 * `POST /v1/chat/completions` and `POST /v1/completions`: validate the body, check
 * the model, plan the request, apply `dieAfterRequests` and the per-request fault,
 * then hand the sequence to the engine and let a GenerationRun write the response.
 * The two endpoints are `kind`-tagged entries that own their parsing and format.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { BatchEngine } from './batch-engine.js';
import type { NativeRoute, Normalized, SimDialect } from './dialects/types.js';
import { HTTP_FAULTS, isHttpFault, type FaultPicker } from './faults.js';
import { planGeneration, type GenerationKeys } from './generation-plan.js';
import { GenerationRun, type RunContext } from './generation-run.js';
import { sendError } from './http-util.js';
import { logprobsDecorator } from './logprobs-format.js';
import { servedModel } from './lora-adapters.js';
import { prefixBlockKeys, type PrefixCache } from './prefix-cache.js';
import type { SimProfile } from './profile-schema.js';
import { type ChatRequest, chatRequestSchema, completionRequestSchema, messagesText, promptWords, thinkingOff } from './request-schema.js';
import { answerPieces, answerSchemaOf } from './answer-schema.js';
import { planToolCall } from './tool-call-plan.js';
import type { ResponseFormat, ResponseIdentity } from './response-format.js';
import { emissionCount } from './sequence.js';
import { outputText, templateWords, tokenize } from './tokenizer.js';
import { RESPONSES_ROUTE, type ResponseStore } from './responses-route.js';
import { MESSAGES_ROUTE } from './messages-route.js';
import { firstProblem } from './zod-issues.js';
import { fetchImages, remoteImageUrls } from './image-fetch.js';
import { imageInputs } from './image-inputs.js';
import type { RateLimiter } from './rate-limiter.js';

/** Everything a generation request needs from the running server. */
export interface SimRuntime extends RunContext {
  engine: BatchEngine;
  cache: PrefixCache | null;
  faultPicker: FaultPicker;
  /** The engine the simulator plays: request rules, formats, overload answer. */
  dialect: SimDialect;
  /** Answers of the Responses API kept for `previous_response_id`. */
  responses: ResponseStore;
  /**
   * Tool calls and JSON answers made so far: invalid and malformed ones are spread evenly over these
   * counts (not over all requests), so a level that mixes kinds still sees the configured shares.
   */
  answers: { toolCalls: number; json: number };
  /** The provider's rate limit the simulator plays, or null. */
  rateLimiter: RateLimiter | null;
  /** Kills the server the way a crashed process dies. */
  die(): void;
}

/** Header that marks a warm-up request: it is never given a fault. */
export const WARMUP_HEADER = 'x-goodput-warmup';

/** A parsed generation body: the keys the planner reads, the prompt and its reasoning budget. */
type Parsed =
  { ok: true; body: GenerationKeys & { model: string }; words: string[]; reasoningTokens: number; chat?: ChatRequest } | { ok: false; error: z.ZodError };

/** One generation endpoint; it owns its body schema, prompt and response format. */
export interface Endpoint {
  readonly kind: 'chat' | 'completion';
  readonly promptField: string;
  readonly idPrefix: string;
  parse(raw: unknown, profile: SimProfile): Parsed;
  format(idn: ResponseIdentity, rt: SimRuntime): ResponseFormat;
  /** A dialect's native route (Ollama `/api/chat`): its body is translated, not normalised as a `/v1` body. */
  readonly native?: NativeRoute;
  /** The Responses API: answers are stored by id and `previous_response_id` continues one. */
  readonly stateful?: true;
}

const chat: Endpoint = {
  kind: 'chat',
  promptField: 'messages',
  idPrefix: 'chatcmpl',
  parse(raw, profile) {
    const r = chatRequestSchema.safeParse(raw);
    if (!r.success) return { ok: false, error: r.error };
    const reasoningTokens = thinkingOff(r.data) ? 0 : profile.reasoningTokens;
    // Tool definitions are part of the prompt an engine renders, so they cost prefill like any text.
    const tools = r.data.tools == null ? '' : ` ${JSON.stringify(r.data.tools)}`;
    const words = [...templateWords(profile.chatTemplateTokens), ...tokenize(messagesText(r.data.messages) + tools)];
    return { ok: true, body: r.data, words, reasoningTokens, chat: r.data };
  },
  format: (idn, rt) => rt.dialect.chatFormat(idn, rt.profile),
};

const completion: Endpoint = {
  kind: 'completion',
  promptField: 'prompt',
  idPrefix: 'cmpl',
  parse(raw) {
    const r = completionRequestSchema.safeParse(raw);
    if (!r.success) return { ok: false, error: r.error };
    return { ok: true, body: r.data, words: promptWords(r.data.prompt), reasoningTokens: 0 };
  },
  format: (idn, rt) => rt.dialect.completionFormat(idn, rt.profile),
};

/** The generation endpoints by kind. */
export const GENERATION_ENDPOINTS = { chat, completion } as const;

/** The endpoint of a dialect's native route: the OpenAI endpoint's parser over the translated body, the native format. */
export function nativeEndpoint(route: NativeRoute): Endpoint {
  return { ...GENERATION_ENDPOINTS[route.endpoint], native: route, format: (idn, rt) => route.format(idn, rt.profile) };
}

/** `POST /v1/responses`: the chat endpoint over the translated body, Responses events, stateful. */
export const RESPONSES_ENDPOINT: Endpoint = { ...nativeEndpoint(RESPONSES_ROUTE), idPrefix: 'resp', promptField: 'input', stateful: true };

/** `POST /v1/messages`: the chat endpoint over the translated body, Anthropic's Messages events. */
export const MESSAGES_ENDPOINT: Endpoint = { ...nativeEndpoint(MESSAGES_ROUTE), idPrefix: 'msg', promptField: 'messages' };

/** The body as the played engine would read it: translated (native route), normalised, or refused. */
function prepare(rt: SimRuntime, ep: Endpoint, raw: unknown): Normalized {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: true, body: raw as Record<string, unknown> };
  const body = raw as Record<string, unknown>;
  return ep.native === undefined ? rt.dialect.normalize(body, ep.kind) : { ok: true, body: ep.native.translate(body) };
}

function isWarm(req: IncomingMessage): boolean {
  const v = req.headers[WARMUP_HEADER];
  return v === '1' || v === 'true';
}

/** Handles one generation request read at `receivedMs` whose JSON body arrived (complete) at `arrivalMs`. */
export function handleGeneration(
  rt: SimRuntime,
  ep: Endpoint,
  req: IncomingMessage,
  res: ServerResponse,
  raw: unknown,
  arrivalMs: number,
  receivedMs = arrivalMs,
): void {
  const reject = (status: number, message: string, param: string | null): void => {
    rt.stats.rejected++;
    sendError(res, status, message, param);
  };
  const prepared = prepare(rt, ep, raw);
  if (!prepared.ok) return reject(prepared.status, prepared.message, prepared.param);
  const parsed = ep.parse(prepared.body, rt.profile);
  if (!parsed.ok) {
    const p = firstProblem(parsed.error);
    return reject(400, `${p.field}: ${p.problem}`, p.field);
  }
  const messages = parsed.chat?.messages;
  if (messages === undefined || remoteImageUrls(messages).length === 0) return admit(rt, ep, req, res, raw, parsed, arrivalMs, receivedMs, new Map());
  // Images given by URL are fetched first, as an engine does: the wait lands in time to first token.
  void fetchImages(rt.profile, messages).then((fetched) => {
    if (res.destroyed) return;
    if (!fetched.ok) return reject(400, `${fetched.param}: ${fetched.message}`, fetched.param);
    rt.stats.imagesFetched += fetched.files.size;
    admit(rt, ep, req, res, raw, parsed, arrivalMs, receivedMs, fetched.files);
  });
}

/** A parsed request with its fetched images: checked further, then queued (or refused). */
function admit(
  rt: SimRuntime,
  ep: Endpoint,
  req: IncomingMessage,
  res: ServerResponse,
  raw: unknown,
  parsed: Extract<ReturnType<Endpoint['parse']>, { ok: true }>,
  arrivalMs: number,
  receivedMs: number,
  fetched: ReadonlyMap<string, Buffer>,
): void {
  const reject = (status: number, message: string, param: string | null): void => {
    rt.stats.rejected++;
    sendError(res, status, message, param);
  };
  const { body, reasoningTokens } = parsed;
  const images = parsed.chat === undefined ? null : imageInputs(rt.profile, parsed.chat.messages, fetched);
  if (images !== null && !images.ok) return reject(400, `${images.param}: ${images.message}`, images.param);
  let words = images === null ? parsed.words : [...parsed.words, ...images.words];
  const previous = ep.stateful === true ? (parsed.chat as { previous_response_id?: unknown } | undefined)?.previous_response_id : undefined;
  if (typeof previous === 'string') {
    const context = rt.responses.get(previous);
    if (context === undefined)
      return reject(400, `previous_response_id: Previous response with id '${previous.slice(0, 80)}' not found.`, 'previous_response_id');
    words = [...context, ...words];
  }
  const served = servedModel(rt.profile, body.model);
  if (served === null) return reject(404, `The model \`${body.model}\` does not exist.`, 'model');
  const logprobs = logprobsDecorator(ep.kind, raw, rt.profile, words);
  if (!logprobs.ok) return reject(400, `${logprobs.param}: ${logprobs.message}`, logprobs.param);
  const overload = rt.dialect.overload;
  if (overload !== null && overload.exceeded({ running: rt.engine.runningCount, waiting: rt.engine.waitingCount }, rt.profile)) {
    return sendError(res, overload.status, overload.message, null, overload.type);
  }
  const requestIndex = rt.stats.accepted;
  const toolPlan = parsed.chat === undefined ? { ok: true as const, call: null } : planToolCall(rt.profile, parsed.chat, requestIndex, rt.answers.toolCalls);
  if (!toolPlan.ok) return reject(400, `${toolPlan.param}: ${toolPlan.message}`, toolPlan.param);
  const schema = parsed.chat === undefined || toolPlan.call !== null ? null : answerSchemaOf(parsed.chat);
  const result = planGeneration(rt.profile, {
    body,
    promptWords: words,
    promptField: ep.promptField,
    reasoningTokens,
    requestIndex,
    tool: toolPlan.call,
    json: schema === null ? null : answerPieces(rt.profile, schema, requestIndex, rt.answers.json),
  });
  if (!result.ok) return reject(400, `${result.param}: ${result.message}`, result.param);
  // A provider counts every request against the budget, warm-ups too.
  if (rt.rateLimiter !== null) {
    const limit = rt.rateLimiter.take(result.plan.promptTokens + result.plan.capTokens);
    for (const [k, v] of Object.entries(limit.headers)) res.setHeader(k, v);
    if (limit.message !== null) {
      rt.stats.rateLimited++;
      return sendError(res, 429, limit.message, null, 'rate_limit_error');
    }
  }
  // dieAfterRequests: the N-th accepted request kills the server (it is cut with the rest).
  const dieAfter = rt.profile.faults.dieAfterRequests;
  if (dieAfter !== null && requestIndex >= dieAfter) return rt.die();
  rt.stats.accepted++;
  if (result.plan.tool !== null) rt.answers.toolCalls++;
  if (result.plan.json !== null) rt.answers.json++;
  if (rt.stats.accepted === dieAfter) return rt.die();
  const fault = isWarm(req) ? null : rt.faultPicker.next();
  if (fault !== null) rt.stats.faults[fault]++;
  if (fault !== null && isHttpFault(fault)) {
    const f = HTTP_FAULTS[fault];
    sendError(res, f.status, f.message, null, f.type, f.status === 500 ? {} : { 'retry-after': '1' });
    return;
  }
  const plan = result.plan;
  const idn = {
    id: `${ep.idPrefix}-sim-${requestIndex.toString(16).padStart(8, '0')}`,
    created: Math.floor(Date.now() / 1000),
    // The model as asked: vLLM answers an adapter's request with the adapter's name.
    model: body.model,
    promptTokens: plan.promptTokens,
  };
  // The conversation so far, for a later previous_response_id: the prompt and the answer's words.
  if (ep.stateful === true)
    rt.responses.set(idn.id, [...words, ...tokenize(outputText(rt.profile.seed, requestIndex, plan.reasoningTokens, plan.outputTokens))]);
  // A draft model's steps carry at most positions + 1 tokens: counting with that, the mid-stream fault falls within the stream whatever is accepted.
  const positions = rt.profile.specDecode?.positions ?? 0;
  const half = Math.floor(emissionCount(plan.outputTokens, positions > 0 ? positions + 1 : rt.profile.tokensPerChunk) / 2);
  const id = req.headers['x-request-id'];
  const trace = { id: typeof id === 'string' ? id.slice(0, 256) : null, receivedMs };
  const run = new GenerationRun(rt, plan, logprobs.wrap(ep.format(idn, rt)), res, arrivalMs, requestIndex, fault, half, trace);
  // A decode pool reads the prompt's KV from the prefill pool rather than computing it.
  const role = rt.metrics.role;
  const remoteKvMs = role?.role === 'decode' ? role.transfer(plan.promptTokens, rt.now()) : undefined;
  run.sequence = rt.engine.submit(
    {
      promptTokens: plan.promptTokens,
      kvTokens: plan.promptTokens + plan.capTokens,
      blockKeys: rt.cache === null ? [] : prefixBlockKeys(words, rt.profile.prefixBlockTokens, plan.cacheSalt),
      outputTokens: plan.outputTokens,
      ...(images?.ok === true && images.encoderMs > 0 ? { encoderMs: images.encoderMs } : {}),
      ...(remoteKvMs === undefined ? {} : { remoteKvMs }),
      stall: fault === 'stall' ? { beforeEmission: Math.max(1, half), ms: rt.profile.faults.stallMs } : null,
      ...(served.decodeExtraMs > 0 ? { stepExtraMs: served.decodeExtraMs } : {}),
    },
    run,
    arrivalMs,
  );
  res.on('close', () => {
    if (run.abandon() && run.sequence !== null) rt.engine.cancel(run.sequence, rt.now());
  });
}
