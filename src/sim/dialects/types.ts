/**
 * A simulated engine dialect: how the simulator looks and talks when it plays
 * one engine (`--dialect`). It owns its identity routes (what detection reads),
 * error bodies, the request keys the engine honours or refuses, its overload
 * answer and its stream shapes. The performance model is the same for all.
 */
import type { ResponseFormat, ResponseIdentity } from '../response-format.js';
import type { SimProfile } from '../profile-schema.js';
import type { SimDialectKind } from './kinds.js';

/** Renders an error body: status, message, the field at fault (or null) and an error type. */
export type ErrorBody = (status: number, message: string, param: string | null, type: string) => string;

/** A GET route of a dialect: answers from the profile (and the simulator's own version). */
export type DialectRoute = (profile: SimProfile, simVersion: string) => { status: number; contentType: string; body: string };

/** A generation body rewritten to what the engine honours, or refused as the engine would. */
export type Normalized = { ok: true; body: Record<string, unknown> } | { ok: false; status: number; message: string; param: string | null };

/** Overload answer of an engine that rejects instead of queueing. */
export interface Overload {
  status: number;
  message: string;
  type: string;
  /** True when a new request must be refused, given the live batch and the profile (its `overloadLimit` or the engine's default). */
  exceeded(live: { running: number; waiting: number }, profile: SimProfile): boolean;
}

/** A generation endpoint a dialect adds (Ollama's native `/api/chat`, `/api/generate`). */
export interface NativeRoute {
  /** The OpenAI endpoint whose parser reads the translated body. */
  endpoint: 'chat' | 'completion';
  /** Native body → the OpenAI-shaped body the rest of the simulator reads. */
  translate(raw: Record<string, unknown>): Record<string, unknown>;
  format(idn: ResponseIdentity, profile: SimProfile): ResponseFormat;
  errorBody: ErrorBody;
}

export interface SimDialect {
  readonly kind: SimDialectKind;
  /** Fields merged into each `/v1/models` entry (`owned_by`, …). */
  modelCard(profile: SimProfile): Readonly<Record<string, unknown>>;
  /** Headers on every response (llama.cpp's `Server`, OpenAI's `openai-version`). */
  readonly headers: Readonly<Record<string, string>>;
  /** Identity routes by "GET /path" (`/version`, `/info`, `/props`, …). */
  readonly routes: Readonly<Record<string, DialectRoute>>;
  /** Native generation routes by "POST /path". */
  readonly nativeRoutes: Readonly<Record<string, NativeRoute>>;
  readonly errorBody: ErrorBody;
  /** Rewrites a `/v1` generation body to what the engine honours, or refuses it. */
  normalize(raw: Record<string, unknown>, endpoint: 'chat' | 'completion'): Normalized;
  /** The version detection should read (what the identity routes report), or null when the engine exposes none. */
  readonly version: string | null;
  chatFormat(idn: ResponseIdentity, profile: SimProfile): ResponseFormat;
  completionFormat(idn: ResponseIdentity, profile: SimProfile): ResponseFormat;
  readonly overload: Overload | null;
}
