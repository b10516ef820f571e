/**
 * What an embeddings or rerank sweep is asked to do: one zod schema for the
 * CLI and tests, bounded by the limits table (inputs per request, documents
 * per query, tokens per input), with messages that name the field.
 */
import { z } from 'zod';
import { DEFAULT_CLIENT_BUDGET_MS, LIMITS, POOLING_ENDPOINTS, poolingSloSchema, limitedInt, limitMessage, numericDefault } from '../core/index.js';
import { ENGINE_CHOICES, type EngineChoice } from '../client/index.js';
import { concurrencyLevels, countFields, retrySpec, serverFields } from './sweep-spec.js';

export const poolingSpecSchema = z
  .object({
    ...serverFields,
    endpoint: z.enum(POOLING_ENDPOINTS),
    /** The engine's route to use when it serves more than one (vLLM's `/score` beside `/v1/rerank`, TEI's `/embed`); absent: the dialect's first. */
    route: z
      .string()
      .regex(/^\/[\w./-]*$/, 'route must be a path such as /score')
      .max(LIMITS.routeChars.max, { error: (i) => limitMessage('routeChars', String(i.input).length, 'route') })
      .optional(),
    /** Client threads a level is split over ('auto': the cores, at most the level's streams). */
    clientThreads: z.union([limitedInt('clientThreads', 'client threads'), z.literal('auto')]).default('auto'),
    /** The floor of the client budgets (core's client-bound.ts): a client-bound level is said in a warning and counts for no peak. */
    clientBudgetMs: z.number().positive().default(DEFAULT_CLIENT_BUDGET_MS),
    engine: z.enum(ENGINE_CHOICES as [EngineChoice, ...EngineChoice[]], { error: `engine must be one of ${ENGINE_CHOICES.join(', ')}` }).default('auto'),
    /** Concurrency levels (requests in flight), measured ascending. */
    levels: concurrencyLevels,
    /** Embeddings: inputs per request; rerank: documents per query. Bounded by `embeddingBatch` / `rerankDocuments`. */
    itemsPerRequest: z.number().int().positive(),
    /** Tokens per input or document. */
    itemTokens: limitedInt('promptTokens', 'tokens per input'),
    /** Rerank: tokens of the query. */
    queryTokens: limitedInt('promptTokens', 'query tokens').default(numericDefault('queryTokens')),
    tokenizer: z
      .discriminatedUnion('kind', [
        z.object({ kind: z.literal('auto') }).strict(),
        z.object({ kind: z.literal('approximate') }).strict(),
        z.object({ kind: z.literal('file'), path: z.string().min(1) }).strict(),
      ])
      .default({ kind: 'auto' }),
    ...countFields,
    seed: z.number().int().default(numericDefault('seed')),
    hourlyCostUsd: z.number().nonnegative('hourly cost must not be negative').nullable().default(null),
    /** A latency objective: each level says whether it holds, and the result gives capacity at it. */
    latencySlo: poolingSloSchema.nullable().default(null),
    /** Whole-request limit, ms. */
    timeoutMs: z.number().positive().default(600_000),
    /** The longest silence of an answer once its headers came (no byte arriving), ms; never longer than timeoutMs. */
    idleMs: z.number().positive().default(60_000),
    /** Retries of answers 429, 529 or 503 with Retry-After, as a text sweep's (docs/rate-limits.md). */
    retry: retrySpec,
    /** Send a W3C traceparent with every request, its ids kept on the record (a request joins the server's traces). */
    traceparent: z.boolean().default(true),
    command: z.string().default(''),
  })
  .superRefine((s, ctx) => {
    const limit = s.endpoint === 'rerank' ? 'rerankDocuments' : 'embeddingBatch';
    const flag = s.endpoint === 'rerank' ? '--documents' : '--batch-size';
    if (s.itemsPerRequest > LIMITS[limit].max)
      ctx.addIssue({ code: 'custom', path: ['itemsPerRequest'], message: limitMessage(limit, s.itemsPerRequest, flag) });
    // A token is at least a byte of the body: a request past this cannot be sent, so it is refused before any text is built.
    const tokens = s.itemsPerRequest * s.itemTokens + (s.endpoint === 'rerank' ? s.queryTokens : 0);
    if (tokens > LIMITS.requestBodyBytes.max) {
      ctx.addIssue({
        code: 'custom',
        path: ['itemsPerRequest'],
        message: `${flag} ${s.itemsPerRequest} × --prompt-tokens ${s.itemTokens} makes requests of ${tokens} tokens, more than fit in ${LIMITS.requestBodyBytes.max} ${LIMITS.requestBodyBytes.what}`,
      });
    }
  });

export type PoolingSpec = z.infer<typeof poolingSpecSchema>;
export type PoolingSpecInput = z.input<typeof poolingSpecSchema>;
