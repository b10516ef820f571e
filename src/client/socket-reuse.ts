/**
 * Tells whether a failed request had been written to a reused keep-alive socket
 * and failed before any response byte came back on it: a client-side fault
 * (servers close idle keep-alive sockets: llama.cpp after 5 s and after 100
 * requests), worth one retry on a fresh connection.
 *
 * undici's handler API does not say which socket a request used; its
 * diagnostics channels do. `undici:client:sendHeaders` names the request and
 * its socket; `undici:request:error` is published synchronously just before
 * the request's handler hears the error, so the verdict is handed over through
 * one variable that only lives until the current synchronous turn ends.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

/** Requests already written on each socket. */
const writes = new WeakMap<Socket, number>();
/** For each request written on a reused socket: the socket and its bytesRead when the request went out. */
const reusedAt = new WeakMap<object, { socket: Socket; bytesRead: number }>();
/** The verdict on the request whose error is being delivered right now. */
let pending = false;

let subscribed = false;

function onSendHeaders(message: unknown): void {
  const { request, socket } = message as { request: object; socket: Socket };
  const n = writes.get(socket) ?? 0;
  writes.set(socket, n + 1);
  if (n > 0) reusedAt.set(request, { socket, bytesRead: socket.bytesRead });
}

function onRequestError(message: unknown): void {
  const { request } = message as { request: object };
  const at = reusedAt.get(request);
  pending = at !== undefined && at.socket.bytesRead === at.bytesRead;
  // The handler hears the error synchronously after this; nothing later may read this verdict.
  if (pending) queueMicrotask(() => { pending = false; });
}

/** Starts watching undici's sockets (once per process; cheap when nothing fails). */
export function watchSocketReuse(): void {
  if (subscribed) return;
  subscribed = true;
  diagnosticsChannel.subscribe('undici:client:sendHeaders', onSendHeaders);
  diagnosticsChannel.subscribe('undici:request:error', onRequestError);
}

/**
 * Called from a handler's error callback: true when the request failing now was
 * written on a reused socket that returned no byte for it. Reading clears it.
 */
export function failedOnReusedSocket(): boolean {
  const v = pending;
  pending = false;
  return v;
}
