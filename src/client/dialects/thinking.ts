/**
 * The thinking switch: how an engine takes it (a kind-tagged style) crossed with
 * how a model family switches (see model-family.ts). Yields the body keys to
 * send, a prompt suffix (TGI's only switch is Qwen3's `/no_think`), and, when the
 * requested state cannot be reached, the reason, which becomes a run warning.
 */
import { modelFamily, type ModelFamily } from './model-family.js';

/** How an engine accepts a thinking switch. */
export type ThinkingStyle =
  /** `chat_template_kwargs` (vLLM, SGLang, llama.cpp with --jinja, TRT-LLM, LMDeploy); gpt-oss via `reasoning_effort`. */
  | { kind: 'template-kwargs' }
  /** OpenAI: `reasoning_effort` for reasoning models, nothing else (unknown keys are rejected). */
  | { kind: 'reasoning-effort' }
  /** Ollama: `/v1` takes `reasoning_effort` ("none" = off), native takes `think` (false or a level). */
  | { kind: 'ollama'; key: 'reasoning_effort' | 'think' }
  /** TGI: no switch at all; only a prompt soft switch where the family has one. */
  | { kind: 'prompt-only' };

/** What to send for one (engine, model, on/off) choice. */
export interface ThinkingChoice {
  /** Top-level keys to merge; `chat_template_kwargs` merges one level deep. */
  body: Record<string, unknown>;
  /** Appended to the user message (TGI + Qwen3: " /no_think"). */
  promptSuffix: string;
  /** Why the requested state cannot be reached, or null. */
  cannot: string | null;
}

const none = (cannot: string | null = null): ThinkingChoice => ({ body: {}, promptSuffix: '', cannot });
const send = (body: Record<string, unknown>, cannot: string | null = null): ThinkingChoice => ({ body, promptSuffix: '', cannot });

function alwaysThinks(f: ModelFamily, on: boolean): string | null {
  return on || f.kind !== 'always-thinks' ? null : `${f.name} always reasons; its reasoning tokens are counted as output`;
}

function effortFloor(f: Extract<ModelFamily, { kind: 'effort-levels' }>, on: boolean, key: string): ThinkingChoice {
  return on ? none() : send({ [key]: f.lowest }, `${f.name} cannot turn reasoning off; the lowest effort ("${f.lowest}") is sent`);
}

function templateKwargs(f: ModelFamily, on: boolean): ThinkingChoice {
  switch (f.kind) {
    case 'switchable':
      return send({ chat_template_kwargs: { [f.kwarg]: on } });
    case 'effort-levels':
      return effortFloor(f, on, 'reasoning_effort');
    case 'always-thinks':
      return none(alwaysThinks(f, on));
    default:
      return send({ chat_template_kwargs: { enable_thinking: on } });
  }
}

function reasoningEffort(f: ModelFamily, on: boolean): ThinkingChoice {
  if (f.kind === 'openai-reasoning') {
    if (on) return none();
    return send({ reasoning_effort: f.off }, f.off === 'none' ? null : `${f.name} cannot turn reasoning off; the lowest effort ("${f.off}") is sent`);
  }
  if (f.kind === 'effort-levels') return effortFloor(f, on, 'reasoning_effort');
  return none();
}

function ollama(f: ModelFamily, on: boolean, key: 'reasoning_effort' | 'think'): ThinkingChoice {
  const off = key === 'think' ? false : 'none';
  switch (f.kind) {
    case 'switchable':
    case 'always-thinks':
      return on ? (key === 'think' ? send({ think: true }) : none()) : send({ [key]: off });
    case 'effort-levels':
      return effortFloor(f, on, key);
    // Ollama answers 400 when `think` goes to a model without the capability: send nothing.
    default:
      return none();
  }
}

function promptOnly(f: ModelFamily, on: boolean): ThinkingChoice {
  if (f.kind === 'switchable') {
    if (!on && f.softSwitch) return { body: {}, promptSuffix: ' /no_think', cannot: null };
    if (on === f.defaultOn) return none();
    return none(`TGI has no thinking switch and ${f.name} reasons ${f.defaultOn ? 'by default' : 'only when asked through its template'}`);
  }
  if (f.kind === 'effort-levels') return none(on ? null : `TGI cannot set the reasoning effort of ${f.name}; it reasons at its default`);
  return none(alwaysThinks(f, on));
}

/** Model families by name: the same few models are asked about once per request (a burst: a thousand times). */
const families = new Map<string, ModelFamily>();
const MAX_FAMILIES = 256;

function familyOf(model: string): ModelFamily {
  let f = families.get(model);
  if (f === undefined) {
    f = modelFamily(model);
    if (families.size < MAX_FAMILIES) families.set(model, f);
  }
  return f;
}

/** The thinking choice of an engine style for `model`, on or off. */
export function thinkingChoice(style: ThinkingStyle, model: string, on: boolean): ThinkingChoice {
  const f = familyOf(model);
  switch (style.kind) {
    case 'template-kwargs':
      return templateKwargs(f, on);
    case 'reasoning-effort':
      return reasoningEffort(f, on);
    case 'ollama':
      return ollama(f, on, style.key);
    case 'prompt-only':
      return promptOnly(f, on);
  }
}
