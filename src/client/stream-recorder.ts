/**
 * Reads the events of one streamed completion and keeps exactly what the
 * record needs: token-chunk instants and counts, first token / first answer,
 * finish reason, usage, the end (`[DONE]` or a final NDJSON line), and the first
 * in-stream error. What an event means is the dialect's {@link ChunkReader};
 * events are stamped with `nowNs`, which the caller sets once per network read.
 * A stream that sends more events or tokens than its output cap allows is cut
 * off (`overrun`), so what it keeps stays bounded by the cap.
 */
import { LIMITS, RECORD_BOUNDS, maxEventsPerRequest, maxTokensPerRequest } from '../core/index.js';
import { asObj, chunkReader, num, numberAt, type ChunkReader, type ChunkSink, type Obj } from './chunk-reader.js';
import type { StreamReading } from './dialects/types.js';
import { excerpt } from './error-text.js';
import { InlineThink } from './inline-think.js';
import { ToolCallAccumulator } from './tool-calls.js';

/** Accumulates one stream. Public fields are read by the handler when it settles. */
export class StreamRecorder implements ChunkSink {
  /** Arrival instant (ns) of the read being parsed; set by the caller before each push. */
  nowNs = 0;
  firstTokenNs: number | null = null;
  firstAnswerNs: number | null = null;
  readonly chunkNs: number[] = [];
  readonly chunkTokens: number[] = [];
  reasoningChunks = 0;
  finishReason: string | null = null;
  /** Last reported completion-token count (cumulative), or null. */
  completionTokens: number | null = null;
  promptTokens: number | null = null;
  cachedPromptTokens: number | null = null;
  reasoningTokens: number | null = null;
  /** Instant of the end event (`[DONE]`, Ollama's `done: true`), or null while it has not arrived. */
  doneNs: number | null = null;
  /** First in-stream error or malformed event, or null. */
  streamError: string | null = null;
  /** Data events seen, the end event included. */
  events = 0;
  /** Comments, blank NDJSON lines and events without data seen: not data, but read all the same. */
  emptyEvents = 0;
  /** Set when the stream went past the events or tokens its output cap allows; nothing more is read. */
  overrun: string | null = null;
  /** The answer text, kept only when asked (a session's next turn carries it), bounded by the request body limit. */
  answerParts: string[] | null = null;
  /** Tool calls streamed in this response (only judged when the request was sent with tools). */
  readonly tools = new ToolCallAccumulator();
  private answerChars = 0;
  private exact = true;
  private cumulative = 0;
  private chunkTokenSum = 0;
  private reader: ChunkReader;
  private readonly think: InlineThink | null;

  private readonly maxEvents: number;
  private readonly maxTokens: number;

  /** `outputCap` is the request's max_tokens: the events and tokens a stream may send follow from it. */
  constructor(
    private readonly reading: StreamReading,
    private readonly outputCap: number,
  ) {
    this.reader = chunkReader(reading);
    this.think = reading.inlineThink ? new InlineThink() : null;
    this.maxEvents = maxEventsPerRequest(outputCap);
    this.maxTokens = maxTokensPerRequest(outputCap);
  }

  /** True (and the stream overrun) when the events read, data or not, pass the allowance. */
  private overAllowance(): boolean {
    if (this.events + this.emptyEvents <= this.maxEvents) return false;
    this.overrun = `the stream sent more than ${this.maxEvents} events (comments and empty events included), the limit for an output cap of ${this.outputCap} tokens`;
    return true;
  }

  /** Listener for the parser's comments and events without data: they count against the allowance like any event. */
  readonly onEmpty = (): void => {
    if (this.doneNs !== null || this.overrun !== null) return;
    this.emptyEvents += 1;
    this.overAllowance();
  };

  /** Listener for the SSE or NDJSON parser: one event's data. */
  readonly onData = (data: string): void => {
    if (this.doneNs !== null || this.overrun !== null) return;
    this.events += 1;
    if (this.overAllowance()) return;
    if (data.charCodeAt(0) === 0x5b && data.trim() === '[DONE]') return this.done();
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      parsed = undefined;
    }
    const chunk = asObj(parsed);
    if (chunk === null) return this.fail(`malformed ${this.reading.chunk === 'openai' ? 'SSE event' : 'NDJSON line'}: ${excerpt(data)}`);
    this.reader.read(chunk, this);
    const tokens = Math.max(this.completionTokens ?? 0, this.cumulative);
    if (tokens > this.maxTokens) {
      this.overrun = `the stream carried ${tokens} tokens, past the limit of ${this.maxTokens} for an output cap of ${this.outputCap} tokens`;
    }
  };

  /** The stream ended normally at this instant. */
  done(): void {
    this.doneNs = this.nowNs;
  }

  /** Keeps the first in-stream failure. */
  fail(message: string): void {
    this.streamError ??= message;
  }

  /** Reads events with `reader` instead of the dialect's (a Responses API stream). */
  useReader(reader: ChunkReader): void {
    this.reader = reader;
  }

  /** One tool-call delta of this event (see ToolCallAccumulator.delta); true when it carried data. */
  toolDelta(index: number | null, name: string | null, args: string): boolean {
    return this.tools.delta(index, name, args, this.nowNs);
  }

  /**
   * One event's generated text: `content` is answer text unless inline think tags
   * say otherwise; `reasoning` is true when a reasoning field carried text;
   * `cumulative` is the server's cumulative completion-token count on this event;
   * `tool` is true when the event carried tool-call data (an answer of its own).
   */
  text(content: string, reasoning: boolean, cumulative: number | null, tool = false): void {
    let answer = content.length > 0;
    if (answer && this.think !== null) {
      const v = this.think.classify(content);
      if (v.reclassified > 0) {
        this.reasoningChunks += v.reclassified;
        this.firstAnswerNs = null;
      }
      answer = v.answer;
      reasoning ||= v.reasoning;
    }
    if (answer && this.answerParts !== null && this.answerChars + content.length <= LIMITS.requestBodyBytes.max) {
      this.answerParts.push(content);
      this.answerChars += content.length;
    }
    if (answer || reasoning || tool) this.tokenChunk(answer || tool, reasoning, cumulative, tool);
  }

  /** Records reported counts; `usage` (an OpenAI usage object) adds cached and reasoning tokens. */
  usage(completion: number | null, prompt: number | null, usage: Obj | null): void {
    // Reported counts are kept within what a record may hold: one past the stream's token limit marks an overrun.
    const outputCount = (v: number) => Math.min(Math.max(0, v), this.maxTokens + 1);
    const promptCount = (v: number) => Math.min(Math.max(0, v), RECORD_BOUNDS.promptTokens);
    if (completion !== null) this.completionTokens = outputCount(completion);
    if (prompt !== null) this.promptTokens = promptCount(prompt);
    if (usage === null) return;
    const cached = num(asObj(usage.prompt_tokens_details)?.cached_tokens);
    if (cached !== null) this.cachedPromptTokens = promptCount(cached);
    const reasoning = numberAt(usage, this.reading.reasoningTokenPaths);
    if (reasoning !== null) this.reasoningTokens = outputCount(reasoning);
  }

  /** Tokens the token-carrying chunks read so far carried (as the record counts them): what `--cancel-after-tokens` waits for. */
  get tokensRead(): number {
    return this.chunkTokenSum;
  }

  /** Output tokens and where the count came from. */
  outputTokens(): { tokens: number; source: 'usage' | 'chunks' } {
    if (this.completionTokens !== null) return { tokens: this.completionTokens, source: 'usage' };
    let sum = 0;
    for (const t of this.chunkTokens) sum += t;
    return { tokens: sum, source: 'chunks' };
  }

  /** True when every token chunk carried a cumulative count. */
  chunkTokensExact(): boolean {
    return this.exact && this.chunkNs.length > 0;
  }

  private tokenChunk(answer: boolean, reasoning: boolean, cumulative: number | null, tool: boolean): void {
    const ns = this.nowNs;
    if (this.firstTokenNs === null) this.firstTokenNs = ns;
    if (answer && this.firstAnswerNs === null) this.firstAnswerNs = ns;
    if (reasoning) this.reasoningChunks++;
    let tokens = 1;
    if (cumulative !== null) {
      // A chunk claiming more than the stream may carry in all is recorded as one token past it (an overrun).
      tokens = Math.min(Math.max(0, cumulative - this.cumulative), Math.max(0, this.maxTokens + 1 - this.chunkTokenSum));
      this.cumulative = cumulative;
    } else {
      this.exact = false;
      this.cumulative += 1;
    }
    this.chunkNs.push(ns);
    this.chunkTokens.push(tokens);
    this.chunkTokenSum += tokens;
    if (tool) this.tools.argumentTokens += tokens;
  }
}
