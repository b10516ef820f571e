/**
 * Reads the data events of one streamed completion and keeps exactly what the
 * record needs: token-chunk instants and counts, first token / first answer,
 * finish reason, usage, `[DONE]`, and the first in-stream error. Events are
 * stamped with `nowNs`, which the caller sets once per network read.
 */
import { excerpt, messageOfError, truncate } from './error-text.js';

type Obj = Record<string, unknown>;

function asObj(v: unknown): Obj | null {
  return typeof v === 'object' && v !== null ? (v as Obj) : null;
}

function hasText(v: unknown): boolean {
  return typeof v === 'string' && v.length > 0;
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** Accumulates one stream. Public fields are read by the handler when it settles. */
export class StreamRecorder {
  /** Arrival instant (ns) of the read being parsed; set by the caller before each push. */
  nowNs = 0;
  firstTokenNs: number | null = null;
  firstAnswerNs: number | null = null;
  readonly chunkNs: number[] = [];
  readonly chunkTokens: number[] = [];
  reasoningChunks = 0;
  finishReason: string | null = null;
  /** Last `usage.completion_tokens` seen (cumulative), or null. */
  completionTokens: number | null = null;
  promptTokens: number | null = null;
  cachedPromptTokens: number | null = null;
  reasoningTokens: number | null = null;
  /** Instant of `[DONE]`, or null while it has not arrived. */
  doneNs: number | null = null;
  /** First in-stream error or malformed event, or null. */
  streamError: string | null = null;
  /** Data events seen, `[DONE]` included. */
  events = 0;
  private exact = true;
  private cumulative = 0;

  /** Listener for {@link SseParser}: one event's data. */
  readonly onData = (data: string): void => {
    if (this.doneNs !== null) return;
    this.events++;
    if (data.charCodeAt(0) === 0x5b && data.trim() === '[DONE]') {
      this.doneNs = this.nowNs;
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      parsed = undefined;
    }
    const chunk = asObj(parsed);
    if (chunk === null) {
      this.streamError ??= `malformed SSE event: ${excerpt(data)}`;
      return;
    }
    this.readChunk(chunk);
  };

  /** Output tokens and where the count came from. */
  outputTokens(): { tokens: number; source: 'usage' | 'chunks' } {
    if (this.completionTokens !== null) return { tokens: this.completionTokens, source: 'usage' };
    let sum = 0;
    for (const t of this.chunkTokens) sum += t;
    return { tokens: sum, source: 'chunks' };
  }

  /** True when every token chunk carried a cumulative usage count. */
  chunkTokensExact(): boolean {
    return this.exact && this.chunkNs.length > 0;
  }

  private readChunk(chunk: Obj): void {
    if (chunk.error !== undefined && chunk.error !== null) {
      this.streamError ??= truncate(`server error in stream: ${messageOfError(chunk.error) ?? 'unknown error'}`);
      return;
    }
    let answer = false;
    let reasoning = false;
    const choices = chunk.choices;
    const choice = Array.isArray(choices) ? asObj(choices[0]) : null;
    if (choice !== null) {
      const delta = asObj(choice.delta);
      if (delta !== null) {
        answer = hasText(delta.content);
        reasoning = hasText(delta.reasoning_content) || hasText(delta.reasoning);
      } else {
        answer = hasText(choice.text);
      }
      if (hasText(choice.finish_reason)) this.finishReason = choice.finish_reason as string;
    }
    const usage = asObj(chunk.usage);
    const cumulative = usage === null ? null : this.readUsage(usage);
    if (answer || reasoning) this.tokenChunk(answer, reasoning, cumulative);
  }

  private tokenChunk(answer: boolean, reasoning: boolean, cumulative: number | null): void {
    const ns = this.nowNs;
    if (this.firstTokenNs === null) this.firstTokenNs = ns;
    if (answer && this.firstAnswerNs === null) this.firstAnswerNs = ns;
    if (reasoning) this.reasoningChunks++;
    let tokens = 1;
    if (cumulative !== null) {
      tokens = Math.max(0, cumulative - this.cumulative);
      this.cumulative = cumulative;
    } else {
      this.exact = false;
      this.cumulative += 1;
    }
    this.chunkNs.push(ns);
    this.chunkTokens.push(tokens);
  }

  /** Records usage fields; returns the cumulative completion count when present. */
  private readUsage(usage: Obj): number | null {
    const completion = num(usage.completion_tokens);
    if (completion !== null) this.completionTokens = completion;
    const prompt = num(usage.prompt_tokens);
    if (prompt !== null) this.promptTokens = prompt;
    const cached = num(asObj(usage.prompt_tokens_details)?.cached_tokens);
    if (cached !== null) this.cachedPromptTokens = cached;
    const reasoning = num(asObj(usage.completion_tokens_details)?.reasoning_tokens) ?? num(usage.reasoning_tokens);
    if (reasoning !== null) this.reasoningTokens = reasoning;
    return completion;
  }
}
