/**
 * Model families and how each one switches reasoning: a chat-template kwarg
 * (Qwen3, GLM: `enable_thinking`; DeepSeek-V3.1, Granite: `thinking`), effort
 * levels only (gpt-oss), always on (DeepSeek-R1, QwQ), OpenAI reasoning models,
 * or unknown. Recognised from the model id, case-insensitively.
 */

/** How a model family turns reasoning on and off. */
export type ModelFamily =
  /** A template kwarg switches it; `softSwitch`: `/no_think` in the prompt works too (Qwen3). */
  | { kind: 'switchable'; name: string; kwarg: 'enable_thinking' | 'thinking'; defaultOn: boolean; softSwitch: boolean }
  /** Reasoning effort levels only; it cannot be turned off (gpt-oss: low, medium, high). */
  | { kind: 'effort-levels'; name: string; lowest: string }
  /** Always reasons (DeepSeek-R1 and its distills, QwQ, Qwen3 *-Thinking-2507). */
  | { kind: 'always-thinks'; name: string }
  /** OpenAI o-series and GPT-5: `reasoning_effort`; `off` is the lowest value the model takes. */
  | { kind: 'openai-reasoning'; name: string; off: 'none' | 'minimal' | 'low' }
  /** Does not reason (Qwen3 *-Instruct-2507). */
  | { kind: 'non-reasoning'; name: string }
  /** Not recognised: the common template switch is sent where the engine accepts it. */
  | { kind: 'unknown' };

type Rule = [RegExp, ModelFamily];

/** First match wins: specific variants before their family. */
const RULES: readonly Rule[] = [
  [/gpt-oss/, { kind: 'effort-levels', name: 'gpt-oss', lowest: 'low' }],
  [/qwen3[^/]*thinking/, { kind: 'always-thinks', name: 'Qwen3 Thinking' }],
  [/qwen3[^/]*instruct-2507/, { kind: 'non-reasoning', name: 'Qwen3 Instruct-2507' }],
  [/qwq|deepseek-r1|r1-distill/, { kind: 'always-thinks', name: 'DeepSeek-R1 / QwQ' }],
  [/qwen3/, { kind: 'switchable', name: 'Qwen3', kwarg: 'enable_thinking', defaultOn: true, softSwitch: true }],
  [/glm-4\.[5-9]|glm-[5-9]/, { kind: 'switchable', name: 'GLM', kwarg: 'enable_thinking', defaultOn: true, softSwitch: false }],
  [/deepseek-v3\.[1-9]/, { kind: 'switchable', name: 'DeepSeek-V3.1+', kwarg: 'thinking', defaultOn: false, softSwitch: false }],
  [/granite-3\.[2-9]|granite-[4-9]/, { kind: 'switchable', name: 'Granite', kwarg: 'thinking', defaultOn: false, softSwitch: false }],
  [/(^|\/)gpt-5\.[1-9]/, { kind: 'openai-reasoning', name: 'GPT-5.1+', off: 'none' }],
  [/(^|\/)gpt-5/, { kind: 'openai-reasoning', name: 'GPT-5', off: 'minimal' }],
  [/(^|\/)o[1-9](-|$)/, { kind: 'openai-reasoning', name: 'OpenAI o-series', off: 'low' }],
];

const UNKNOWN: ModelFamily = { kind: 'unknown' };
const cache = new Map<string, ModelFamily>();

/** The family of a model id (memoised: the same id is asked once per request). */
export function modelFamily(model: string): ModelFamily {
  let family = cache.get(model);
  if (family === undefined) {
    const id = model.toLowerCase();
    family = RULES.find(([re]) => re.test(id))?.[1] ?? UNKNOWN;
    if (cache.size < 1024) cache.set(model, family);
  }
  return family;
}
