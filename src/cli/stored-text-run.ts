/** A stored run read for a command that compares or publishes text-generation runs: an embeddings or rerank run is refused naming its endpoint. */
import { type RequestRecord, type SweepResult, isPoolingResult } from '../core/index.js';
import type { Catalog } from '../runs/index.js';
import { CliError, EXIT } from './exit-codes.js';

export async function storedTextRun(c: Catalog, id: number, command: string): Promise<{ result: SweepResult; records: RequestRecord[] }> {
  const result = await c.exportRun(id);
  if (isPoolingResult(result))
    throw new CliError(EXIT.usage, `${command}: run ${id} is an ${result.run.endpoint} run; this reads text-generation runs (see goodput runs show ${id})`);
  return { result, records: (await c.runRecords(id)) as RequestRecord[] };
}
