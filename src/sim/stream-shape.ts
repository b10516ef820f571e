/**
 * Stream shapes: where an engine puts reasoning text in a chat delta or message.
 * A shape is a small `kind`-tagged object that owns its field name, so adding an
 * engine's shape is adding a member here, never an engine branch elsewhere.
 */

/** The reasoning field of a chat delta/message, per engine generation. */
export type StreamShape =
  /** vLLM before PR #27752, SGLang, llama.cpp, TRT-LLM, LMDeploy. */
  | { kind: 'reasoning_content'; reasoningField: 'reasoning_content' }
  /** vLLM after the rename (PR #27752), Ollama `/v1`. */
  | { kind: 'reasoning'; reasoningField: 'reasoning' };

/** Every known shape, by kind. */
export const STREAM_SHAPES: { readonly [K in StreamShape['kind']]: Extract<StreamShape, { kind: K }> } = {
  reasoning_content: { kind: 'reasoning_content', reasoningField: 'reasoning_content' },
  reasoning: { kind: 'reasoning', reasoningField: 'reasoning' },
};

/**
 * The JSON text of a streamed chat delta carrying reasoning and/or answer text
 * (an empty string leaves its field out; both empty gives `{"content":""}`).
 */
export function deltaJson(shape: StreamShape, reasoning: string, answer: string): string {
  if (reasoning === '') return `{"content":${JSON.stringify(answer)}}`;
  const r = `"${shape.reasoningField}":${JSON.stringify(reasoning)}`;
  return answer === '' ? `{${r}}` : `{${r},"content":${JSON.stringify(answer)}}`;
}

/** The JSON text of a non-streamed chat message; reasoning is null when there was none. */
export function messageJson(shape: StreamShape, reasoning: string, answer: string): string {
  const r = reasoning === '' ? 'null' : JSON.stringify(reasoning);
  return `{"role":"assistant","content":${JSON.stringify(answer)},"${shape.reasoningField}":${r},"tool_calls":[]}`;
}
