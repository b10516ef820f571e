/**
 * Turns zod issues into "field: problem" pairs, so every validation message in the
 * simulator (profile files, CLI flags, request bodies) names the field at fault.
 */
import type { z } from 'zod';

/** One validation problem: the dotted field path (or "(root)") and what is wrong. */
export interface FieldProblem {
  field: string;
  problem: string;
}

function joinPath(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}

/** The first problem of a zod error; unknown keys are reported under their own name. */
export function firstProblem(error: z.ZodError): FieldProblem {
  const issue = error.issues[0];
  if (issue === undefined) return { field: '(root)', problem: 'invalid input' };
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return { field: joinPath([...issue.path, key]), problem: 'unknown key' };
  }
  const field = issue.path.length > 0 ? joinPath(issue.path) : '(root)';
  return { field, problem: issue.message };
}

/** "field: problem" for the first issue of a zod error. */
export function describeZodError(error: z.ZodError): string {
  const p = firstProblem(error);
  return `${p.field}: ${p.problem}`;
}
