// The engine key lists the client's allowlists and the simulator's refusals both read: the client's bodies stay
// inside them, and the simulator playing the engine takes exactly them.
import { describe, expect, it } from 'vitest';
import { type RequestSpec, dialects } from '../client/index.js';
import { OPENAI_CHAT_KEYS, OPENAI_COMPLETION_KEYS, TRTLLM_KEYS } from '../core/index.js';
import { SIM_DIALECTS } from './dialects/registry.js';

const spec: RequestSpec = {
  endpoint: 'chat',
  model: 'm',
  prompt: 'hi',
  maxTokens: 8,
  forceLength: true,
  thinking: false,
  temperature: 0,
  seed: 1,
  cacheSalt: 's',
};
/** Whether the simulator playing `kind` takes a body of `key` alone on `endpoint`. */
const simTakes = (kind: 'trtllm' | 'openai', endpoint: 'chat' | 'completion', key: string) => SIM_DIALECTS[kind].normalize({ [key]: 1 }, endpoint).ok;
const keys = (kind: 'trtllm' | 'openai', endpoint: 'chat' | 'completions') =>
  Object.keys(JSON.parse(dialects[kind].buildBody({ ...spec, endpoint })) as object);

describe('engine request keys', () => {
  it("TensorRT-LLM: the client's bodies use only its keys, and the simulator allows exactly them", () => {
    for (const k of keys('trtllm', 'chat')) expect(TRTLLM_KEYS.chat.has(k)).toBe(true);
    for (const k of keys('trtllm', 'completions')) expect(TRTLLM_KEYS.completions.has(k)).toBe(true);
    expect(TRTLLM_KEYS.chat.has('cache_salt')).toBe(true);
    expect(TRTLLM_KEYS.completions.has('cache_salt')).toBe(false);
    for (const k of TRTLLM_KEYS.chat) expect(simTakes('trtllm', 'chat', k)).toBe(true);
    for (const k of TRTLLM_KEYS.completions) expect(simTakes('trtllm', 'completion', k)).toBe(true);
    expect(simTakes('trtllm', 'completion', 'cache_salt')).toBe(false);
  });

  it("OpenAI: the shared keys open both routes' lists; completions take no chat-only key", () => {
    for (const k of keys('openai', 'completions')) expect(OPENAI_COMPLETION_KEYS.has(k)).toBe(true);
    for (const k of OPENAI_CHAT_KEYS) expect(simTakes('openai', 'chat', k)).toBe(true);
    expect(simTakes('openai', 'chat', 'safety_identifier')).toBe(false);
    for (const k of OPENAI_COMPLETION_KEYS) expect(simTakes('openai', 'completion', k)).toBe(true);
    expect(simTakes('openai', 'completion', 'max_completion_tokens')).toBe(false);
    expect(OPENAI_COMPLETION_KEYS.has('max_completion_tokens')).toBe(false);
  });
});
