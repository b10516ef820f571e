/**
 * The limits table as zod checks, so every schema (sweep spec, contract, API
 * body) refuses a value past a limit with the same sentence, naming the limit.
 */
import { z } from 'zod';
import { LIMITS, type LimitName, limitMessage } from './limits.js';

/** `.max()` parameters for the limit `name`: the refusal names the value and the limit. */
export function overLimit(name: LimitName, label: string): { error: (issue: { input?: unknown }) => string } {
  return { error: (issue) => limitMessage(name, Number(issue.input), label) };
}

/** A positive whole number bounded by the limit `name`, with messages naming `label`. */
export function limitedInt(name: LimitName, label: string) {
  return z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .positive(`${label} must be positive`)
    .max(LIMITS[name].max, overLimit(name, label));
}

/** A zero-or-more whole number bounded by the limit `name`. */
export function limitedCount(name: LimitName, label: string) {
  return z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .nonnegative(`${label} must be 0 or more`)
    .max(LIMITS[name].max, overLimit(name, label));
}

type NestedIssue = { code?: string; message?: string; errors?: NestedIssue[][] };

function limitIssue(issues: readonly NestedIssue[]): string | null {
  for (const i of issues) {
    if (i.code === 'too_big' && i.message !== undefined) return i.message;
    for (const branch of i.errors ?? []) {
      const found = limitIssue(branch);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * The `error` of a union (a number or 'auto', one value or a list): a value past
 * its limit keeps the limit's sentence instead of the union's generic one.
 */
export function unionError(fallback: string): { error: (issue: NestedIssue) => string } {
  return { error: (issue) => limitIssue([issue]) ?? fallback };
}
