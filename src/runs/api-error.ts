/**
 * Every error the API answers with: a stable code, a sentence naming what is
 * wrong (and the field, for bad input), and its HTTP status — mapped here
 * once. Store and sweep errors are translated by code, never by message.
 */
import { SweepError } from '../runner/index.js';
import { StoreError } from '../store/index.js';

export type ApiErrorCode =
  | 'bad-request'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'duplicate'
  | 'too-large'
  | 'unsupported-media-type'
  | 'server-not-running'
  | 'run-in-progress'
  | 'not-exportable'
  | 'not-active'
  | 'busy'
  | 'internal';

export const HTTP_STATUS = {
  'bad-request': 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  duplicate: 409,
  'too-large': 413,
  'unsupported-media-type': 415,
  'server-not-running': 409,
  'run-in-progress': 409,
  'not-exportable': 409,
  'not-active': 409,
  busy: 503,
  internal: 500,
} as const satisfies Record<ApiErrorCode, number>;

/** The JSON body of every error response. */
export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string; field?: string };
}

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get status(): (typeof HTTP_STATUS)[ApiErrorCode] {
    return HTTP_STATUS[this.code];
  }

  toBody(): ApiErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.field === undefined ? {} : { field: this.field }) } };
  }
}

const FROM_STORE = {
  'not-found': 'not-found',
  duplicate: 'duplicate',
  'run-in-progress': 'run-in-progress',
  'not-exportable': 'not-exportable',
  busy: 'busy',
  'bad-input': 'bad-request',
  corrupt: 'internal',
} as const;

/** Any thrown value as an ApiError; unknown errors become `internal` with their message. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof StoreError) return new ApiError(FROM_STORE[err.code], err.message, err.field);
  if (err instanceof SweepError) return new ApiError(err.code === 'bad-input' ? 'bad-request' : 'server-not-running', err.message);
  return new ApiError('internal', err instanceof Error ? err.message : String(err));
}
