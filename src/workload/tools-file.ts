/**
 * The tools a workload offers: a built-in set (`1`, `8`, `64`) or a JSON file
 * holding an OpenAI-style `tools` list (or `{ "tools": [...] }`), checked at
 * entry by the one tools schema of core (count and bytes bounded by the limits
 * table) and compiled once, so a schema that is not valid JSON Schema is
 * refused here, naming the tool, before anything is sent.
 */
import { basename } from 'node:path';
import { readFile, stat } from 'node:fs/promises';
import { LIMITS, compileTools, toolsSpecSchema, type ToolChoice, type ToolsSpec } from '../core/index.js';
import { BUILTIN_TOOL_SETS, builtinTools, type BuiltinToolSet } from './builtin-tools.js';
import { WorkloadError } from './errors.js';

/** Most bytes a tools file may have: every tool at its limit. */
const MAX_FILE_BYTES = LIMITS.tools.max * LIMITS.toolDefinitionBytes.max;

/** Checks a tools spec (from a flag, a contract or an API body): schema, then every tool's JSON schema compiles. */
export function checkToolsSpec(raw: unknown, where: string): ToolsSpec {
  const parsed = toolsSpecSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.filter((p) => p !== 'tools').join('.') ?? '';
    throw new WorkloadError('bad-format', `${where}: ${path === '' ? '' : `tool ${path}: `}${issue?.message ?? 'invalid'}`);
  }
  const compiled = compileTools(parsed.data.tools);
  if (!compiled.ok) throw new WorkloadError('bad-format', `${where}: ${compiled.message}`);
  return parsed.data;
}

/**
 * `--tools 1|8|64|FILE` with its choice.
 * @throws WorkloadError naming the file, the tool and the problem.
 */
export async function loadTools(given: string, choice: ToolChoice): Promise<ToolsSpec> {
  const n = Number(given);
  if ((BUILTIN_TOOL_SETS as readonly number[]).includes(n))
    return checkToolsSpec({ label: `built-in ${n}`, tools: builtinTools(n as BuiltinToolSet), choice }, `built-in tools ${n}`);
  const where = `tools ${given}`;
  const size = await stat(given).then(
    (s) => s.size,
    (err: NodeJS.ErrnoException) => {
      throw new WorkloadError('unreadable', `${where}: cannot read (${err.code ?? err.message}); give a JSON file or one of ${BUILTIN_TOOL_SETS.join(', ')}`);
    },
  );
  if (size > MAX_FILE_BYTES)
    throw new WorkloadError(
      'length',
      `${where}: ${size} bytes is above the ${MAX_FILE_BYTES} that ${LIMITS.tools.max} ${LIMITS.tools.what} of at most ${LIMITS.toolDefinitionBytes.max} bytes each can fill`,
    );
  let data: unknown;
  try {
    data = JSON.parse(await readFile(given, 'utf8'));
  } catch {
    throw new WorkloadError('bad-format', `${where}: not JSON`);
  }
  const tools = Array.isArray(data) ? data : (data as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(tools)) throw new WorkloadError('bad-format', `${where}: expected a JSON list of tools or { "tools": [...] }`);
  return checkToolsSpec({ label: basename(given).slice(0, 256), tools, choice }, where);
}
