/**
 * `goodput sim` flags: their declaration on a commander command and their mapping
 * onto profile fields. Flags given on the command line override the profile file;
 * the merged profile is validated by `simProfileSchema`.
 */
import { Option, type Command } from 'commander';
import { SIM_DIALECT_KINDS } from './dialects/kinds.js';
import { SIM_ROLES } from './disagg-role.js';
import type { SimProfileInput } from './server.js';
import { STEP_TIMINGS } from './step-timing.js';

/** A flag that sets one numeric profile field (path inside the profile). */
interface NumberFlag {
  flag: string;
  key: string;
  path: readonly [string] | readonly [string, string];
  help: string;
}

const n = (flag: string, key: string, path: NumberFlag['path'], help: string): NumberFlag => ({ flag, key, path, help });

/** Every numeric profile flag. */
export const NUMBER_FLAGS: readonly NumberFlag[] = [
  n('--seed <n>', 'seed', ['seed'], 'seed of lengths, words and faults (default 1)'),
  n('--max-model-len <tokens>', 'maxModelLen', ['maxModelLen'], 'context limit, prompt + output (default 32768)'),
  n('--chat-template-tokens <n>', 'chatTemplateTokens', ['chatTemplateTokens'], 'tokens the chat template adds to every chat request (default 0)'),
  n('--prefill-base-ms <ms>', 'prefillBaseMs', ['prefillBaseMs'], 'fixed prefill time (default 20)'),
  n('--prefill-ms-per-token <ms>', 'prefillMsPerToken', ['prefillMsPerToken'], 'prefill time per uncached prompt token (default 0.05)'),
  n('--decode-step-ms <ms>', 'decodeStepMs', ['decodeStepMs'], 'decode step time with one sequence (default 20)'),
  n('--decode-ms-per-extra-seq <ms>', 'decodeMsPerExtraSeq', ['decodeMsPerExtraSeq'], 'step time added per extra running sequence (default 0.1)'),
  n('--max-batch <n>', 'maxBatch', ['maxBatch'], 'sequences running at once; the rest queue (default 256)'),
  n('--kv-cache-tokens <n>', 'kvCacheTokens', ['kvCacheTokens'], 'KV budget; a request reserves prompt + max output (default 1000000)'),
  n('--tokens-per-chunk <n>', 'tokensPerChunk', ['tokensPerChunk'], 'tokens per decode step and SSE chunk (default 1)'),
  n(
    '--spec-decode-positions <k>',
    'specDecodePositions',
    ['specDecode', 'positions'],
    'draft model: draft tokens verified per decode step (default: no draft model)',
  ),
  n(
    '--spec-accept <p>',
    'specAccept',
    ['specDecode', 'accept'],
    'draft model: chance each draft token is accepted once the one before was (default 0.7; needs --spec-decode-positions)',
  ),
  n(
    '--kv-bytes-per-token <n>',
    'kvBytesPerToken',
    ['disagg', 'kvBytesPerToken'],
    'disaggregated: KV bytes per prompt token a decode pool reads (default 131072; needs --role)',
  ),
  n('--link-gbps <gbps>', 'linkGbps', ['disagg', 'linkGbps'], 'disaggregated: the link a decode pool reads KV over, Gbit/s (default 100; needs --role)'),
  n('--reasoning-tokens <n>', 'reasoningTokens', ['reasoningTokens'], 'reasoning tokens before the answer when thinking is on (default 0)'),
  n('--natural-min <tokens>', 'naturalMin', ['naturalOutputTokens', 'min'], 'shortest natural answer (default 20)'),
  n('--natural-max <tokens>', 'naturalMax', ['naturalOutputTokens', 'max'], 'longest natural answer (default 400)'),
  n('--prefix-block-tokens <n>', 'prefixBlockTokens', ['prefixBlockTokens'], 'prefix-cache block size (default 16)'),
  n('--quantization-noise <sd>', 'quantizationNoise', ['quantizationNoise'], 'SD of seeded Gaussian noise added to every logit, in logits (default 0)'),
  n('--max-logprobs <n>', 'maxTopLogprobs', ['maxTopLogprobs'], 'largest top_logprobs accepted; above it is a 400 (default 20)'),
  n('--fail-500 <share>', 'fail500', ['faults', 'http500'], 'share of requests answered HTTP 500'),
  n('--fail-429 <share>', 'fail429', ['faults', 'http429'], 'share of requests answered HTTP 429'),
  n('--fail-503 <share>', 'fail503', ['faults', 'http503'], 'share of requests answered HTTP 503'),
  n('--fail-529 <share>', 'fail529', ['faults', 'http529'], "share of requests answered HTTP 529 (Anthropic's overloaded) with Retry-After"),
  n('--drop-stream <share>', 'dropStream', ['faults', 'dropStream'], 'share of streams cut mid-way without [DONE]'),
  n('--malformed-sse <share>', 'malformedSse', ['faults', 'malformedSse'], 'share of streams with one unparseable event'),
  n('--mid-stream-error <share>', 'midStreamError', ['faults', 'midStreamError'], 'share of streams ending in an error event'),
  n('--stall <share>', 'stall', ['faults', 'stall'], 'share of streams that pause mid-way'),
  n('--stall-ms <ms>', 'stallMs', ['faults', 'stallMs'], 'length of a stall (default 2000)'),
  n('--die-after <n>', 'dieAfter', ['faults', 'dieAfterRequests'], 'die (like a crash) once this many requests were accepted'),
  n('--tool-call-auto <share>', 'toolCallAuto', ['toolCalls', 'autoShare'], 'tool_choice auto: share of requests that call a tool (default 0.5)'),
  n('--tool-call-invalid <share>', 'toolCallInvalid', ['toolCalls', 'invalid'], 'share of tool calls whose JSON arguments miss the schema'),
  n('--tool-call-malformed <share>', 'toolCallMalformed', ['toolCalls', 'malformed'], 'share of tool calls whose arguments are cut JSON'),
  n('--json-invalid <share>', 'jsonInvalid', ['structuredOutput', 'invalid'], 'share of JSON-schema answers that miss the schema'),
  n('--json-malformed <share>', 'jsonMalformed', ['structuredOutput', 'malformed'], 'share of JSON-schema answers that are cut JSON'),
  n(
    '--image-patch-pixels <n>',
    'imagePatchPixels',
    ['images', 'patchPixels'],
    'chat images: pixels per patch side; an image costs ceil(w/p) × ceil(h/p) prompt tokens (default 32)',
  ),
  n('--image-base-tokens <n>', 'imageBaseTokens', ['images', 'baseTokens'], 'chat images: tokens per image besides its patches (default 0)'),
  n(
    '--encoder-ms-per-image <ms>',
    'encoderMsPerImage',
    ['images', 'encoderMsPerImage'],
    'chat images: vision-encoder time per image, added to prefill (default 30)',
  ),
  n(
    '--image-fetch-timeout-ms <ms>',
    'imageFetchTimeoutMs',
    ['images', 'fetchTimeoutMs'],
    'chat images given by URL: longest wait for one image, fetched from loopback only (default 10000)',
  ),
  n(
    '--audio-tokens-per-second <n>',
    'audioTokensPerSecond',
    ['audio', 'tokensPerSecond'],
    'chat audio: prompt tokens per second of audio, rounded up per clip (default 25)',
  ),
  n(
    '--encoder-ms-per-audio-second <ms>',
    'encoderMsPerAudioSecond',
    ['audio', 'encoderMsPerSecond'],
    'chat audio: encoder time per second of audio, added to prefill (default 10)',
  ),
  n('--embedding-dimension <n>', 'embeddingDimension', ['pooling', 'dimension'], 'numbers in every embedding vector (default 384)'),
  n('--pooling-base-ms <ms>', 'poolingBaseMs', ['pooling', 'baseMs'], 'embeddings and rerank: fixed encoder time per request (default 0)'),
  n(
    '--pooling-ms-per-token <ms>',
    'poolingMsPerToken',
    ['pooling', 'msPerInputToken'],
    'embeddings and rerank: encoder time per input token, one request at a time (default 0.01)',
  ),
  n(
    '--rate-limit-rpm <n>',
    'rateLimitRpm',
    ['rateLimit', 'rpm'],
    'play a rate-limited provider: requests per minute, then 429 with Retry-After (default none)',
  ),
  n('--rate-limit-tpm <n>', 'rateLimitTpm', ['rateLimit', 'tpm'], 'play a rate-limited provider: tokens (prompt + max output) per minute (default none)'),
  n('--overload-limit <n>', 'overloadLimit', ['overloadLimit'], 'TGI: 429 at this many in flight (128); Ollama: 503 at this many waiting (512)'),
];

/** Flag text (e.g. "--decode-step-ms") of a dotted profile path, for error messages. */
export function flagOfPath(path: string): string | undefined {
  return NUMBER_FLAGS.find((f) => f.path.join('.') === path)?.flag.split(' ')[0];
}

/** Declares every `goodput sim` flag on `cmd`. */
export function declareSimFlags(cmd: Command): Command {
  cmd
    .option('--port <n>', 'TCP port (0 picks a free one)', '8000')
    .option('--host <addr>', 'interface to bind', '127.0.0.1')
    .option('--profile <file>', 'profile file (JSON or YAML); flags override it')
    .option('--model <name>', 'served model id (default goodput-sim-1)')
    .addOption(new Option('--stream-shape <kind>', 'field of reasoning text in deltas').choices(['reasoning_content', 'reasoning']))
    .addOption(
      new Option('--dialect <engine>', 'engine to play: identity routes, request keys, stream shapes, errors (default goodput)').choices([
        ...SIM_DIALECT_KINDS,
      ]),
    )
    .addOption(
      new Option(
        '--step-timing <kind>',
        "independent: each stream on its own cadence; batched: every stream's token in one step, as vLLM (default independent)",
      ).choices([...STEP_TIMINGS]),
    )
    .addOption(
      new Option('--role <role>', "a disaggregated server's part: a prefill or decode pool, or a router in front of both (default: none)").choices([
        ...SIM_ROLES,
      ]),
    )
    .option('--prefill-url <url>', "router: the prefill pool's base URL")
    .option('--decode-url <url>', "router: the decode pool's base URL")
    .option(
      '--lora-adapters <name[=ms],…>',
      'serve these LoRA adapters beside the model (listed in /v1/models with it as parent), each optionally adding ms to every decode step',
    )
    .option('--request-log <file>', 'write one JSON line per request: id, arrival, first-token write and last write (epoch ms)')
    .option('--no-prefix-caching', 'turn the prefix cache off');
  for (const f of NUMBER_FLAGS) cmd.option(f.flag, f.help);
  return cmd;
}

const toNumber = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));

/** The profile fields set by flags (only those given), merged over `base`. */
export function applyFlags(base: SimProfileInput, flags: Record<string, unknown>): SimProfileInput {
  const out: Record<string, unknown> = { ...base };
  const nested = (key: string): Record<string, unknown> => {
    const copy = { ...((out[key] as Record<string, unknown> | undefined) ?? {}) };
    out[key] = copy;
    return copy;
  };
  for (const f of NUMBER_FLAGS) {
    const value = flags[f.key];
    if (typeof value !== 'string') continue;
    const [first, second] = f.path;
    if (second === undefined) out[first] = toNumber(value);
    else nested(first)[second] = toNumber(value);
  }
  if (typeof flags['model'] === 'string') out['model'] = flags['model'];
  if (typeof flags['streamShape'] === 'string') out['streamShape'] = flags['streamShape'];
  if (typeof flags['dialect'] === 'string') out['dialect'] = flags['dialect'];
  if (typeof flags['stepTiming'] === 'string') out['stepTiming'] = flags['stepTiming'];
  if (flags['prefixCaching'] === false) out['prefixCaching'] = false;
  const disagg = { role: flags['role'], prefillUrl: flags['prefillUrl'], decodeUrl: flags['decodeUrl'] };
  for (const [key, value] of Object.entries(disagg)) if (typeof value === 'string') nested('disagg')[key] = value;
  if (typeof flags['loraAdapters'] === 'string') out['loraAdapters'] = loraAdaptersFlag(flags['loraAdapters']);
  return out as SimProfileInput;
}

/** `a,b=30` → adapter `a`, and adapter `b` adding 30 ms to each decode step; the profile's schema checks the names and times. */
function loraAdaptersFlag(text: string): Array<{ name: string; decodeExtraMs?: number }> {
  return text.split(',').map((part) => {
    const at = part.indexOf('=');
    return at < 0 ? { name: part.trim() } : { name: part.slice(0, at).trim(), decodeExtraMs: toNumber(part.slice(at + 1)) };
  });
}
