/**
 * The self-host decision as the report and the page's compare view show it:
 * when exactly two runs are compared and the second was sent at a provider's
 * price, the figures `goodput decide` prints — the same rows, break-even and
 * assumptions, formatted once in core — or why the two are not one decision.
 */
import { DecideRefused, type DecideRun, type Decision, decide } from '../../core/index.js';
import { type Raw, html, scrollFrame } from './markup.js';

export type DecisionView = { decision: Decision } | { refused: string };

/** The decision of `[self, provider]`, its refusal, or null when the runs are not such a pair (not two, the second unpriced, or both priced: two providers). */
export function decisionView(runs: ReadonlyArray<{ label: string } & DecideRun>): DecisionView | null {
  const [self, provider] = runs;
  if (runs.length !== 2 || self === undefined || provider === undefined) return null;
  if (provider.run.providerPrice === undefined || self.run.providerPrice !== undefined) return null;
  try {
    return {
      decision: decide({ label: `self-hosted (${self.label})`, result: self }, { label: `provider (${provider.label})`, result: provider }),
    };
  } catch (err) {
    if (err instanceof DecideRefused) return { refused: `goodput decide: refused: ${err.message}` };
    throw err;
  }
}

export const DECISION_TITLE = 'Self-host or provider';

export function decisionMarkup(v: DecisionView): Raw {
  if ('refused' in v) return html`<p class="error" id="decision-refused">${v.refused}</p>`;
  const d = v.decision;
  const table = html`<table id="decision-table"><caption>Both sides at one workload and SLO, each at its valid level of highest goodput.</caption>
<thead><tr><th scope="col">Figure</th><th scope="col">${d.self.label}</th><th scope="col">${d.provider.label}</th></tr></thead>
<tbody>${d.rows.map(([what, a, b]) => html`<tr><th scope="row">${what}</th><td class="num">${a}</td><td class="num">${b}</td></tr>`)}</tbody></table>`;
  return html`${scrollFrame(DECISION_TITLE, table)}<p id="decision-break-even"><strong>break-even:</strong> ${d.breakEven.verdict}</p>
<ul id="decision-assumptions" aria-label="Assumptions">${d.assumptions.map((a) => html`<li>${a}</li>`)}</ul>`;
}

/** The same as Markdown lines, for `goodput report --format md`. */
export function decisionMarkdown(v: DecisionView, table: (headers: readonly string[], rows: readonly string[][]) => string): string[] {
  if ('refused' in v) return [`## ${DECISION_TITLE}`, '', v.refused, ''];
  const d = v.decision;
  return [
    `## ${DECISION_TITLE}`,
    '',
    table(['Figure', d.self.label, d.provider.label], d.rows),
    '',
    `**break-even:** ${d.breakEven.verdict}`,
    '',
    ...d.assumptions.map((a) => `- ${a}`),
    '',
  ];
}
