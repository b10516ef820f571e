/**
 * The byte-level event parser of a framing: SSE `data` events or NDJSON lines
 * (Ollama's native API), each handed to the listener as text.
 */
import type { Dialect } from './dialects/types.js';
import { NdjsonParser } from './ndjson-parser.js';
import type { Overflow } from './response-limits.js';
import { SseParser } from './sse-parser.js';

/** Push bytes as they arrive; `end()` at the close flushes a last unterminated event. */
export interface EventParser {
  push(chunk: Buffer): void;
  end(): void;
  /** Set once a line or an event went past its limit: the parser has stopped. */
  readonly overflow: Overflow | null;
}

const PARSERS: Readonly<Record<Dialect['api']['framing'], (onData: (data: string) => void) => EventParser>> = {
  sse: (onData) => new SseParser(onData),
  ndjson: (onData) => new NdjsonParser(onData),
};

/** The parser of `framing`, calling `onData` with each complete event's text. */
export function eventParser(framing: Dialect['api']['framing'], onData: (data: string) => void): EventParser {
  return PARSERS[framing](onData);
}
