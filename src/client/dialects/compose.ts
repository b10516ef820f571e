/**
 * Helpers every dialect's body builder shares: the keys that force the length,
 * the last merge of `extraBody` (an allowlist for engines that reject unknown
 * keys), and the run warnings that follow from a dialect's data.
 */
import type { RequestSpec } from '../types.js';
import { thinkingChoice, type ThinkingStyle } from './thinking.js';
import type { DialectSettings, DialectWarning, LengthControl } from './types.js';

/** Is `v` a plain object? */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The keys that force exactly `maxTokens` output tokens (none when the engine cannot). */
export function lengthKeys(control: LengthControl, maxTokens: number): Record<string, unknown> {
  switch (control.kind) {
    case 'ignore-eos-min':
      return { ignore_eos: true, [control.minKey]: maxTokens };
    case 'ignore-eos':
      return { ignore_eos: true };
    case 'cannot':
      return {};
  }
}

/** Keys merged one level deep rather than replaced. */
const NESTED = new Set(['stream_options', 'chat_template_kwargs', 'options']);

/**
 * Merges `extra` into `body` (in place): nested keys one level deep, `undefined`
 * removes a key, and with an allowlist a key the engine would reject is dropped.
 */
export function mergeExtra(body: Record<string, unknown>, extra: Record<string, unknown> | undefined, accepted: ReadonlySet<string> | 'any'): void {
  if (extra === undefined) return;
  for (const [key, value] of Object.entries(extra)) {
    if (accepted !== 'any' && !accepted.has(key)) continue;
    if (value === undefined) delete body[key];
    else if (NESTED.has(key) && isRecord(value) && isRecord(body[key])) body[key] = { ...body[key], ...value };
    else body[key] = value;
  }
}

/** Warnings that follow from a dialect's length control and thinking style for these settings. */
export function dataWarnings(label: string, length: LengthControl, style: ThinkingStyle, s: DialectSettings): DialectWarning[] {
  const out: DialectWarning[] = [];
  if (s.forceLength && length.kind === 'cannot') {
    out.push({
      code: 'cannot-force-length',
      message: `${label} cannot force the output length (${length.reason}); actual lengths are checked and requests that end short are flagged`,
    });
  }
  if (s.endpoint === 'chat') {
    const choice = thinkingChoice(style, s.model, s.thinking);
    if (choice.cannot !== null) {
      out.push({ code: s.thinking ? 'cannot-enable-thinking' : 'cannot-disable-thinking', message: `${label}, model ${s.model}: ${choice.cannot}` });
    }
  }
  return out;
}

/** The prompt as sent: the user message content plus any thinking soft switch. */
export function promptText(spec: RequestSpec, suffix: string): string {
  return suffix === '' ? spec.prompt : `${spec.prompt}${suffix}`;
}
