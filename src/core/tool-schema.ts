/**
 * Tool definitions (OpenAI-style `tools`) and the verdict on the calls a model
 * made: one schema bounds what a tools file, a contract or an API body may hold
 * (tools per request, bytes per definition), and a compiled checker decides
 * whether each call's arguments parse as JSON and validate against its tool's
 * JSON schema (Ajv, the field's validator; an invalid schema is refused when the
 * tools are read, never at send time). Pure: no I/O.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { z } from 'zod';
import { LIMITS, limitMessage } from './limits.js';
import type { ToolCallVerdict } from './record.js';

/** A function name as the OpenAI API accepts it. */
const toolName = z.string({ error: 'name must be text' }).regex(/^[A-Za-z0-9_.-]{1,64}$/, 'name must be 1-64 letters, digits, _ . or -');

export const toolDefinitionSchema = z.looseObject({
  type: z.literal('function', { error: 'type must be "function"' }),
  function: z.looseObject({
    name: toolName,
    description: z.string().optional(),
    /** The arguments' JSON schema; none means any object. */
    parameters: z.record(z.string(), z.unknown(), { error: 'parameters must be a JSON schema object' }).optional(),
  }),
});
export type ToolDefinition = z.infer<typeof toolDefinitionSchema>;

/** A list of tools: 1..LIMITS.tools, unique names, each definition within LIMITS.toolDefinitionBytes. */
export const toolListSchema = z
  .array(toolDefinitionSchema)
  .min(1, 'give at least one tool')
  .max(LIMITS.tools.max, { error: (i) => limitMessage('tools', Array.isArray(i.input) ? i.input.length : 0, 'tools') })
  .superRefine((tools, ctx) => {
    const seen = new Set<string>();
    tools.forEach((t, i) => {
      const bytes = Buffer.byteLength(JSON.stringify(t));
      if (bytes > LIMITS.toolDefinitionBytes.max)
        ctx.addIssue({ code: 'custom', path: [i], message: limitMessage('toolDefinitionBytes', bytes, `tool ${t.function.name}:`) });
      if (seen.has(t.function.name)) ctx.addIssue({ code: 'custom', path: [i, 'function', 'name'], message: `tool ${t.function.name} is defined twice` });
      seen.add(t.function.name);
    });
  });

/** tool_choice: the model decides, must call some tool, or must call this one. */
export const toolChoiceSchema = z.union([z.literal('auto'), z.literal('required'), z.object({ name: toolName }).strict()], {
  error: 'tool choice must be auto, required or { name }',
});
export type ToolChoice = z.infer<typeof toolChoiceSchema>;

/** The tools a workload offers with every request. */
export const toolsSpecSchema = z
  .object({
    /** "built-in 64", or the tools file's name. */
    label: z.string().min(1).max(256),
    tools: toolListSchema,
    choice: toolChoiceSchema.default('auto'),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (typeof s.choice === 'object' && !s.tools.some((t) => t.function.name === (s.choice as { name: string }).name)) {
      ctx.addIssue({ code: 'custom', path: ['choice', 'name'], message: `no tool is named ${s.choice.name}` });
    }
  });
export type ToolsSpec = z.output<typeof toolsSpecSchema>;

/** The words of a tool choice: auto, required, or the tool's name. */
export const toolChoiceLabel = (c: ToolChoice): string => (typeof c === 'string' ? c : c.name);

/** One call as read from a stream: its name, the argument text, and whether the stream cut it short. */
export interface ToolCallText {
  name: string;
  arguments: string;
}

/** Compiled validators of a tool list, by name. */
export interface ToolChecker {
  readonly names: ReadonlySet<string>;
  /** The verdict on a response's calls, and the first problem in words. */
  judge(calls: readonly ToolCallText[], required: boolean, cut: string | null): { verdict: ToolCallVerdict; problem: string | null };
}

const first = (v: ValidateFunction): string => {
  const e = v.errors?.[0];
  return e === undefined ? 'does not match the schema' : `${e.instancePath === '' ? '(root)' : e.instancePath} ${e.message ?? 'is invalid'}`;
};

/** A structured-output workload: the JSON schema every answer must match, and the share of plain control requests. */
export const responseSchemaSpecSchema = z
  .object({
    /** The schema file's name (or "built-in"). */
    label: z.string().min(1).max(256),
    /** Sent as response_format.json_schema.name (or the engine's key). */
    name: toolName,
    schema: z
      .record(z.string(), z.unknown(), { error: 'the schema must be a JSON object' })
      .refine((s) => Buffer.byteLength(JSON.stringify(s)) <= LIMITS.responseSchemaBytes.max, {
        error: (i) => limitMessage('responseSchemaBytes', Buffer.byteLength(JSON.stringify(i.input)), 'the schema:'),
      }),
    /** Share of requests sent without the schema (same prompts, same load) so the level can show what the schema costs. */
    control: z.number().min(0).max(0.9, 'the control share must be at most 0.9').default(0.5),
  })
  .strict();
export type ResponseSchemaSpec = z.output<typeof responseSchemaSpecSchema>;

/** An answer's verdict against a compiled schema. */
export type AnswerChecker = (answer: string) => { verdict: 'valid' | 'invalid' | 'unparsed'; problem: string | null };

/** Compiles one JSON schema; the checker parses an answer (surrounding whitespace allowed) and validates it. */
export function compileAnswerSchema(schema: Record<string, unknown>): { ok: true; check: AnswerChecker } | { ok: false; message: string } {
  let v: ValidateFunction;
  try {
    v = new Ajv({ strict: false, allErrors: false, validateFormats: false }).compile(schema);
  } catch (err) {
    return { ok: false, message: `not a valid JSON schema (${(err as Error).message.slice(0, 300)})` };
  }
  return {
    ok: true,
    check(answer) {
      let value: unknown;
      try {
        value = JSON.parse(answer);
      } catch {
        return { verdict: 'unparsed', problem: answer.trim() === '' ? 'the answer is empty' : 'the answer is not JSON' };
      }
      return v(value) ? { verdict: 'valid', problem: null } : { verdict: 'invalid', problem: `the answer: ${first(v)}`.slice(0, 1024) };
    },
  };
}

/**
 * Compiles every tool's parameters schema.
 * @returns the checker, or the first tool whose schema is not a valid JSON schema, named.
 */
export function compileTools(tools: readonly ToolDefinition[]): { ok: true; checker: ToolChecker } | { ok: false; message: string } {
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
  const validators = new Map<string, ValidateFunction>();
  for (const t of tools) {
    try {
      validators.set(t.function.name, ajv.compile(t.function.parameters ?? { type: 'object' }));
    } catch (err) {
      return { ok: false, message: `tool ${t.function.name}: parameters is not a valid JSON schema (${(err as Error).message.slice(0, 300)})` };
    }
  }
  return {
    ok: true,
    checker: {
      names: new Set(validators.keys()),
      judge(calls, required, cut) {
        if (calls.length === 0) return { verdict: required ? 'missing' : 'none', problem: required ? 'a tool call was required and none came' : null };
        if (cut !== null) return { verdict: 'unparsed', problem: cut };
        let invalid: string | null = null;
        for (const c of calls) {
          const v = validators.get(c.name);
          if (v === undefined) return { verdict: 'unparsed', problem: `no tool is named ${c.name.slice(0, 64)}` };
          let args: unknown;
          try {
            args = JSON.parse(c.arguments === '' ? '{}' : c.arguments);
          } catch {
            return { verdict: 'unparsed', problem: `the arguments of ${c.name} are not JSON` };
          }
          if (invalid === null && !v(args)) invalid = `the arguments of ${c.name}: ${first(v)}`;
        }
        return invalid === null ? { verdict: 'valid', problem: null } : { verdict: 'invalid', problem: invalid.slice(0, 1024) };
      },
    },
  };
}
