/**
 * Reading goodput.yaml (YAML or JSON): parse, validate against the contract
 * schema, and make file paths absolute (relative ones are relative to the
 * contract file). Errors list every bad field by its path.
 */
import { LIMITS } from '../core/index.js';
import { FileRefusal, readRegularText } from '../files/index.js';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { type Contract, contractSchema } from './contract-schema.js';
import { ContractError, describeIssues } from './errors.js';

/** The parser's sentence and, under it, the offending line with its caret (the sentence alone ends in "column 9:"). */
function yamlProblem(err: Error): string {
  const [head = '', ...rest] = err.message.split('\n');
  const context = rest.filter((line) => line.trim() !== '').join('\n');
  return context === '' ? head.replace(/:$/, '') : `${head}\n${context}`;
}

/** Validates a parsed document; `source` names it in messages. Paths are resolved against `baseDir`. */
export function validateContract(doc: unknown, source: string, baseDir: string): Contract {
  const parsed = contractSchema.safeParse(doc);
  if (!parsed.success) {
    const lines = describeIssues(parsed.error);
    throw new ContractError('bad-contract', `${source} is not a valid contract:\n  ${lines.join('\n  ')}`);
  }
  const c = parsed.data;
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(baseDir, p));
  const p = c.workload.prompts;
  const prompts = p.kind === 'jsonl' || p.kind === 'sharegpt' ? { ...p, path: abs(p.path) } : p;
  const tokenizer = c.model.tokenizer.kind === 'file' ? { ...c.model.tokenizer, path: abs(c.model.tokenizer.path) } : c.model.tokenizer;
  const pattern = c.load.pattern.kind === 'trace' ? { ...c.load.pattern, path: abs(c.load.pattern.path) } : c.load.pattern;
  const tools = c.workload.tools?.kind === 'file' ? { ...c.workload.tools, path: abs(c.workload.tools.path) } : c.workload.tools;
  return {
    ...c,
    model: { ...c.model, tokenizer },
    workload: { ...c.workload, prompts, ...(tools === undefined ? {} : { tools }) },
    load: { ...c.load, pattern },
  };
}

/** Reads and validates a contract file. @throws ContractError naming the file and each bad field */
export async function loadContract(path: string): Promise<Contract> {
  let text: string;
  try {
    text = await readRegularText(path, { bytes: LIMITS.inputFileBytes.max, what: LIMITS.inputFileBytes.what });
  } catch (err) {
    if (err instanceof FileRefusal && err.refused) throw new ContractError('bad-contract', err.message);
    throw new ContractError('bad-contract', `${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text, { prettyErrors: true });
  } catch (err) {
    throw new ContractError('bad-contract', `${path}: not valid YAML: ${yamlProblem(err as Error)}`);
  }
  return validateContract(doc, path, dirname(resolve(path)));
}
