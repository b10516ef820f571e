/**
 * The instant a request's last byte went to the socket. undici's handler API
 * does not say when the request was written; its diagnostics channel
 * `undici:request:bodySent` does, published synchronously right after the
 * write, within the same turn as the handler's `onRequestStart` (undici calls it
 * just before writing the headers). The handler being written is handed over
 * through one variable that lives only until that turn's microtasks run.
 */
import diagnosticsChannel from 'node:diagnostics_channel';

/** A handler that wants to hear when its request was fully written. */
export interface WriteListener {
  onWritten(): void;
}

let writing: WriteListener | null = null;
let subscribed = false;

const clear = () => { writing = null; };

function onBodySent(): void {
  const w = writing;
  writing = null;
  w?.onWritten();
}

/** Starts watching undici's request writes (once per process). */
export function watchRequestWrites(): void {
  if (subscribed) return;
  subscribed = true;
  diagnosticsChannel.subscribe('undici:request:bodySent', onBodySent);
}

/** Called from `onRequestStart`: the next completed write in this turn is `listener`'s. */
export function writingNow(listener: WriteListener): void {
  writing = listener;
  queueMicrotask(clear);
}
