/** A stored run read for a command that compares or publishes text-generation runs: a run of any other kind is refused naming its endpoint. */
import { type RequestRecord, type SweepResult, kindOfResult, refusalOf } from '../core/index.js';
import type { Catalog } from '../runs/index.js';
import { CliError, EXIT } from './exit-codes.js';

export async function storedTextRun(c: Catalog, id: number, command: string): Promise<{ result: SweepResult; records: RequestRecord[] }> {
  const result = await c.exportRun(id);
  const kind = kindOfResult(result);
  if (kind !== 'text')
    throw new CliError(
      EXIT.usage,
      `${command}: run ${id} is ${refusalOf(kind, 'stored-runs', { endpoint: result.run.endpoint })} (see goodput runs show ${id})`,
    );
  return { result: result as SweepResult, records: (await c.runRecords(id)) as RequestRecord[] };
}
