/**
 * A contract that cannot be run throws a coded ContractError: a bad file
 * (every problem listed with its field path), a server that contradicts what the
 * contract declares, or content whose hash differs from the one recorded.
 * Nothing is sent or written after one.
 */
import type { z } from 'zod';

export type ContractErrorCode = 'bad-contract' | 'mismatch';

export class ContractError extends Error {
  constructor(
    readonly code: ContractErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ContractError';
  }
}

function pathOf(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}

/** "field.path: problem" for every issue (unknown keys under their own name), at most `limit`. */
export function describeIssues(error: z.ZodError, limit = 10): string[] {
  const lines = error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') return issue.keys.map((k) => `${pathOf([...issue.path, k])}: unknown field`);
    return [`${pathOf(issue.path) || '(root)'}: ${issue.message}`];
  });
  return lines.length > limit ? [...lines.slice(0, limit), `… and ${lines.length - limit} more`] : lines;
}
