/** A synthetic agent trace replayed by the CLI against a simulator, with its records joined to the trace's graph. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RequestRecord, type SweepResult, sweepResultSchema } from '../core/index.js';
import { type AgentsSource, readAgentTrace } from '../workload/index.js';
import { type Ran, runGoodput } from './goodput-process.js';

export interface AgentReplay {
  ran: Ran;
  source: AgentsSource;
  result: SweepResult;
  records: RequestRecord[];
  /** The record of turn `turn` of session `id`. */
  at(id: number, turn: number): RequestRecord | undefined;
  /** Each sub-agent's first record with its parent turn's record and the recorded delay, ms. */
  spawns: Array<{ child: RequestRecord; parent: RequestRecord; delayMs: number }>;
}

export async function replayAgents(
  dir: string,
  url: string,
  synth: readonly string[],
  replay: readonly string[] = [],
  timeoutMs = 120_000,
): Promise<AgentReplay> {
  const trace = join(dir, 'agents.jsonl');
  const made = await runGoodput(['trace', 'synth', ...synth, '--out', trace]);
  if (made.code !== 0) throw new Error(`trace synth failed: ${made.stderr}`);
  const raw = join(dir, 'agents-raw.jsonl');
  const json = join(dir, 'agents.json');
  const ran = await runGoodput(['replay', trace, '--url', url, '--raw', raw, '--json', json, '--no-save', ...replay], {}, timeoutMs);
  // A level with failed requests is reported invalid (a non-zero exit) but still written.
  if (!existsSync(json)) throw new Error(`replay wrote no result (${ran.code}): ${ran.stderr}`);
  const { source } = await readAgentTrace(trace);
  const records = readFileSync(raw, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as RequestRecord);
  const byTurn = new Map(records.map((r) => [`${r.session?.id}:${r.session?.turn}`, r]));
  const at = (id: number, turn: number) => byTurn.get(`${id}:${turn}`);
  const spawns = source.sessions.flatMap((s, id) => {
    const child = at(id, 0);
    const parent = s.parent === null ? undefined : at(s.parent, s.after);
    return child && parent ? [{ child, parent, delayMs: s.atMs }] : [];
  });
  return { ran, source, result: sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8'))), records, at, spawns };
}
