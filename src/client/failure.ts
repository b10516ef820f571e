/**
 * Maps transport failures (undici and system errors) to record outcomes by their
 * stable `code`, never by message text.
 */
import type { Outcome, Phase } from '../core/index.js';
import { truncate } from './error-text.js';

/** The stable code of an error: its own `code`, else that of its cause or first aggregated error. */
export function errorCode(err: unknown): string {
  if (typeof err !== 'object' || err === null) return 'UNKNOWN';
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown; name?: unknown };
  if (typeof e.code === 'string' && e.code !== '') return e.code;
  if (Array.isArray(e.errors) && e.errors.length > 0) return errorCode(e.errors[0]);
  if (e.cause !== undefined) return errorCode(e.cause);
  return typeof e.name === 'string' && e.name !== 'Error' ? e.name : 'UNKNOWN';
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Outcome for a request that failed below HTTP. `phase` is where the request
 * was when it failed; undici's timeout codes override it with their own phase
 * (an idle timeout is `first-token` before any token arrived, else `stream`).
 */
export function failureOutcome(err: unknown, phase: Phase, limits: { connectMs: number; headersMs: number; idleMs: number }): Outcome {
  const code = errorCode(err);
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return { kind: 'timeout', phase: 'connect', message: `no connection within ${limits.connectMs} ms` };
    case 'UND_ERR_HEADERS_TIMEOUT':
      return { kind: 'timeout', phase: 'headers', message: `no response headers within ${limits.headersMs} ms` };
    case 'UND_ERR_BODY_TIMEOUT': {
      const idlePhase: Phase = phase === 'stream' ? 'stream' : 'first-token';
      const what = idlePhase === 'stream' ? 'the stream went silent' : 'no first token';
      return { kind: 'timeout', phase: idlePhase, message: `${what}: no bytes for ${limits.idleMs} ms` };
    }
    // Refused by us before sending (see the streaming client): never the server's failure.
    case 'ERR_REQUEST_BODY_LIMIT':
    case 'ERR_REQUEST_BODY':
      return { kind: 'not-sent', code, message: truncate(messageOf(err)) };
    default:
      return { kind: 'connection-error', code, phase, message: truncate(`${code}: ${messageOf(err)}`) };
  }
}
