/**
 * Structured output on the client side: the compiled checker of a response
 * schema (compiled once per spec object) and the record's verdict on an answer.
 */
import { compileAnswerSchema, sanitizeForTerminal, type AnswerChecker, type ResponseSchemaSpec, type StructuredRecord } from '../core/index.js';

const CHECKERS = new WeakMap<ResponseSchemaSpec, AnswerChecker>();

/** The checker of a schema spec. Specs are checked when read; one that slipped through judges every answer unparsed. */
export function answerChecker(spec: ResponseSchemaSpec): AnswerChecker {
  let check = CHECKERS.get(spec);
  if (check === undefined) {
    const compiled = compileAnswerSchema(spec.schema);
    check = compiled.ok ? compiled.check : () => ({ verdict: 'unparsed', problem: compiled.message });
    CHECKERS.set(spec, check);
  }
  return check;
}

/** The record's part: a control (sent without the schema), or the verdict on `answer`. */
export function structuredRecord(check: AnswerChecker | null, answer: string): StructuredRecord {
  if (check === null) return { schema: false, verdict: null, problem: null };
  const { verdict, problem } = check(answer);
  return { schema: true, verdict, problem: problem === null ? null : sanitizeForTerminal(problem).slice(0, 1024) };
}
