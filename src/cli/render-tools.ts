/**
 * The tool-call lines under the results table: per level, how many answers'
 * calls parsed and validated against their tools, the time to the first
 * tool-call token and to complete arguments, and the argument tokens.
 */
import { type SweepResult, sanitizeForTerminal as clean } from '../core/index.js';

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)} %`);
const pair = (x: { p50: number; p95: number } | null) => (x === null ? 'n/a' : `${x.p50.toFixed(1)}/${x.p95.toFixed(1)}`);

/** Lines for a result whose run offered tools; none otherwise. */
export function toolCallLines(result: SweepResult): string[] {
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
