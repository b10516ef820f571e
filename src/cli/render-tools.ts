/**
 * The agentic lines under the results table, per level: how many answers'
 * tool calls parsed and validated against their tools, the time to the first
 * tool-call token and to complete arguments, the argument tokens; and for a
 * JSON schema, the answers' validity and what the schema costs against plain
 * control requests of the same level.
 */
import { type SweepResult, sanitizeForTerminal as clean } from '../core/index.js';

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)} %`);
const pair = (x: { p50: number; p95: number } | null) => (x === null ? 'n/a' : `${x.p50.toFixed(1)}/${x.p95.toFixed(1)}`);

/** Lines for a result whose run offered tools or asked for a JSON schema; none otherwise. */
export function toolCallLines(result: SweepResult): string[] {
  return [...callLines(result), ...structuredLines(result)];
}

type Cost = { schemaP50: number; controlP50: number; deltaPct: number | null } | null;
const costText = (name: string, c: Cost) =>
  c === null
    ? `${name} n/a`
    : `${name} p50 ${c.schemaP50.toFixed(1)} vs ${c.controlP50.toFixed(1)} ms${c.deltaPct === null ? '' : ` (${c.deltaPct >= 0 ? '+' : ''}${c.deltaPct.toFixed(1)} %)`}`;

function structuredLines(result: SweepResult): string[] {
  const s = result.run.responseSchema;
  if (s === undefined) return [];
  const out = ['', `Structured output: JSON schema ${clean(s.label)} (${clean(s.name)}), ${(s.control * 100).toFixed(0)} % plain controls`];
  for (const l of result.levels) {
    const t = l.structured;
    if (t === undefined) continue;
    out.push(
      `  ${clean(l.load?.label ?? String(l.concurrency))}: valid ${t.valid} of ${t.requests} (${pct(t.validRate)}) · invalid ${t.invalid} · unparsed ${t.unparsed}`,
      `    cost against ${t.controls} plain controls: ${costText('TTFT', t.cost.ttftMs)} · ${costText('TPOT', t.cost.tpotMs)} · ${costText('e2e', t.cost.e2eMs)}`,
    );
  }
  return out;
}

function callLines(result: SweepResult): string[] {
  const tools = result.run.tools;
  if (tools === undefined) return [];
  const out = ['', `Tool calls: ${tools.count} tools (${clean(tools.label)}), tool_choice ${clean(tools.choice)}`];
  for (const l of result.levels) {
    const t = l.toolCalls;
    if (t === undefined) continue;
    const judged = t.requests - t.none;
    out.push(
      `  ${clean(l.load?.label ?? String(l.concurrency))}: valid ${t.valid} of ${judged} (${pct(t.validRate)}) · parsed ${pct(t.parseRate)} · invalid ${t.invalid} · unparsed ${t.unparsed} · missing ${t.missing} · text answers ${t.none}`,
      `    first tool-call token p50/p95 ${pair(t.ttftToolMs)} ms · arguments complete after p50/p95 ${pair(t.argumentsMs)} ms · argument tokens mean ${t.argumentTokensMean === null ? 'n/a' : t.argumentTokensMean.toFixed(1)}`,
    );
  }
  return out;
}
