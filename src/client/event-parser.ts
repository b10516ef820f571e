/**
 * The byte-level event parser of a framing: SSE `data` events or NDJSON lines
 * (Ollama's native API), each handed to the listener as text.
 */
import type { Dialect } from './dialects/types.js';
import { NdjsonParser } from './ndjson-parser.js';
import { NDJSON_LIMITS, type Overflow, SSE_LIMITS } from './response-limits.js';
import { SseParser } from './sse-parser.js';

/** Push bytes as they arrive; `end()` at the close flushes a last unterminated event. */
export interface EventParser {
  push(chunk: Buffer): void;
  end(): void;
  /** Set once a line or an event went past its limit: the parser has stopped. */
  readonly overflow: Overflow | null;
}

type MakeParser = (onData: (data: string) => void, onEmpty: () => void) => EventParser;

const PARSERS: Readonly<Record<Dialect['api']['framing'], MakeParser>> = {
  sse: (onData, onEmpty) => new SseParser(onData, SSE_LIMITS, onEmpty),
  ndjson: (onData, onEmpty) => new NdjsonParser(onData, NDJSON_LIMITS, onEmpty),
};

/**
 * The parser of `framing`, calling `onData` with each complete event's text and `onEmpty`
 * for each comment, blank NDJSON line or event without data: a stream of nothing but
 * those is read as surely as one of tokens, so the caller counts both against its allowance.
 */
export function eventParser(framing: Dialect['api']['framing'], onData: (data: string) => void, onEmpty: () => void = () => {}): EventParser {
  return PARSERS[framing](onData, onEmpty);
}
