/**
 * The error bodies engines answer with, and their mid-stream error events:
 * nested `{"error":{…,"code":int}}` (vLLM), nested with a string or null code
 * (OpenAI, Ollama `/v1`), llama.cpp's nested `{code,message,type}`, flat
 * `{"object":"error",…}` (SGLang, TRT-LLM, LMDeploy), TGI's `{error, error_type}`
 * and Ollama native's `{"error":"…"}`.
 */
import type { Wire } from '../response-format.js';
import type { ErrorBody } from './types.js';

const str = JSON.stringify;

export const nestedIntCode: ErrorBody = (status, message, param, type) => str({ error: { message, type, param, code: status } });
export const nestedStringCode: ErrorBody = (_status, message, param, type) => str({ error: { message, type, param, code: type } });
export const nestedNullCode: ErrorBody = (_status, message, param, type) => str({ error: { message, type, param, code: null } });
/** llama.cpp's error types by status (`server-common.cpp`). */
const LLAMACPP_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  404: 'not_found_error',
  500: 'server_error',
  501: 'not_supported_error',
  503: 'unavailable_error',
};
/** TGI's `error_type` by status (`router/src/server.rs`). */
const TGI_TYPES: Readonly<Record<number, string>> = {
  400: 'validation',
  422: 'validation',
  424: 'generation',
  429: 'overloaded',
  500: 'incomplete_generation',
};

export const llamacppError: ErrorBody = (status, message, _param, type) => str({ error: { code: status, message, type: LLAMACPP_TYPES[status] ?? type } });
export const flatError: ErrorBody = (status, message, param, type) => str({ object: 'error', message, type, param, code: status });
export const tgiError: ErrorBody = (status, message, _param, type) => str({ error: message, error_type: TGI_TYPES[status] ?? type });
export const ollamaNativeError: ErrorBody = (_status, message) => str({ error: message });

/** SSE framing with `[DONE]` at the end. */
export const DONE = 'data: [DONE]\n\n';

/** An SSE wire whose error event is `data: <body>` then, when `done`, `[DONE]`. */
export function sseWire(body: (message: string) => string, done: boolean, suffix = ''): Wire {
  return {
    contentType: 'text/event-stream; charset=utf-8',
    terminator: DONE,
    streamError: (message) => `data: ${body(message)}${suffix}\n\n${done ? DONE : ''}`,
  };
}
