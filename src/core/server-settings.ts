/**
 * The server settings goodput reads from each engine's own report of its
 * configuration, with the engine's documented default where one number is
 * documented and where that default comes from. One table serves three
 * readers: the client reads exactly these names from the answer (nothing else
 * is kept), a receipt lays the two sides side by side under these labels, and
 * a baseline configured below a default that holds an engine back (batch,
 * slots, parallel sequences, context, KV budget) is flagged as handicapped.
 */
import type { ServerConfiguration, ServerSetting } from './server-account-schema.js';

/** One setting an engine reports: its engine, its own (dotted) name, how a receipt labels it, and its documented default. */
export interface SettingDoc {
  /** Whose names: a dialect's engine, or `goodput-sim` for the simulator's own account. */
  readonly engine: string;
  readonly name: string;
  readonly label: string;
  /** The documented default, when one number is documented; null when it follows the model or the GPU. */
  readonly default: number | null;
  /** A value below the default holds the engine back: a baseline set so is a handicapped baseline. */
  readonly handicapBelow: boolean;
  /** Where the default (or its absence) is documented. */
  readonly source: string;
}

const SIM = 'goodput sim --help (src/sim/profile-schema.ts)';
const SGLANG = 'sgl-project/sglang python/sglang/srt/server_args.py';
const TGI = 'huggingface/text-generation-inference launcher/src/main.rs';
const doc = (engine: string, name: string, label: string, dflt: number | null, handicapBelow: boolean, source: string): SettingDoc => ({
  engine,
  name,
  label,
  default: dflt,
  handicapBelow,
  source,
});

/** Every setting read, by engine, in the order a receipt lists them. */
export const SERVER_SETTINGS: readonly SettingDoc[] = [
  doc('goodput-sim', 'profile.maxBatch', 'max batch', 256, true, `${SIM}: --max-batch`),
  doc('goodput-sim', 'profile.maxModelLen', 'context tokens', 32_768, true, `${SIM}: --max-model-len`),
  doc('goodput-sim', 'profile.kvCacheTokens', 'KV cache tokens', 1_000_000, true, `${SIM}: --kv-cache-tokens`),
  doc('goodput-sim', 'profile.tokensPerChunk', 'tokens per decode step', 1, false, `${SIM}: --tokens-per-chunk`),
  doc('goodput-sim', 'profile.decodeStepMs', 'decode step ms', 20, false, `${SIM}: --decode-step-ms`),
  doc('goodput-sim', 'profile.decodeMsPerExtraSeq', 'decode ms per extra sequence', 0.1, false, `${SIM}: --decode-ms-per-extra-seq`),
  doc('goodput-sim', 'profile.prefillBaseMs', 'prefill base ms', 20, false, `${SIM}: --prefill-base-ms`),
  doc('goodput-sim', 'profile.prefillMsPerToken', 'prefill ms per token', 0.05, false, `${SIM}: --prefill-ms-per-token`),
  doc('goodput-sim', 'profile.quantizationNoise', 'quantization noise', 0, false, `${SIM}: --quantization-noise`),
  doc('goodput-sim', 'profile.prefixCaching', 'prefix caching', null, false, `${SIM}: on unless --no-prefix-caching`),
  doc('goodput-sim', 'profile.stepTiming', 'step timing', null, false, `${SIM}: --step-timing (independent)`),
  // tools/server/server.cpp: --parallel defaults to -1 (auto), which the server turns into 4 slots with a unified KV cache.
  doc('llamacpp', 'total_slots', 'parallel slots', 4, true, 'ggml-org/llama.cpp tools/server/server.cpp: --parallel -1 (auto) = 4 slots'),
  doc(
    'llamacpp',
    'default_generation_settings.n_ctx',
    'context tokens per slot',
    null,
    false,
    "ggml-org/llama.cpp tools/server README: --ctx-size 0 = the model's",
  ),
  doc('sglang', 'max_running_requests', 'max running requests', null, false, `${SGLANG}: None, sized from GPU memory`),
  doc('sglang', 'max_prefill_tokens', 'max prefill tokens', 16_384, true, `${SGLANG}: max_prefill_tokens = 16384`),
  doc('sglang', 'chunked_prefill_size', 'chunked prefill tokens', null, false, `${SGLANG}: None, set by GPU memory`),
  doc('sglang', 'context_length', 'context tokens', null, false, `${SGLANG}: None, the model config's`),
  doc('sglang', 'max_total_num_tokens', 'KV cache tokens', null, false, `${SGLANG}: sized from GPU memory`),
  doc('sglang', 'mem_fraction_static', 'static memory fraction', null, false, `${SGLANG}: None, set by GPU memory`),
  doc('sglang', 'tp_size', 'tensor parallel', 1, false, `${SGLANG}: tp_size = 1`),
  doc('sglang', 'dp_size', 'data parallel', 1, false, `${SGLANG}: dp_size = 1`),
  doc('sglang', 'schedule_policy', 'schedule policy', null, false, `${SGLANG}: schedule_policy = "fcfs"`),
  doc('sglang', 'disable_radix_cache', 'radix cache disabled', null, false, `${SGLANG}: disable_radix_cache = False`),
  doc('sglang', 'stream_interval', 'stream interval', 1, false, `${SGLANG}: stream_interval = 1`),
  doc('sglang', 'kv_cache_dtype', 'KV cache dtype', null, false, `${SGLANG}: kv_cache_dtype = "auto"`),
  doc('sglang', 'quantization', 'quantization', null, false, `${SGLANG}: quantization = None`),
  doc('sglang', 'cuda_graph_max_bs', 'CUDA graph max batch', null, false, `${SGLANG}: None, set by GPU memory`),
  doc('sglang', 'speculative_algorithm', 'speculative decoding', null, false, `${SGLANG}: speculative_algorithm = None`),
  doc('tgi', 'max_concurrent_requests', 'max concurrent requests', 128, true, `${TGI}: --max-concurrent-requests 128`),
  doc('tgi', 'max_batch_size', 'max batch', null, false, `${TGI}: --max-batch-size, unset`),
  doc('tgi', 'max_batch_total_tokens', 'max batch tokens', null, false, `${TGI}: --max-batch-total-tokens, inferred from GPU memory`),
  doc('tgi', 'max_batch_prefill_tokens', 'max prefill tokens', null, false, `${TGI}: --max-batch-prefill-tokens, from max_input_tokens`),
  doc('tgi', 'max_input_tokens', 'max input tokens', null, false, `${TGI}: --max-input-tokens, from the model`),
  doc('tgi', 'max_total_tokens', 'context tokens', null, false, `${TGI}: --max-total-tokens, from the model`),
  doc('tgi', 'max_waiting_tokens', 'max waiting tokens', 20, false, `${TGI}: --max-waiting-tokens 20`),
  doc('tgi', 'max_best_of', 'max best_of', 2, false, `${TGI}: --max-best-of 2`),
  doc('tgi', 'max_client_batch_size', 'max client batch', 4, false, `${TGI}: --max-client-batch-size 4`),
  doc('vllm', 'max_model_len', 'context tokens', null, false, "vllm-project/vllm: --max-model-len, the model config's"),
];

/** The settings of `engine`, in the table's order. */
export const settingsOf = (engine: string): SettingDoc[] => SERVER_SETTINGS.filter((s) => s.engine === engine);

const docOf = (engine: string | null, name: string): SettingDoc | undefined => SERVER_SETTINGS.find((s) => s.engine === engine && s.name === name);

/** A setting's value as a receipt prints it. */
export const settingValueText = (v: ServerSetting['value']): string => (typeof v === 'boolean' ? (v ? 'true' : 'false') : String(v));

/** One row of the side-by-side table: the setting, each side's value (null: not reported), whether they differ. */
export interface SettingRow {
  setting: string;
  baseline: string | null;
  optimized: string | null;
  differs: boolean;
}

/** Each labelled setting either side reported, baseline's first, with both values. */
export function settingRows(b: ServerConfiguration, o: ServerConfiguration): SettingRow[] {
  const side = (c: ServerConfiguration) => new Map(c.settings.map((s) => [docOf(c.engine, s.name)?.label ?? s.name, settingValueText(s.value)]));
  const [bs, os] = [side(b), side(o)];
  const labels = [...new Set([...bs.keys(), ...os.keys()])];
  return labels.map((setting) => {
    const [baseline, optimized] = [bs.get(setting) ?? null, os.get(setting) ?? null];
    return { setting, baseline, optimized, differs: baseline !== optimized };
  });
}

/** A setting set below the engine's documented default where that holds the engine back, with the default and its source. */
export interface Handicap {
  text: string;
  doc: SettingDoc;
  value: number;
}

/** Every setting of `c` below a default that holds its engine back: "handicapped baseline: max batch 1 (engine default 256)". */
export function handicapsOf(c: ServerConfiguration, side = 'baseline'): Handicap[] {
  return c.settings.flatMap((s) => {
    const d = docOf(c.engine, s.name);
    if (d === undefined || !d.handicapBelow || d.default === null || typeof s.value !== 'number' || s.value >= d.default) return [];
    return [{ text: `handicapped ${side}: ${d.label} ${s.value} (engine default ${d.default})`, doc: d, value: s.value }];
  });
}
