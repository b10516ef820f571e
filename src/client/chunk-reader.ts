/**
 * Chunk readers: what one parsed event means, per wire format, driven by a
 * dialect's precomputed field lists (no engine names here). `openai` reads
 * `choices[0]` (never assumed to exist), the dialect's reasoning fields, usage
 * anywhere and a cumulative token count; `ollama-native` reads NDJSON lines
 * (`message.content`/`message.thinking`, or `response`/`thinking`) and the final
 * `done: true` line with `eval_count` and `prompt_eval_count`.
 */
import { RECORD_BOUNDS } from '../core/index.js';
import { messageOfError, truncate } from './error-text.js';
import type { StreamReading } from './dialects/types.js';

export type Obj = Record<string, unknown>;

export function asObj(v: unknown): Obj | null {
  return typeof v === 'object' && v !== null ? (v as Obj) : null;
}

export function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

const hasText = (v: unknown): boolean => typeof v === 'string' && v.length > 0;

/** The first finite number found at one of `paths` inside `root`. */
export function numberAt(root: Obj, paths: ReadonlyArray<readonly string[]>): number | null {
  for (const path of paths) {
    let v: unknown = root;
    for (const key of path) v = asObj(v)?.[key];
    const n = num(v);
    if (n !== null) return n;
  }
  return null;
}

/**
 * What a reader tells about one event, and all it may touch: the stream
 * recorder implements it. Declared here, beside the readers, so that readers
 * do not depend on the recorder that drives them.
 */
export interface ChunkSink {
  /** Why generation stopped, as the server put it. */
  finishReason: string | null;
  /** The stream ended normally. */
  done(): void;
  /** An in-stream failure (the first is kept). */
  fail(message: string): void;
  /** One tool-call delta; true when it carried data. */
  toolDelta(index: number | null, name: string | null, args: string): boolean;
  /** One event's generated text, reasoning or tool call, with the server's cumulative token count when it sends one. */
  text(content: string, reasoning: boolean, cumulative: number | null, tool?: boolean): void;
  /** Reported token counts, with the usage object when there is one. */
  usage(completion: number | null, prompt: number | null, usage: Obj | null): void;
}

/** Reads one parsed event into the recorder. */
export interface ChunkReader {
  read(chunk: Obj, rec: ChunkSink): void;
}

/** An error event: `{"error":…}` (nested, TGI, Ollama) or a flat `{"object":"error",…}` (SGLang, TRT-LLM, LMDeploy). */
function inStreamError(chunk: Obj, rec: ChunkSink): boolean {
  const error = chunk.error ?? (chunk.object === 'error' ? chunk : null);
  if (error === undefined || error === null) return false;
  rec.fail(truncate(`server error in stream: ${messageOfError(error) ?? 'unknown error'}`));
  return true;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
/** Arguments as text: a JSON string as sent, or an object (Ollama's native API, some gateways) serialised. */
const argsText = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'object' && v !== null ? JSON.stringify(v) : '');

/**
 * The tool-call deltas of a delta or message: an OpenAI-style list of `{index, id, function: {name, arguments}}`
 * (streamed pieces, or whole calls as Ollama's `/v1` sends them) or a lone object (TGI before 3.x). True when
 * any carried a name or argument text.
 */
function readToolCalls(v: unknown, rec: ChunkSink): boolean {
  if (v === undefined || v === null) return false;
  const list = Array.isArray(v) ? v : [v];
  let any = false;
  for (let i = 0; i < list.length && i < 64; i++) {
    const call = asObj(list[i]);
    const fn = asObj(call?.function);
    if (call === null || fn === null) continue;
    const index = num(call.index);
    // A list entry without an index is a whole call of its own (Ollama's native API); a lone object is call 0.
    any = rec.toolDelta(index ?? (Array.isArray(v) ? null : 0), str(fn.name) || null, argsText(fn.arguments)) || any;
  }
  return any;
}

function openAiReader(r: StreamReading): ChunkReader {
  const fields = r.reasoningFields;
  return {
    read(chunk, rec) {
      if (inStreamError(chunk, rec)) return;
      let content: unknown;
      let reasoning = false;
      let tool = false;
      const choices = chunk.choices;
      const choice = Array.isArray(choices) ? asObj(choices[0]) : null;
      if (choice !== null) {
        const delta = asObj(choice.delta);
        if (delta !== null) {
          content = delta.content;
          for (const f of fields) if (hasText(delta[f])) reasoning = true;
          tool = readToolCalls(delta.tool_calls, rec);
        } else {
          content = choice.text;
        }
        if (hasText(choice.finish_reason)) rec.finishReason = (choice.finish_reason as string).slice(0, RECORD_BOUNDS.finishReasonChars);
      }
      const usage = asObj(chunk.usage);
      if (usage !== null) rec.usage(num(usage.completion_tokens), num(usage.prompt_tokens), usage);
      rec.text(typeof content === 'string' ? content : '', reasoning, numberAt(chunk, r.cumulativeTokenPaths), tool);
    },
  };
}

function ollamaNativeReader(r: StreamReading): ChunkReader {
  const fields = r.reasoningFields;
  return {
    read(chunk, rec) {
      if (inStreamError(chunk, rec)) return;
      const message = asObj(chunk.message) ?? chunk;
      const content = message.content ?? chunk.response;
      let reasoning = false;
      for (const f of fields) if (hasText(message[f])) reasoning = true;
      const tool = readToolCalls(message.tool_calls, rec);
      rec.text(typeof content === 'string' ? content : '', reasoning, null, tool);
      if (chunk.done === true) {
        rec.finishReason = hasText(chunk.done_reason) ? (chunk.done_reason as string).slice(0, RECORD_BOUNDS.finishReasonChars) : 'stop';
        rec.usage(num(chunk.eval_count), num(chunk.prompt_eval_count), null);
        rec.done();
      }
    },
  };
}

/** The reader of a dialect's wire format. */
export function chunkReader(reading: StreamReading): ChunkReader {
  return reading.chunk === 'openai' ? openAiReader(reading) : ollamaNativeReader(reading);
}
