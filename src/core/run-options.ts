/**
 * The option catalogue: every option of a sweep declared once — its flag, the
 * type of its value, its default, the row of the limits table that bounds it,
 * its help text, the run kinds (endpoints) it applies to, and where it sits in
 * the API's start body and the page's Start form. The commander flags, the API
 * body schema, the form's fields and checks, and the flag table of docs/cli.md
 * are generated from this list, so a default or a bound cannot differ between
 * them. Pure data: the page reads it too.
 */
import { DEFAULT_CLIENT_BUDGET_MS } from './client-bound.js';
import { LIMITS, type LimitName } from './limits.js';
import { RESET_CACHE_BETWEEN } from './server-hooks.js';
import { RUN_ENDPOINTS, type RunEndpoint } from './run-kinds.js';

export { RUN_ENDPOINTS, type RunEndpoint };
/** The endpoints the page and the API start a run on: the start body is a union discriminated by them. */
export const START_ENDPOINTS = ['chat', 'embeddings', 'rerank'] as const;
export type StartEndpoint = (typeof START_ENDPOINTS)[number];

const TEXT = ['chat', 'completions', 'responses', 'messages'] as const;
const POOLING = ['embeddings', 'rerank'] as const;
/** Text generation and pooling; speech to text reads only the options that name it (ANY). */
const ALL = [...TEXT, ...POOLING] as const;
const ANY = RUN_ENDPOINTS;

/** What an option's value is on the command line, with its bounds. */
export type OptionValue =
  /**
   * A number; `orAuto`/`orInf` also take the word 'auto' / 'inf'. `max` is a bound the value's meaning sets (a share is
   * at most 1); a bound past which goodput will not go is a limits row (`limit`).
   */
  | { type: 'number'; integer?: true; min?: number; exclusiveMin?: true; max?: number; limit?: LimitName; orAuto?: true; orInf?: true }
  /** A time: seconds, bare or with a unit (90, 60s, 2m, 1h), above 0 and within its limits row. */
  | { type: 'seconds'; limit: LimitName }
  /** One of a fixed set; `strict`: commander refuses anything else (and lists the choices in --help). */
  | { type: 'choice'; choices: readonly string[]; strict?: true }
  /** Comma-separated numbers: concurrency levels, rates, percentiles. */
  | { type: 'list' }
  | { type: 'text' }
  /** Text given once per value (`--header A --header B`): commander collects them in order. */
  | { type: 'repeat' }
  /** A flag without a value (`--no-x` turns off what is on by default). */
  | { type: 'switch' };

/** How the page's form reads a field before sending it (the API checks it again). */
export type FormCheck =
  | 'levels'
  | 'output-tokens'
  | 'count'
  | 'requests'
  | 'money'
  | 'boolean'
  | 'agent-trace'
  /** A count that may be 0, or 'off' (0). */
  | 'retries'
  /** Seconds, 0 or more, within the option's limit. */
  | 'seconds'
  /** Optional text the API reads with the option's own parser (blank: none). */
  | 'text'
  /** An optional number within the option's declared bounds (blank: none, or the option's default where it has one). */
  | 'optional-number'
  /** An optional JSON object (blank: none). */
  | 'json-object';

/** A field of the Start form. Its error and hint are `${id}-error` and `${id}-hint`. */
export interface FormField {
  id: string;
  label: string;
  /** `{default}` is the option's default. */
  hint?: string;
  check: FormCheck;
  /** Position in the form (lower first). */
  order: number;
  /** The field's name in a check's message when the label says more ("Hourly cost"). */
  name?: string;
  placeholder?: string;
  /** What the field holds at first, when not the option's default. */
  initial?: string;
}

/** How a start body field is read; the option's limit row bounds it, its default fills it. */
export type BodyValue =
  | 'levels'
  | 'count'
  | 'count-or-auto'
  | 'boolean'
  | 'money'
  | 'latency-slo'
  | 'agent-trace'
  /** 0 or more within the limit, or 'off' (0): `--retry`. */
  | 'retries'
  /** Seconds, 0 or more within the limit: `--retry-max-wait-s`. */
  | 'seconds'
  /** The flag's own text, read by the option's parser in core/option-parsers.ts, or null: `--rate-limit`, `--lora`. */
  | 'parsed'
  /**
   * A number within the option's declared bounds (integer, min, max, limits row), or null: not given, as a flag left
   * out (`--cancel-after-ms`, `--cancel-after-tokens`, `--cancel-fraction`; the reader applies any default).
   */
  | 'optional-number'
  /** A JSON object or null: `--extra-body`. */
  | 'json-object'
  /** A list of `Name: value` texts (never a secret-looking one: the API refuses it by name): `--header`. */
  | 'headers'
  /** A time as the flag takes it (a number of seconds, or text such as "60s" or "2m") within the limit, or null: `--duration`, `--ramp-up`. */
  | 'time';

/** An agent trace in the start body: a file's name and its text (read in the browser), or null for none. */
export interface AgentTraceBody {
  name: string;
  text: string;
}

/** Where an option sits in the API's start body for one endpoint, and in the page's form. */
export interface BodyField {
  field: string;
  value: BodyValue;
  /** Omitted: the registered server's value; null: none (rather than the option's default). */
  omitted?: 'server';
  form?: FormField;
}

/**
 * The command's groups of flags: every sweep-like command takes 'sweep'; the others are `goodput sweep`'s own
 * ('hooks': `goodput run`'s too); 'body' is no flag: a start body field the command line takes otherwise (`goodput replay TRACE`).
 */
export type OptionGroup = 'sweep' | 'pooling' | 'media' | 'arrival' | 'hooks' | 'body';

export interface RunOption {
  flag: string;
  /** The value's placeholder, e.g. '<n>'; absent for a switch. */
  arg?: string;
  value: OptionValue;
  /** As typed on the command line; absent: none. */
  default?: string;
  /** The flag's absence means something (it is refused where it does not apply): commander holds no default, the reader applies it. */
  unset?: true;
  required?: true;
  /** --help text; `{default}` is the default, `{engines}`/`{gpuSources}` the lists the CLI fills in. */
  help: string;
  group: OptionGroup;
  /** The run kinds it applies to. */
  endpoints: readonly RunEndpoint[];
  /** docs/cli.md's row when it says more than --help: the meaning, the default column, the placeholder. */
  doc?: { meaning?: string; default?: string; arg?: string };
  body?: Partial<Record<StartEndpoint, BodyField>>;
}

const requestsField: BodyField = {
  field: 'requestsPerLevel',
  value: 'count-or-auto',
  form: {
    id: 'requests',
    label: 'Requests per level',
    hint: 'measured, after a warm-up; blank: max(8, 4 × concurrency)',
    check: 'requests',
    placeholder: 'auto',
    initial: '',
    order: 2,
  },
};
const levelsField: BodyField = {
  field: 'levels',
  value: 'levels',
  form: {
    id: 'levels',
    label: 'Concurrency levels',
    hint: 'e.g. 1, 2, 4, 8 — run one at a time, ascending',
    check: 'levels',
    initial: '1, 2, 4, 8, 16',
    order: 1,
  },
};
const hourlyCostField: BodyField = {
  field: 'hourlyCostUsd',
  value: 'money',
  omitted: 'server',
  form: {
    id: 'hourly-cost',
    label: 'Hourly cost (USD per hour)',
    name: 'Hourly cost',
    hint: 'blank: no cost figure is produced',
    check: 'money',
    placeholder: 'optional',
    order: 8,
  },
};
const itemTokens = (label: string): BodyField => ({
  field: 'itemTokens',
  value: 'count',
  form: { id: 'item-tokens', label, hint: "in the server's own tokens where it can count them", check: 'count', order: 4 },
});
const retryField: BodyField = {
  field: 'retry',
  value: 'retries',
  form: {
    id: 'retry',
    label: 'Retries',
    hint: 'of a request answered 429, 529 or 503 with Retry-After; {default} by default, off or 0: none',
    check: 'retries',
    order: 11,
  },
};
const retryWaitField: BodyField = {
  field: 'retryMaxWaitS',
  value: 'seconds',
  form: {
    id: 'retry-max-wait',
    label: 'Longest retry wait (s)',
    name: 'Longest retry wait',
    hint: 'per request, over all its retries',
    check: 'seconds',
    order: 12,
  },
};
const rateLimitField: BodyField = {
  field: 'rateLimit',
  value: 'parsed',
  form: {
    id: 'rate-limit',
    label: 'Rate limit',
    hint: "optional: pace sends to a provider's limit, rpm=N, tpm=M, both (rpm=60,tpm=90000) or from-headers",
    check: 'text',
    placeholder: 'none',
    order: 13,
  },
};
const latencySloField: BodyField = { field: 'latencySlo', value: 'latency-slo' };
/** A time of a text run's Start body and form: blank for none, else as the flag takes it (the API reads it). */
const timeField = (field: string, id: string, label: string, hint: string, order: number): BodyField => ({
  field,
  value: 'time',
  form: { id, label, name: label.replace(/ \(s\)$/, ''), hint, check: 'text', placeholder: 'none', order },
});
/** An optional number of a text run's Start body and form: blank or null for none (the flag left out). */
const optionalNumberField = (field: string, id: string, label: string, hint: string, order: number, name?: string): BodyField => ({
  field,
  value: 'optional-number',
  form: { id, label, ...(name === undefined ? {} : { name }), hint, check: 'optional-number', placeholder: 'none', order },
});
/** The most bytes of an agent trace the start body carries, in the words the form's hint uses. */
const TRACE_KIB = LIMITS.agentTraceTextBytes.max / 1024;

/** The sweep's options, in the order --help lists them. */
const CATALOGUE = [
  {
    flag: '--url',
    arg: '<url>',
    value: { type: 'repeat' },
    required: true,
    group: 'sweep',
    endpoints: ANY,
    help: 'base URL of the OpenAI-compatible server, e.g. http://127.0.0.1:8000; repeat it to route over a fleet (text generation)',
    doc: {
      meaning:
        'base URL of the server (`http://host:port` or `…/v1`); given more than once (text generation), requests are routed over the targets by `--route` and each level is broken down per target ([fleets](metrics.md#fleets))',
      default: 'required',
    },
  },
  {
    flag: '--route',
    arg: '<policy|path>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: ALL,
    help: "with --url given more than once (text generation): how each request picks its target, round-robin (default), least-in-flight or session; with --endpoint embeddings or rerank: the engine's route when it serves several, e.g. /score (vLLM), /embed (TEI); default the engine's first",
    doc: {
      meaning:
        "text generation with `--url` given more than once: how each request picks its target, `round-robin`, `least-in-flight` (fewest requests in flight, per client thread) or `session` (every turn of a session or agent on one target) ([fleets](metrics.md#fleets)); `--endpoint embeddings` or `rerank`: which of the engine's routes, a path, e.g. `/score` (vLLM), `/embed` (TEI) ([endpoints](endpoints.md#other-rerank-and-embeddings-routes-vllms-score-teis-own))",
      default: "round-robin; the engine's first route",
    },
  },
  {
    flag: '--model',
    arg: '<name>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: ANY,
    help: 'model id (default: the first model the server lists)',
    doc: { meaning: 'model id to request', default: 'first listed' },
  },
  {
    flag: '--lora',
    arg: '<name=weight,…>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: TEXT,
    help: "send each request to one of these LoRA adapters, chosen by weight (seeded), e.g. sql-lora=3,chat-lora=1; each must be listed in the server's /v1/models; figures per adapter after the table",
    doc: {
      meaning:
        "several LoRA adapters in one run: each request names one adapter as its model, chosen by weight from the seed (the same requests go to the same adapters on a rerun); every name is checked against the server's `/v1/models` before anything is sent (one listed with a `parent` must belong to the run's model), and each level reports each adapter's requests, failures, throughput and TTFT/TPOT percentiles (`levels[].adapters`) ([engines](engines.md#lora-adapters))",
      default: 'none',
    },
    body: {
      chat: {
        field: 'lora',
        value: 'parsed',
        form: {
          id: 'lora',
          label: 'LoRA adapters',
          hint: "optional: each request names one adapter as its model, drawn by weight from the seed, e.g. sql-lora=3,chat-lora=1; each must be listed in the server's /v1/models",
          check: 'text',
          placeholder: 'none',
          order: 7.5,
        },
      },
    },
  },
  {
    flag: '--levels',
    arg: '<list>',
    value: { type: 'list' },
    default: '1,2,4,8,16',
    group: 'sweep',
    endpoints: ANY,
    help: 'concurrency levels, comma-separated; run ascending',
    doc: { meaning: 'levels, comma-separated, on the `--arrival` axis: concurrency levels (positive integers) by default; at most 64' },
    body: { chat: levelsField, embeddings: levelsField, rerank: levelsField },
  },
  {
    flag: '--output-tokens',
    arg: '<n>',
    value: { type: 'number', integer: true, min: 1, limit: 'outputTokens' },
    default: '256',
    group: 'sweep',
    endpoints: TEXT,
    help: 'output tokens per request (below 128 is recorded as a warning)',
    doc: { meaning: 'output tokens per request; below 128 is a recorded warning' },
    body: {
      chat: {
        field: 'outputTokens',
        value: 'count',
        form: {
          id: 'output-tokens',
          label: 'Output tokens',
          hint: 'per request; {default} by default, forced where the engine allows',
          check: 'output-tokens',
          order: 6,
        },
      },
    },
  },
  {
    flag: '--prompt-tokens',
    arg: '<n>',
    value: { type: 'number', integer: true, min: 1, limit: 'promptTokens' },
    default: '512',
    group: 'sweep',
    endpoints: ALL,
    help: "prompt length in the server's tokens (exact where it can count them: see --tokenizer)",
    doc: {
      meaning:
        "prompt length in the server's own tokens: exact where it has a tokenize route ([Engines](engines.md#prompt-lengths-in-the-servers-tokens)); the chat template's tokens are reported apart",
    },
    body: {
      chat: {
        field: 'promptTokens',
        value: 'count',
        form: {
          id: 'prompt-tokens',
          label: 'Prompt tokens',
          hint: "per request, in the server's own tokens where it can count them",
          check: 'count',
          order: 5,
        },
      },
      embeddings: itemTokens('Tokens per input'),
      rerank: itemTokens('Tokens per document'),
    },
  },
  {
    flag: '--tokenizer',
    arg: '<auto|file|approximate>',
    value: { type: 'text' },
    default: 'auto',
    group: 'sweep',
    endpoints: ALL,
    help: "how prompt tokens are counted: auto (the server's tokenize route, else words labelled approximate), a tokenizer.json, or approximate (words)",
    doc: {
      meaning:
        "how prompt tokens are counted: the server's route, else words labelled `approximate (words; this server has no tokenizer route)`; a tokenizer.json path; or words on purpose",
    },
  },
  {
    flag: '--requests-per-level',
    arg: '<n|auto>',
    value: { type: 'number', integer: true, min: 1, limit: 'requestsPerLevel', orAuto: true },
    default: 'auto',
    group: 'sweep',
    endpoints: ANY,
    help: 'measured requests per level; auto = max(8, 4 × concurrency)',
    doc: { meaning: 'measured requests per level; `auto` = max(8, 4 × concurrency)' },
    body: { chat: requestsField, embeddings: requestsField, rerank: requestsField },
  },
  {
    flag: '--warmup',
    arg: '<n>',
    value: { type: 'number', integer: true, min: 0, limit: 'warmupRequests' },
    default: '1',
    group: 'sweep',
    endpoints: ANY,
    help: 'warm-up requests before each level, excluded from every number',
  },
  {
    flag: '--hourly-cost',
    arg: '<usd>',
    value: { type: 'number', min: 0 },
    group: 'sweep',
    endpoints: ALL,
    help: 'hardware cost per hour; enables cost per 1M output tokens',
    doc: { meaning: 'hardware cost per hour; without it no cost figure is produced' },
    body: { chat: hourlyCostField, embeddings: hourlyCostField, rerank: hourlyCostField },
  },
  {
    flag: '--baseline-rate',
    arg: '<usd>',
    value: { type: 'number', min: 0, exclusiveMin: true },
    group: 'sweep',
    endpoints: TEXT,
    help: 'what you pay now per 1M output tokens; enables the saving figure',
    doc: { meaning: 'what you pay now per 1M output tokens; gives the saving' },
    body: {
      chat: {
        field: 'baselineRateUsdPer1M',
        value: 'money',
        form: {
          id: 'baseline-rate',
          label: 'Baseline rate (USD per 1M output tokens)',
          name: 'Baseline rate',
          check: 'money',
          placeholder: 'optional',
          order: 9,
        },
      },
    },
  },
  {
    flag: '--provider-prices',
    arg: '<file>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: TEXT,
    help: "a provider price table (YAML or JSON tokenPrices rows, as --prices), replacing the built-in example's",
    doc: {
      meaning: 'dated, cited per-token provider prices (input, cached input, output per 1M) read instead of the built-in example table',
      default: 'built-in',
    },
  },
  {
    flag: '--provider-price',
    arg: '<provider/model>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: TEXT,
    help: 'the price row this run is sent at (e.g. openai/gpt-4o-mini): recorded in the result, costed by goodput decide',
    doc: { meaning: 'the provider price row the run is sent at, recorded in the result; arms the spend guard' },
  },
  {
    flag: '--max-spend',
    arg: '<usd>',
    value: { type: 'number', min: 0, limit: 'maxSpendUsd' },
    default: '5',
    group: 'sweep',
    endpoints: TEXT,
    help: 'refuse a priced run to a non-loopback server whose estimated spend is above this, unless --yes',
    doc: { meaning: 'the spend guard: a priced run to a non-loopback server estimated above it is refused unless `--yes`' },
  },
  {
    flag: '--yes',
    value: { type: 'switch' },
    group: 'sweep',
    endpoints: TEXT,
    help: 'send a priced run whose estimated spend is above --max-spend',
    doc: { meaning: 'send a priced run estimated above `--max-spend`', default: 'off' },
  },
  {
    flag: '--gpu',
    arg: '<label>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: ALL,
    help: 'GPU label for the Platform card when nvidia-smi cannot tell',
    doc: { meaning: 'GPU name for the Platform card when `nvidia-smi` cannot tell' },
  },
  {
    flag: '--thinking',
    arg: '<mode>',
    value: { type: 'choice', choices: ['off', 'on'], strict: true },
    default: 'off',
    group: 'sweep',
    endpoints: TEXT,
    help: 'reasoning on or off (the engine-neutral switch)',
    doc: { meaning: 'reasoning switch sent to the engine' },
    body: {
      chat: {
        field: 'thinking',
        value: 'boolean',
        form: {
          id: 'thinking',
          label: 'Thinking',
          hint: 'off by default, so models compare on their answers; reasoning tokens count either way',
          check: 'boolean',
          order: 7,
        },
      },
    },
  },
  {
    flag: '--endpoint',
    arg: '<kind>',
    value: { type: 'choice', choices: RUN_ENDPOINTS, strict: true },
    default: 'chat',
    group: 'sweep',
    endpoints: ANY,
    help: "API to call (responses: the OpenAI Responses API; messages: Anthropic's Messages API; embeddings, rerank and transcriptions: docs/endpoints.md)",
    doc: {
      meaning:
        "`/v1/chat/completions`, `/v1/completions` or the Responses API `/v1/responses` (vLLM, SGLang, llama.cpp, OpenAI, generic; [agents](agents.md#the-responses-api)); Anthropic's Messages API `/v1/messages` ([providers](providers.md)); embeddings and rerank ([endpoints](endpoints.md)); speech to text `/v1/audio/transcriptions` ([endpoints](endpoints.md#speech-to-text-transcriptions))",
    },
  },
  {
    flag: '--engine',
    arg: '<kind|auto>',
    value: { type: 'text' },
    default: 'auto',
    group: 'sweep',
    endpoints: ALL,
    help: 'engine dialect: auto (detect from GET routes) or one of {engines}',
    doc: {
      meaning:
        "the engine's dialect: `auto` detects it; or `vllm`, `sglang`, `tgi`, `tei` (Text Embeddings Inference: embeddings and rerank only), `llamacpp`, `ollama`, `ollama-native` (Ollama's NDJSON API), `trtllm`, `lmdeploy`, `openai`, `generic` (see [Engines](engines.md#detection-and-dialects))",
    },
  },
  {
    flag: '--no-force-length',
    value: { type: 'switch' },
    group: 'sweep',
    endpoints: TEXT,
    help: 'do not send ignore_eos/min_tokens (the output may end early)',
    doc: { meaning: 'do not send `ignore_eos`/`min_tokens`', default: 'forced' },
  },
  {
    flag: '--temperature',
    arg: '<t>',
    value: { type: 'number', min: 0 },
    default: '0',
    group: 'sweep',
    endpoints: TEXT,
    help: 'sampling temperature sent with every request',
    doc: { meaning: 'sampling temperature, sent with every request and recorded' },
  },
  {
    flag: '--seed',
    arg: '<n>',
    value: { type: 'number', integer: true },
    default: '42',
    group: 'sweep',
    endpoints: ANY,
    help: 'seed for prompts and sampling',
  },
  {
    flag: '--api-key-env',
    arg: '<name>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: ANY,
    help: 'environment variable holding the API key (default: GOODPUT_API_KEY)',
    doc: { meaning: 'environment variable holding the API key', default: '`GOODPUT_API_KEY`' },
  },
  {
    flag: '--api-key',
    arg: '<key>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: ANY,
    help: 'API key (prefer --api-key-env: flags show in process lists); never printed or stored',
    doc: { meaning: 'the key itself (prefer the variable: flags show in process lists)' },
  },
  {
    flag: '--api-key-file',
    arg: '<path>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: TEXT,
    help: 'file holding the API key (its first line; at most 16 KiB); never printed or stored',
    doc: { meaning: 'file holding the API key (its first line), read once; instead of the variable or the flag' },
  },
  {
    flag: '--header',
    arg: '<name: value>',
    value: { type: 'repeat' },
    group: 'sweep',
    endpoints: TEXT,
    help: 'extra header sent with every request (repeatable; secret-looking values are redacted from results and logs)',
    body: { chat: { field: 'headers', value: 'headers' } },
    doc: {
      meaning:
        'extra header sent with every request, repeatable (at most 32); hop-by-hop headers, `Host`, `Content-Length` and `X-Request-Id` are refused; a value whose name holds key, token, secret, auth or cookie, or that looks random, is `[redacted]` in results, logs and stored runs ([providers](providers.md))',
    },
  },
  {
    flag: '--extra-body',
    arg: '<json>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: TEXT,
    help: 'JSON object merged into every request body (at most 64 KiB; model, messages, prompt, input and stream are refused)',
    doc: { meaning: 'a JSON object merged into every request body, e.g. `{"priority":1}` ([providers](providers.md))' },
    body: {
      chat: {
        field: 'extraBody',
        value: 'json-object',
        form: {
          id: 'extra-body',
          label: 'Extra request body (JSON)',
          name: 'Extra body',
          hint: 'optional: a JSON object merged into every request, e.g. {"priority":1}',
          check: 'json-object',
          placeholder: 'optional',
          order: 14,
        },
      },
    },
  },
  {
    flag: '--azure-deployment',
    arg: '<name>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: ['chat', 'completions'],
    help: 'Azure OpenAI: send to /openai/deployments/<name>/… with the api-key header (needs --api-version)',
    doc: {
      meaning:
        'Azure OpenAI deployment: requests go to `/openai/deployments/<name>/chat/completions?api-version=…` with the `api-key` header ([providers](providers.md))',
    },
  },
  {
    flag: '--api-version',
    arg: '<version>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: ['chat', 'completions', 'messages'],
    help: "Azure OpenAI's api-version (with --azure-deployment), or the anthropic-version header of --endpoint messages (default 2023-06-01)",
    doc: {
      meaning: "Azure's `api-version` query (with `--azure-deployment`), or the `anthropic-version` header of `--endpoint messages` (default `2023-06-01`)",
    },
  },
  {
    flag: '--client-budget-ms',
    arg: '<ms>',
    value: { type: 'number', min: 0, exclusiveMin: true },
    default: String(DEFAULT_CLIENT_BUDGET_MS),
    group: 'sweep',
    endpoints: ALL,
    help: 'floor of our send-lag and event-loop-delay budgets (p99) before a level is marked client-bound; each budget is 5 % of what it distorts (TTFT, TPOT p50) when larger',
    doc: {
      meaning:
        'floor of the client budgets: p99 send lag / send lateness / event-loop delay above which a level is marked client-bound; each budget is 5 % of what it distorts (TTFT p50 for sends, TPOT p50 for the loop) when that is larger',
    },
  },
  {
    flag: '--client-threads',
    arg: '<n|auto>',
    value: { type: 'number', integer: true, min: 1, limit: 'clientThreads', orAuto: true },
    default: 'auto',
    group: 'sweep',
    endpoints: ALL,
    help: "client threads a level is split over, each with its own event loop and sockets (auto: the cores; at most the level's streams)",
    doc: {
      meaning:
        "threads a level is split over, each with its own event loop and sockets (auto: the cores; at most the level's streams); embeddings and rerank too ([endpoints](endpoints.md#client-threads))",
    },
  },
  {
    flag: '--workers',
    arg: '<n>',
    value: { type: 'number', integer: true, min: 1, limit: 'workers' },
    group: 'sweep',
    endpoints: ALL,
    help: 'split every level over N `goodput worker` processes coordinated through --database-url (this process sends nothing)',
    doc: {
      meaning:
        'split every level over N `goodput worker` processes that meet in `--database-url` ([scale-out](scale-out.md)); every endpoint, embeddings and rerank too',
      default: '—',
    },
  },
  {
    flag: '--workers-wait',
    arg: '<s>',
    value: { type: 'number', min: 0 },
    default: '60',
    group: 'sweep',
    endpoints: ALL,
    help: 'with --workers: how long to wait for N live workers, seconds',
    doc: { meaning: 'with `--workers`: how long to wait for N live workers' },
  },
  {
    flag: '--timeout-s',
    arg: '<s>',
    value: { type: 'number', min: 0, exclusiveMin: true },
    default: '600',
    group: 'sweep',
    endpoints: ANY,
    help: 'per-request limit, seconds',
    doc: { meaning: 'per-request limit' },
  },
  {
    flag: '--idle-timeout-s',
    arg: '<s>',
    value: { type: 'number', min: 0, exclusiveMin: true },
    default: '60',
    group: 'sweep',
    endpoints: ALL,
    help: 'a request whose answer stays silent this long once its headers came (no byte arrives) fails as a timeout in the phase it was in, seconds',
    doc: {
      meaning:
        'a request whose answer stays silent this long once its headers came (no byte arrives: no first token, a stalled stream or embeddings answer) fails as a `timeout` in the phase it was in (`first-token`, `stream`; "the stream went silent: no bytes for N ms"), long before `--timeout-s`; never longer than it',
    },
  },
  {
    flag: '--retry',
    arg: '<n|off>',
    value: { type: 'number', integer: true, min: 0, limit: 'retryAttempts' },
    default: '3',
    group: 'sweep',
    endpoints: ALL,
    help: 'retries of a request answered 429, 529 or 503 with Retry-After, after waiting what it asks (off or 0: none); its latency counts from its first attempt',
    body: { chat: retryField, embeddings: retryField, rerank: retryField },
    doc: {
      meaning:
        'retries of a request the provider answered 429, 529 or 503 **with** `Retry-After` (or `retry-after-ms`), each after the wait it asks; `off` or 0: none. Its TTFT and e2e count from its first attempt, and every attempt is on its record and in the level ([rate limits](rate-limits.md))',
    },
  },
  {
    flag: '--retry-max-wait-s',
    arg: '<s>',
    value: { type: 'number', min: 0, limit: 'retryWaitS' },
    default: '60',
    group: 'sweep',
    endpoints: ALL,
    help: 'most one request waits over all its retries, seconds (a Retry-After past what is left is not waited for)',
    doc: { meaning: 'most one request waits over all its retries; a `Retry-After` past what is left fails the request, saying so' },
    body: { chat: retryWaitField, embeddings: retryWaitField, rerank: retryWaitField },
  },
  {
    flag: '--rate-limit',
    arg: '<rpm=N,tpm=M|from-headers>',
    value: { type: 'text' },
    unset: true,
    group: 'sweep',
    endpoints: TEXT,
    help: "pace sends to a provider's rate limit: requests and tokens per minute (tokens: the prompt's characters / 3 plus max output tokens, an estimate), or the limits its x-ratelimit-* headers state",
    doc: {
      meaning:
        "pace sends to a provider's rate limit: `rpm=N`, `tpm=M` or both (tokens estimated as the prompt's characters / 3, rounded up, plus the max output tokens), or `from-headers` (the limits its `x-ratelimit-*` / `anthropic-ratelimit-*` headers state). A paced level says it was limited by the provider instead of reporting a capacity ([rate limits](rate-limits.md))",
      default: 'none',
    },
    body: { chat: rateLimitField },
  },
  {
    flag: '--gpu-source',
    arg: '<kind>',
    value: { type: 'text' },
    default: 'auto',
    group: 'sweep',
    endpoints: TEXT,
    help: 'where GPU readings come from: {gpuSources}',
    doc: { meaning: 'where GPU readings come from: `auto`, `nvidia-smi`, `dcgm`, `amd-smi`, `rocm-smi`, `engine`, `none` (see GPU telemetry sources)' },
  },
  {
    flag: '--dcgm-url',
    arg: '<url>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: TEXT,
    help: "a DCGM exporter's metrics URL, e.g. http://gpu-host:9400/metrics",
    doc: { meaning: "a DCGM exporter's metrics URL, e.g. `http://gpu-host:9400/metrics`; needed by `--gpu-source dcgm`, used first by `auto`" },
  },
  {
    flag: '--metrics-url',
    arg: '<[role=]url>',
    value: { type: 'repeat' },
    group: 'sweep',
    endpoints: TEXT,
    help: "the server's Prometheus endpoint (default: probe /prometheus/metrics, then /metrics); repeat with prefill=URL, decode=URL, router=URL for a disaggregated server's pools",
    doc: {
      meaning:
        "the server's Prometheus endpoint (default: the engine's path, `/prometheus/metrics`, then `/metrics`); given as `prefill=URL`, `decode=URL` or `router=URL` (repeatable, each role once), a disaggregated server's pool, scraped around every level for its own figures, KV transfer and TTFT split ([metrics](metrics.md#disaggregated-serving))",
      default: 'probed',
    },
  },
  {
    flag: '--pool-gpus',
    arg: '<role=n,...>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: TEXT,
    help: 'GPUs in each pool given with --metrics-url ROLE=URL, e.g. prefill=2,decode=6: its tokens/s are also given per GPU',
    doc: { meaning: "GPUs in each pool given with `--metrics-url ROLE=URL`, e.g. `prefill=2,decode=6`: the pool's tokens/s per GPU" },
  },
  {
    flag: '--kv-link-gbps',
    arg: '<gbps>',
    value: { type: 'number', min: 0, exclusiveMin: true, limit: 'kvLinkGbps' },
    group: 'sweep',
    endpoints: TEXT,
    help: 'bandwidth of the link between the prefill and decode pools, Gbit/s: a KV transfer rate above it is refused as impossible',
    doc: {
      meaning:
        "bandwidth of the link between the prefill and decode pools, Gbit/s; a level whose KV transfer rate (over its window, or over the transfers' own time) is above it is refused as impossible, exit 2, nothing written",
    },
  },
  {
    flag: '--prometheus',
    arg: '<url>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: TEXT,
    help: "read the server's counters from this Prometheus server's query API (with --selector) instead of its own endpoint",
    doc: {
      meaning:
        "a Prometheus server (`http://host:9090`): each level's counters come from its query API, summed over the series `--selector` picks, instead of one endpoint per replica ([fleets](metrics.md#fleets))",
    },
  },
  {
    flag: '--selector',
    arg: '<matchers>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: TEXT,
    help: "with --prometheus: label matchers picking the servers' series, e.g. '{job=\"vllm\"}'",
    doc: { meaning: 'with `--prometheus`: label matchers in braces picking every series of the servers, e.g. `{job="vllm"}`' },
  },
  {
    flag: '--no-server-metrics',
    value: { type: 'switch' },
    group: 'sweep',
    endpoints: TEXT,
    help: "do not scrape the server's Prometheus endpoint",
    doc: { meaning: "do not scrape the server's Prometheus endpoint (no server-side ground truth)", default: 'on' },
  },
  {
    flag: '--no-traceparent',
    value: { type: 'switch' },
    group: 'sweep',
    endpoints: ALL,
    help: 'do not send a W3C traceparent header with each request',
    doc: {
      meaning: 'do not send a W3C `traceparent` header (a random trace and span id per request, kept on the record) ([observability](observability.md))',
      default: 'on',
    },
  },
  {
    flag: '--otlp',
    arg: '<url>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: TEXT,
    help: "export one span per request over OTLP/HTTP JSON to this URL (a collector's /v1/traces), after each level",
    doc: { meaning: "one span per request over OTLP/HTTP JSON to a collector's `/v1/traces`, sent after each level ([observability](observability.md))" },
  },
  {
    flag: '--otlp-header',
    arg: '<name=value>',
    value: { type: 'repeat' },
    group: 'sweep',
    endpoints: TEXT,
    help: "with --otlp: a header sent with every export, e.g. a hosted collector's Authorization=Bearer … (repeatable; every value is redacted from results and logs)",
    doc: {
      meaning:
        "with `--otlp`: a header sent with every export request, `NAME=value` as `OTEL_EXPORTER_OTLP_HEADERS` writes them (a hosted collector's `Authorization=Bearer …`, `x-honeycomb-team=…`), repeatable (at most 32), checked as `--header`'s are; every value is `[redacted]` in the recorded command ([observability](observability.md))",
    },
  },
  {
    flag: '--serve-metrics',
    arg: '<[host:]port>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: TEXT,
    help: "serve the run's own counters and histograms at http://HOST:PORT/metrics while it runs (host 127.0.0.1 unless given)",
    doc: {
      meaning:
        "the run's own live counters and histograms in Prometheus format at `/metrics` while it runs; loopback unless another host is given ([observability](observability.md))",
    },
  },
  {
    flag: '--metrics-interval-ms',
    arg: '<ms>',
    value: { type: 'number', integer: true, min: 100 },
    default: '1000',
    group: 'sweep',
    endpoints: TEXT,
    help: "how often the server's gauges are scraped during a level",
    doc: { meaning: "how often the server's gauges (running, waiting, KV cache) are scraped during a level; at least 100" },
  },
  {
    flag: '--tools',
    arg: '<1|8|64|file>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: ['chat', 'responses'],
    help: 'offer tools with every chat request: a built-in set of 1, 8 or 64, or a JSON file of OpenAI-style tools (implies --no-force-length)',
    doc: { meaning: 'tools offered with every request, with `--tool-choice <auto\\|required\\|name>` ([agents](agents.md))' },
  },
  {
    flag: '--tool-choice',
    arg: '<auto|required|name>',
    value: { type: 'text' },
    default: 'auto',
    group: 'sweep',
    endpoints: ['chat', 'responses'],
    help: "with --tools: tool_choice sent (a tool's name forces that tool)",
  },
  {
    flag: '--json-schema',
    arg: '<file>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: ['chat', 'responses'],
    help: "structured output: ask every chat answer to match this JSON schema (response_format or the engine's key) and check it (implies --no-force-length)",
    doc: { meaning: 'structured output: every answer checked against the schema, `--schema-control` plain controls ([agents](agents.md#structured-output))' },
  },
  {
    flag: '--schema-control',
    arg: '<share>',
    value: { type: 'number', min: 0 },
    default: '0.5',
    group: 'sweep',
    endpoints: ['chat', 'responses'],
    help: 'with --json-schema: share of requests sent without the schema, to measure what it costs',
  },
  {
    flag: '--json',
    arg: '<file|->',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: ANY,
    help: 'write the result JSON to a file, or to stdout with -',
    doc: { meaning: 'write the result JSON to a file, or only JSON to stdout with `-`' },
  },
  {
    flag: '--raw',
    arg: '<file>',
    value: { type: 'text' },
    group: 'sweep',
    endpoints: ANY,
    help: 'write every request record as JSON lines, level by level',
    doc: { meaning: 'every request record as JSON lines, appended as each level ends' },
  },

  {
    flag: '--batch-size',
    arg: '<n>',
    value: { type: 'number', integer: true, min: 1, limit: 'embeddingBatch' },
    default: '16',
    unset: true,
    group: 'pooling',
    endpoints: ['embeddings'],
    help: 'with --endpoint embeddings: inputs per request, each of --prompt-tokens tokens (default {default})',
    body: { embeddings: { field: 'itemsPerRequest', value: 'count', form: { id: 'items', label: 'Inputs per request', check: 'count', order: 3 } } },
  },
  {
    flag: '--documents',
    arg: '<n>',
    value: { type: 'number', integer: true, min: 1, limit: 'rerankDocuments' },
    default: '32',
    unset: true,
    group: 'pooling',
    endpoints: ['rerank'],
    help: 'with --endpoint rerank: documents per query, each of --prompt-tokens tokens (default {default})',
    body: { rerank: { field: 'itemsPerRequest', value: 'count', form: { id: 'items', label: 'Documents per query', check: 'count', order: 3 } } },
  },
  {
    flag: '--query-tokens',
    arg: '<n>',
    value: { type: 'number', integer: true, min: 1, limit: 'promptTokens' },
    default: '32',
    unset: true,
    group: 'pooling',
    endpoints: ['rerank'],
    help: 'with --endpoint rerank: tokens of the query (default {default})',
    // The API has always taken it for embeddings too (where it is unused).
    body: {
      embeddings: { field: 'queryTokens', value: 'count' },
      rerank: { field: 'queryTokens', value: 'count', form: { id: 'query-tokens', label: 'Query tokens', check: 'count', order: 4.5 } },
    },
  },
  {
    flag: '--latency-slo',
    arg: '<pP:ms>',
    value: { type: 'text' },
    group: 'pooling',
    endpoints: POOLING,
    help: 'with --endpoint embeddings or rerank: a latency objective, e.g. p95:200; each level is judged and capacity at it reported',
    doc: {
      meaning:
        'with `--endpoint embeddings` or `rerank`: a latency objective judged per level, and capacity at it ([endpoints](endpoints.md#latency-objectives-and-capacity))',
    },
    body: { embeddings: latencySloField, rerank: latencySloField },
  },

  {
    flag: '--images',
    arg: '<n>',
    value: { type: 'number', integer: true, min: 1, limit: 'imagesPerRequest' },
    group: 'media',
    endpoints: ['chat', 'responses'],
    help: 'chat: synthetic PNG images (drawn from --seed) sent with every request, as base64 data URLs after the prompt',
    doc: {
      meaning: 'chat or responses: synthetic images (drawn from `--seed`) sent with every request; at most 16 ([endpoints](endpoints.md#image-inputs-in-chat))',
    },
  },
  {
    flag: '--image-size',
    arg: '<WxH>',
    value: { type: 'text' },
    default: '512x512',
    unset: true,
    group: 'media',
    endpoints: ['chat', 'responses'],
    help: 'with --images: width × height of every image in pixels (default {default})',
    doc: { meaning: "with `--images`: each image's width × height in pixels, each side 1 to 4,096" },
  },
  {
    flag: '--image-format',
    arg: '<png|jpeg>',
    value: { type: 'choice', choices: ['png', 'jpeg'] },
    default: 'png',
    unset: true,
    group: 'media',
    endpoints: ['chat', 'responses'],
    help: 'with --images: the file format of every image (default {default})',
    doc: { meaning: 'with `--images`: the file format of every image (JPEG: baseline, byte-identical by seed)' },
  },
  {
    flag: '--image-delivery',
    arg: '<data|url>',
    value: { type: 'choice', choices: ['data', 'url'] },
    default: 'data',
    unset: true,
    group: 'media',
    endpoints: ['chat', 'responses'],
    help: "with --images: inline as base64 data URLs (default), or as http URLs of goodput's own image server that the server fetches",
    doc: {
      meaning:
        "with `--images`: inline as base64 data URLs, or as http URLs of goodput's own image server on 127.0.0.1, which the server fetches ([endpoints](endpoints.md#images-by-url))",
    },
  },
  {
    flag: '--image-base-url',
    arg: '<url>',
    value: { type: 'text' },
    group: 'media',
    endpoints: ['chat', 'responses'],
    help: "with --image-delivery url: where the server reaches goodput's image server (it listens there), e.g. http://10.0.0.5:8090; default 127.0.0.1 on a free port, for a server on this machine",
    doc: {
      meaning:
        "with `--image-delivery url`: `http://HOST:PORT` of this machine that the server can reach; goodput's image server listens there (needed for a server that is not on loopback)",
    },
  },
  {
    flag: '--audio-seconds',
    arg: '<s>',
    value: { type: 'number', min: 0, exclusiveMin: true, limit: 'audioSeconds' },
    group: 'media',
    endpoints: ['chat', 'responses', 'transcriptions'],
    help: 'chat: a synthetic WAV clip of this many seconds (8 kHz mono, drawn from --seed) sent with every request as input_audio; transcriptions: the clip each request uploads',
    doc: {
      meaning:
        'chat or responses: a synthetic 8 kHz mono WAV clip of this length sent with every request as `input_audio`; transcriptions: the clip each request uploads ([endpoints](endpoints.md#speech-to-text-transcriptions)); above 0 and at most 120 ([endpoints](endpoints.md#audio-inputs-in-chat))',
    },
  },

  {
    flag: '--arrival',
    arg: '<kind>',
    value: { type: 'choice', choices: ['concurrency', 'rate', 'burst'], strict: true },
    default: 'concurrency',
    group: 'arrival',
    endpoints: TEXT,
    help: 'how requests arrive, and so what --levels are: concurrency (closed loop: streams), rate (open loop: requests/s) or burst (requests at once every --burst-interval-ms)',
    doc: {
      meaning:
        "the arrival pattern a contract's `load.pattern` names ([contracts](contracts.md)): `concurrency` (closed loop, levels are streams), `rate` (open loop, levels are requests/s) or `burst` (levels are burst sizes)",
    },
  },
  {
    flag: '--request-rate',
    arg: '<r,…|inf>',
    value: { type: 'number', min: 0, exclusiveMin: true, orInf: true },
    default: 'inf',
    group: 'arrival',
    endpoints: TEXT,
    help: 'requests per second, comma-separated: an open loop at each rate (the levels, as --arrival rate); inf: every stream sends again at once, the closed loop of --levels',
    doc: {
      meaning:
        'as `vllm bench serve`: requests/s, one level per rate, sent open loop (`--arrival rate --levels R,…`); `inf`: all at once, a closed loop at `--levels`',
    },
  },
  {
    flag: '--burstiness',
    arg: '<b|inf>',
    value: { type: 'number', min: 0, exclusiveMin: true, orInf: true },
    default: '1',
    group: 'arrival',
    endpoints: TEXT,
    help: 'with a request rate: the gamma shape of the gaps between sends; 1 = Poisson, below 1 burstier, above 1 more even, inf = evenly spaced',
    doc: {
      meaning:
        "with `--request-rate` (or `--arrival rate`): gaps between sends are gamma-distributed with this shape and the rate's mean, as vLLM's; `1` is Poisson (process `poisson`), `inf` evenly spaced (process `constant`), any other the contract's `burstiness`",
    },
  },
  {
    flag: '--max-concurrency',
    arg: '<n>',
    value: { type: 'number', integer: true, min: 1, limit: 'concurrency' },
    group: 'arrival',
    endpoints: TEXT,
    help: 'with an open loop: requests in flight at most; one due while it is reached waits for a slot (reported)',
  },
  {
    flag: '--burst-interval-ms',
    arg: '<ms>',
    value: { type: 'number', min: 0, exclusiveMin: true },
    group: 'arrival',
    endpoints: TEXT,
    help: 'with --arrival burst: ms from one burst to the next',
  },
  {
    flag: '--duration',
    arg: '<time>',
    value: { type: 'seconds', limit: 'levelDurationS' },
    group: 'arrival',
    endpoints: TEXT,
    help: 'bound each level by time instead of a request count: its streams send until it ends (60s, 2m or seconds); what is in flight then finishes and is recorded',
    doc: {
      meaning:
        "each level sends for this long instead of a request count (`60s`, `2m`, `1h` or seconds; at most 1 h): its C streams send until the time is up, and what is in flight then finishes and is recorded; the level's `window` gives the counts ([below](#levels-bounded-by-time-and-a-ramp))",
      default: 'a count',
    },
    body: {
      chat: timeField('durationS', 'duration', 'Duration per level', 'optional: each level sends for this long instead of a count, e.g. 60s or 2m', 2.1),
    },
  },
  {
    flag: '--ramp-up',
    arg: '<seconds>',
    value: { type: 'seconds', limit: 'rampUpS' },
    group: 'arrival',
    endpoints: TEXT,
    help: "with --duration: open each level's streams evenly over this many seconds (linear spawn); the ramp's requests are marked and kept out of every number",
    doc: {
      meaning:
        'with `--duration`: each level opens its C streams evenly over this many seconds, the first at once and the last as the ramp ends; requests sent during the ramp are recorded with `ramp: true` and kept out of every number, as warm-ups are ([below](#levels-bounded-by-time-and-a-ramp))',
      default: 'none',
    },
    body: { chat: timeField('rampUpS', 'ramp-up', 'Ramp-up (s)', 'optional, with a duration: seconds over which each level opens its streams', 2.2) },
  },
  {
    flag: '--dataset',
    arg: '<file>',
    value: { type: 'text' },
    group: 'arrival',
    endpoints: TEXT,
    help: "a local dataset as the prompts, in order: Parquet, JSONL or CSV (name its columns with --column) or ShareGPT JSON (each conversation's first human turn and its answer's length)",
    doc: {
      meaning:
        "the sweep's prompts and output lengths from a local dataset, used in order across the sweep: Parquet, JSONL or CSV with `--column`, or a ShareGPT JSON list (first human turns as prompts; for whole conversations use `goodput sessions --conversations`) ([replay](replay.md#datasets))",
    },
  },
  {
    flag: '--column',
    arg: '<field=col,…>',
    value: { type: 'text' },
    group: 'arrival',
    endpoints: TEXT,
    help: "with --dataset: which column is the prompt's text (prompt=) or length (input_len=), and the output length (output_len=), e.g. prompt=question,output_len=n; goodput replay FILE takes it with the send time too (timestamp= seconds or a date and time, or timestamp_ms=)",
    doc: {
      meaning:
        "with `--dataset`: which column is the prompt's text (`prompt=`) or length (`input_len=`), and the output length (`output_len=`), e.g. `prompt=question,output_len=n`. `goodput replay FILE --column …` reads FILE as a dataset and sends each row at its own time: map `timestamp=` (seconds, or a date and time) or `timestamp_ms=`, and `output_len=` ([replay](replay.md#datasets))",
    },
  },
  {
    flag: '--reset-cache-between',
    arg: '<cells|levels>',
    value: { type: 'choice', choices: RESET_CACHE_BETWEEN, strict: true },
    group: 'hooks',
    endpoints: TEXT,
    help: "empty the server's prefix cache before every level, or before each cell of a contract (goodput run): vLLM, SGLang, llama.cpp, the simulator; refused where the engine has no such route",
    doc: {
      meaning:
        "empty the server's prefix cache before every level (`levels`), or before the first level of each contract cell (`cells`, `goodput run`): vLLM `POST /reset_prefix_cache`, SGLang `POST /flush_cache`, llama.cpp `POST /slots/{id}?action=erase` per slot, the simulator `POST /sim/reset-prefix-cache`; each call and its answer kept in the level's `serverHooks`; refused before anything is sent where the engine has none ([engines](engines.md#server-hooks))",
      default: 'none',
    },
  },
  {
    flag: '--profile-level',
    arg: '<level>',
    value: { type: 'number', min: 0, exclusiveMin: true },
    group: 'hooks',
    endpoints: TEXT,
    help: "start the engine's profiler (POST /start_profile) before this level and stop it (POST /stop_profile) after it: vLLM, SGLang",
    doc: {
      meaning:
        "start the engine's profiler (`POST /start_profile`) before the level of this value (one of `--levels`) and stop it (`POST /stop_profile`) after its last request: vLLM, SGLang; both calls kept in the level's `serverHooks`; refused where the engine has no profiler ([engines](engines.md#server-hooks))",
    },
  },
  {
    flag: '--cancel-after-ms',
    arg: '<ms>',
    value: { type: 'number', integer: true, min: 0, exclusiveMin: true, limit: 'cancelAfterMs' },
    group: 'arrival',
    endpoints: TEXT,
    help: 'give each request up this many ms after its send, as a user who stops waiting (its socket closed): recorded as cancelled, neither success nor failure, in no latency or throughput figure',
    doc: {
      meaning:
        "give each request up this many ms after its send unless it ended before, as a user who stops waiting: its socket is closed, its outcome is `cancelled` (neither success nor failure), it is counted in the level's `cancelled` and left out of every latency, throughput and goodput figure ([metrics](metrics.md#cancelled-requests)); with `--cancel-after-tokens`, whichever comes first",
      default: 'none',
    },
    body: {
      chat: optionalNumberField(
        'cancelAfterMs',
        'cancel-after-ms',
        'Cancel after (ms)',
        'optional: give a request up this many ms after its send, as a user who stops waiting; recorded as cancelled, in no latency or throughput figure',
        2.3,
        'Cancel after',
      ),
    },
  },
  {
    flag: '--cancel-after-tokens',
    arg: '<k>',
    value: { type: 'number', integer: true, min: 0, exclusiveMin: true, limit: 'outputTokens' },
    group: 'arrival',
    endpoints: TEXT,
    help: 'give each request up once its stream carried this many tokens (its socket closed): recorded as cancelled, as --cancel-after-ms',
    doc: {
      meaning:
        'give each request up once its chunks carried this many tokens (content or reasoning, as the record counts them) unless it ended before: its socket is closed and its outcome is `cancelled`, as with `--cancel-after-ms`',
      default: 'none',
    },
    body: {
      chat: optionalNumberField(
        'cancelAfterTokens',
        'cancel-after-tokens',
        'Cancel after tokens',
        'optional: give a request up once its stream carried this many tokens',
        2.4,
      ),
    },
  },
  {
    flag: '--cancel-fraction',
    arg: '<share>',
    value: { type: 'number', min: 0, exclusiveMin: true, max: 1 },
    group: 'arrival',
    endpoints: TEXT,
    help: 'with --cancel-after-ms or --cancel-after-tokens: the share of measured requests given up, spread evenly over each level (warm-ups never)',
    doc: {
      meaning:
        'with `--cancel-after-ms` or `--cancel-after-tokens`: the share of measured requests given up (above 0, at most 1), spread evenly over each level so every client thread and worker picks the same ones; warm-ups are never cancelled',
      default: '1',
    },
    body: {
      chat: optionalNumberField(
        'cancelFraction',
        'cancel-fraction',
        'Share cancelled',
        'with a cancel point: the share of measured requests given up, spread evenly, above 0 and at most 1; blank: 1 (every one)',
        2.5,
      ),
    },
  },
  {
    flag: 'TRACE',
    value: { type: 'text' },
    group: 'body',
    endpoints: TEXT,
    help: 'an agent trace to replay (goodput replay TRACE): the levels are its speeds, the requests its turns',
    body: {
      chat: {
        field: 'agentTrace',
        value: 'agent-trace',
        form: {
          id: 'agent-trace',
          label: 'Agent trace',
          hint: `optional: a goodput agents JSONL or AgentX file of at most ${TRACE_KIB} KiB, replayed at its recorded times; the levels are then speeds (1 = as recorded) and each turn's prompt and output tokens are the trace's`,
          check: 'agent-trace',
          order: 10,
        },
      },
    },
  },
  {
    flag: '--metric-percentiles',
    arg: '<list>',
    value: { type: 'list' },
    group: 'arrival',
    endpoints: TEXT,
    help: "after the table, each level's TTFT, TPOT, ITL and E2EL at these percentiles (vLLM's definitions), e.g. 50,90,99",
    doc: {
      meaning:
        "as `vllm bench serve`: after the table, each level's TTFT, TPOT, ITL and E2EL at these percentiles, computed from the records with vLLM's definitions; each above 0 and at most 100",
    },
  },
] as const satisfies readonly RunOption[];

export const RUN_OPTIONS: readonly RunOption[] = CATALOGUE;
/** Every option as declared, its literal types kept: the command line's flag types are read from it. */
export type DeclaredOption = (typeof CATALOGUE)[number];

/** The key commander stores a flag's value under: '--output-tokens' → 'outputTokens', '--no-force-length' → 'forceLength'. */
export function optionKey(o: Pick<RunOption, 'flag'>): string {
  return o.flag.replace(/^--(no-)?/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The option stored under `key`; throws for a key no option has (a programming error). */
export function runOption(key: string, options: readonly RunOption[] = RUN_OPTIONS): RunOption {
  const found = options.find((o) => optionKey(o) === key);
  if (found === undefined) throw new Error(`no option is stored under ${key}`);
  return found;
}

/** The default of the option stored under `key`, as typed on a command line. */
export function optionDefault(key: string): string {
  const d = runOption(key).default;
  if (d === undefined) throw new Error(`option ${key} has no default`);
  return d;
}

/** A numeric default, as the spec and the API body hold it. */
export function numericDefault(key: string): number {
  return Number(optionDefault(key));
}

/** The start body's fields for `endpoint`, each with its option, in catalogue order. */
export function startBodyFields(endpoint: StartEndpoint, options: readonly RunOption[] = RUN_OPTIONS): Array<{ option: RunOption; field: BodyField }> {
  return options.flatMap((option) => {
    const field = option.body?.[endpoint];
    return field === undefined ? [] : [{ option, field }];
  });
}

/** The Start form's fields for `endpoint`, in form order. */
export function startFormFields(
  endpoint: StartEndpoint,
  options: readonly RunOption[] = RUN_OPTIONS,
): Array<{ option: RunOption; field: BodyField; form: FormField }> {
  return startBodyFields(endpoint, options)
    .flatMap(({ option, field }) => (field.form === undefined ? [] : [{ option, field, form: field.form }]))
    .sort((a, b) => a.form.order - b.form.order);
}
