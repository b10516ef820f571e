/**
 * The built-in tool sets (1, 8 and 64 tools): deterministic OpenAI-style
 * definitions whose schemas have the sizes agents send in practice — a few
 * required strings, enums, bounded integers, string arrays and a nested
 * options object — so a 64-tool request carries tool definitions the size an
 * agent with a large toolbox sends (0.6 k, 7 k and 56 k characters of JSON).
 */
import type { ToolDefinition } from '../core/index.js';

/** Sizes a workload can ask for by number. */
export const BUILTIN_TOOL_SETS = [1, 8, 64] as const;
export type BuiltinToolSet = (typeof BUILTIN_TOOL_SETS)[number];

const NOUNS = ['file', 'issue', 'weather', 'ticket', 'order', 'calendar_event', 'email', 'repository'];
const VERBS = ['get', 'search', 'create', 'update', 'delete', 'list', 'summarize', 'move'];
const UNITS = ['metric', 'imperial', 'standard'];

/** Parameters of tool `i`: richer for higher indices within each noun, as real APIs are. */
function parameters(noun: string, verb: string, i: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    [`${noun}_id`]: { type: 'string', description: `Identifier of the ${noun.replace('_', ' ')} to ${verb}.`, minLength: 1, maxLength: 64 },
    query: { type: 'string', description: `Free-text filter applied before the ${verb} operation.` },
    limit: { type: 'integer', minimum: 1, maximum: 100, description: 'Most results to return.' },
  };
  const required = [`${noun}_id`];
  if (i % 2 === 1) {
    properties.unit = { type: 'string', enum: UNITS, description: 'Unit system of numeric values in the answer.' };
    required.push('unit');
  }
  if (i % 4 >= 2) properties.tags = { type: 'array', items: { type: 'string', maxLength: 32 }, maxItems: 8, description: 'Labels to match.' };
  if (i % 8 >= 4) {
    properties.options = {
      type: 'object',
      description: 'Fine-grained behaviour.',
      properties: {
        dry_run: { type: 'boolean', description: 'Report what would change without changing it.' },
        priority: { type: 'string', enum: ['low', 'normal', 'high'] },
        retries: { type: 'integer', minimum: 0, maximum: 5 },
      },
      required: ['dry_run'],
      additionalProperties: false,
    };
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

/** The first `n` of the 64 built-in tools. */
export function builtinTools(n: BuiltinToolSet): ToolDefinition[] {
  const out: ToolDefinition[] = [];
  for (let i = 0; i < n; i++) {
    const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length] as string;
    const verb = VERBS[i % VERBS.length] as string;
    out.push({
      type: 'function',
      function: {
        name: `${verb}_${noun}`,
        description: `${verb[0]?.toUpperCase()}${verb.slice(1)} a ${noun.replace('_', ' ')} in the user's workspace. Use it when the user asks to ${verb} one; never guess identifiers.`,
        parameters: parameters(noun, verb, i),
      },
    });
  }
  return out;
}
