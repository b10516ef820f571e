/** `goodput cards RESULT.json`: the three cards as one JSON object ("Copy cards as JSON"). */
import type { Command } from 'commander';
import { type PoolingResult, type SweepResult, poolingResultSchema, refusalOf, sweepResultSchema } from '../core/index.js';
import { FileRefusal, readRegularText } from '../files/index.js';
import { CliError, EXIT } from './exit-codes.js';
import { INPUT_FILE, otherKindRefusal } from './json-input.js';

/** Reads and validates a result file; errors name the file and the field. */
export async function readResult(path: string) {
  const any = await readAnyResult(path);
  if (any.kind === 'text') return any.result;
  throw new CliError(EXIT.usage, `${path}: ${refusalOf(any.kind, 'compare', { endpoint: any.result.run.endpoint })}`);
}

/** A text-generation result, or an embeddings or rerank one; errors name the file and the field. */
export async function readAnyResult(path: string): Promise<{ kind: 'text'; result: SweepResult } | { kind: 'pooling'; result: PoolingResult }> {
  let text: string;
  try {
    text = await readRegularText(path, INPUT_FILE);
  } catch (err) {
    if (err instanceof FileRefusal && err.refused) throw new CliError(EXIT.usage, err.message);
    throw new CliError(EXIT.usage, `${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new CliError(EXIT.usage, `${path}: not JSON`);
  }
  const other = otherKindRefusal(data, ['text', 'pooling']);
  if (other !== null) throw new CliError(EXIT.usage, `${path}: ${other}`);
  const parsed = sweepResultSchema.safeParse(data);
  if (!parsed.success) {
    const pooling = poolingResultSchema.safeParse(data);
    if (pooling.success) return { kind: 'pooling', result: pooling.data };
    const issue = parsed.error.issues[0];
    throw new CliError(EXIT.usage, `${path}: not a goodput result: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return { kind: 'text', result: parsed.data };
}

export function registerCardsCommand(program: Command): void {
  program
    .command('cards')
    .description('print the Model, Engine and Platform cards of a result as one JSON object')
    .argument('<result.json>', 'a result written by goodput sweep --json')
    .action(async (path: string) => {
      const result = await readResult(path);
      process.stdout.write(JSON.stringify(result.cards, null, 2) + '\n');
    });
}
