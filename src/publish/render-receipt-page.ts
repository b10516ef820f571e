/**
 * One receipt's page, in the order the reference sets: title (model · GPU ·
 * date), the four headline stats, the fact tables, the bar charts and scaling
 * curves, the quality score with evaluator and scale note, the cost basis,
 * the workload, the limitations. Numbers come only from the view-model.
 */
import { Raw, dataNumber, html, page, scrollFrame, signerLine } from './html.js';
import { barFigure, curveFigures, levelsTable, paretoSection, partsFiguresSection, statedFiguresSection } from './render-charts.js';
import { kindOfReceipt } from './receipt-kinds.js';
import type { ReceiptView } from './receipt-view.js';
import { textModality } from './run-pair.js';
import { standingWords } from './standing.js';

/** A quality score never renders without its scale and evaluator beside it, the headline card included. */
function qualityNote(v: ReceiptView, factId: string): Raw | string {
  const q = v.receipt.quality;
  if (factId !== `${v.receipt.id}/optimized.quality` || q === null) return '';
  return html`<div class="stat quality-scale">${q.scaleNote}; evaluator ${q.evaluatorId} (defined below)</div>`;
}

/** The standing beside a number (fact set 3 only, so an older receipt's page renders as before). */
function standingNote(v: ReceiptView, numberId: string): Raw | string {
  return v.standing === null ? '' : html`<div class="standing">${standingWords(v.standing.of(numberId))}</div>`;
}

/** Who stands behind the labels and each run: the labels' standings and every run signature, verified (fact set 3 only). */
function signatures(v: ReceiptView): Raw | string {
  const s = v.standing;
  if (s === null) return '';
  const r = v.receipt;
  return html`<h2>Who stands behind it</h2><p class="muted">Hardware, engine and "simulated" are the publisher's word unless both runs are signed by a measurer key this site lists.</p>
<ul id="standing"><li>Hardware (${r.hardware}): ${s.labels.hardware.what}</li><li>${r.simulated ? 'Simulated' : 'Not simulated'}: ${s.labels.simulated.what}</li>
<li>Baseline engine (${r.configurations.baseline.engine ?? 'not recorded'}): ${s.labels.baseline.what}</li><li>Optimized engine (${r.configurations.optimized.engine ?? 'not recorded'}): ${s.labels.optimized.what}</li>${r.serverConfiguration === undefined ? '' : html`<li id="configuration-standing">Server configuration: ${s.labels.configuration.what}</li>`}</ul>
<h2>Run signatures</h2><ul id="run-signatures">${s.signatures.map((l) => html`<li>${l}</li>`)}</ul>
`;
}

function headlines(v: ReceiptView): Raw {
  return html`<ul class="headlines" aria-label="Headline stats">${v.headlines.map(
    (h) => html`<li class="headline">
<div class="label">${h.number.label}</div><div class="value">${dataNumber(h.number, { unit: true })}</div>
<div class="stat">${h.number.statistic}, ${h.number.value === null ? 'not recorded' : h.number.provenance}</div>
<div class="cfg">${h.number.configuration}</div>${qualityNote(v, h.number.id)}${standingNote(v, h.number.id)}
<div class="muted">${h.direction === null ? '' : `${h.direction} is better`}${h.change ? html`; ${dataNumber(h.change)} against the baseline, ${h.verdict}` : h.changeWords ? `; ${h.changeWords}` : ''}</div></li>`,
  )}</ul>`;
}

/** The two servers' configurations as each reported it, side by side, each differing setting marked; nothing (not even a line) for a receipt without them, so its page renders as before. */
function serverConfiguration(r: ReceiptView['receipt']): Raw | string {
  const c = r.serverConfiguration;
  if (c === undefined) return '';
  const cell = (x: string | null) => x ?? 'not reported';
  return html`<h2>Server configuration</h2><p class="muted">As each server reported it when its run started (baseline: ${c.sources.baseline}; optimized: ${c.sources.optimized}).</p>
${scrollFrame(
  'Server configuration',
  html`<table id="server-configuration"><caption>Each setting either server reported, with both values; a differing setting is marked</caption>
<thead><tr><th scope="col">Setting</th><th scope="col">Baseline</th><th scope="col">Optimized</th><th scope="col">Differs</th></tr></thead><tbody>
${c.rows.map(
  (x) =>
    html`<tr${x.differs ? html` class="differs"` : ''}><th scope="row">${x.setting}</th><td data-label="Baseline">${cell(x.baseline)}</td><td data-label="Optimized">${cell(x.optimized)}</td><td data-label="Differs">${x.differs ? 'differs' : 'same'}</td></tr>`,
)}</tbody></table>`,
)}
`;
}

/** A baseline configured below its engine's documented defaults, said beside the headlines it colours. */
function handicaps(r: ReceiptView['receipt']): Raw | string {
  const h = r.serverConfiguration?.handicaps ?? [];
  return h.length === 0
    ? ''
    : html`<p class="handicap" id="handicaps"><strong>Limitation:</strong> ${h.join('; ')}; see the server configuration and the limitations below.</p>`;
}

function factTables(v: ReceiptView): Raw {
  const { baseline, optimized } = v.receipt.configurations;
  return scrollFrame(
    'Fact tables',
    html`<table id="facts"><caption>Fact tables: the same rows for both configurations; each value with its statistic and provenance</caption>
<thead><tr><th scope="col">Metric</th><th scope="col">Statistic</th><th scope="col">Baseline (${baseline.identity})</th><th scope="col">Optimized (${optimized.identity})</th><th scope="col">Change</th></tr></thead><tbody>
${v.rows.map(
  (r) => html`<tr><th scope="row">${r.label} (${r.optimized.unit})</th><td data-label="Statistic">${r.statistic}</td>
<td class="n" data-label="Baseline">${dataNumber(r.baseline, { withStatistic: true })}</td><td class="n" data-label="Optimized">${dataNumber(r.optimized, { withStatistic: true })}</td>
<td class="n" data-label="Change">${r.change ? html`${dataNumber(r.change)}, ${r.verdict}` : (r.changeWords ?? '—')}</td></tr>`,
)}</tbody></table>`,
  );
}

function quality(v: ReceiptView): Raw {
  const q = v.receipt.quality;
  const [composite, ...parts] = v.quality;
  if (!composite) return html``;
  return html`<section class="note" id="quality" aria-labelledby="quality-h"><h2 id="quality-h">Quality</h2>
<p><strong>${composite.label}: ${dataNumber(composite)}</strong> <span class="stat">(${composite.statistic}, ${composite.provenance}; ${composite.configuration})</span></p>
${
  q === null
    ? html`<p>quality: not recorded. ${composite.note ?? ''}</p>`
    : html`<p id="quality-verdict">Against the baseline: ${q.verdict}</p><p>Scale: ${q.scaleNote}</p><p>Evaluator: ${q.evaluator}</p>
<ul>${parts.map((n) => html`<li>${n.label}: ${dataNumber(n, { unit: true, withStatistic: true })}${n.note ? ` — ${n.note}` : ''}</li>`)}</ul>
<p class="muted">Prompt set sha256:${q.promptSetHash}; reference text sha256:${q.referenceTextHash}</p>`
}</section>`;
}

/** Each configuration's cost per 1M output tokens with the formula and its inputs beside it. */
function costFormulas(v: ReceiptView): Raw[] {
  return (['baseline', 'optimized'] as const).map((cfg) => {
    const row = (key: string) => v.rows.find((x) => x[cfg].id === `${v.receipt.id}/${cfg}.${key}`)?.[cfg];
    const rate = v.costRates.find((n) => n.id === `${v.receipt.id}/${cfg}.hourlyRate`);
    const { cost: keys } = kindOfReceipt(v.receipt).page;
    const peak = row(keys.peak);
    const cost = row(keys.cost);
    if (rate === undefined || peak === undefined || cost === undefined) return html``;
    return html`<li>${rate.configuration}: ${dataNumber(cost, { unit: true })} = ${dataNumber(rate, { unit: true })} ÷ (${dataNumber(peak, { unit: true })} × 3,600 s) × 1,000,000 <span class="stat">(${rate.statistic}; ${peak.statistic})</span></li>`;
  });
}

export function receiptPage(v: ReceiptView, datasetSha256: string, generator: string, notClaimed: readonly string[], signer: string | null = null): string {
  const r = v.receipt;
  const { baseline, optimized } = r.configurations;
  const kind = kindOfReceipt(r).page;
  const note = kind.modalityNote(r);
  const table = kind.levelTable?.(r);
  return page(
    r.title,
    html`<p><a href="index.html">All receipts</a></p>
<h1>${r.model} · ${r.hardware} · ${r.measuredAt}</h1><p>${r.title}</p>
<p id="modality">Modality: <strong>${r.modality ?? textModality(r.inputs)}</strong>${r.inputs === undefined ? '' : html` <span class="stat">(each request: ${r.inputs.join('; ')})</span>`}${note === null ? '' : html` <span class="stat">(${note})</span>`}</p>
${r.simulated ? html`<p class="simulated"><strong>Simulated:</strong> measured against the goodput simulator, not a real GPU; the figures show the method, not what any hardware achieves.</p>` : ''}
<dl><dt>Baseline</dt><dd>${baseline.identity}; method: ${baseline.method}; measured ${baseline.measuredAt}</dd>
<dt>Optimized</dt><dd>${optimized.identity}; method: ${optimized.method}; measured ${optimized.measuredAt}</dd>
<dt>Hardware</dt><dd id="hardware">${r.hardware} <span class="stat">(declared by the publisher: no server reports its GPU, so the GPU, the hardware and the price are the publisher's word)</span></dd></dl>
<h2>What each server said about itself</h2><p class="muted">Recorded by goodput run from the server's own routes when the run started, beside the labels the publisher declared above.</p>
<dl id="server-accounts">${(['baseline', 'optimized'] as const).map((k) => html`<dt>${k === 'baseline' ? 'Baseline' : 'Optimized'} server</dt><dd>${r.configurations[k].serverAccount.length === 0 ? 'not recorded (the run kept no account of the server)' : html`<ul>${r.configurations[k].serverAccount.map((l) => html`<li>${l}</li>`)}</ul>`}</dd>`)}</dl>
${serverConfiguration(r)}<h2>Headline stats</h2>${handicaps(r)}${headlines(v)}
<h2>Fact tables</h2>${factTables(v)}
<h2>Charts</h2><p class="muted">One unit per chart; bars start at zero; baseline grey and first. List prices are never drawn on these scales.</p>
${v.bars.map(barFigure)}
${table === undefined ? curveFigures(v) : levelsTable(v, table)}
${statedFiguresSection(v)}${partsFiguresSection(v)}${paretoSection(v)}
${quality(v)}
${signatures(v)}<h2>Cost basis</h2><p>${r.costBasis.text}${r.costBasis.priceAsOf ? ` Rate as of ${r.costBasis.priceAsOf}.` : ''}</p>
<ul>${costFormulas(v)}</ul>
<h2>Workload</h2><p>The same automated load test on both sides: workload sha256:${r.workload.hash ?? 'not recorded'}, reconstructable from the stored contract.</p>
<ul>${r.workload.lines.map((l) => html`<li><code>${l}</code></li>`)}</ul>
<p class="muted">Contract sha256: baseline ${baseline.contractHash ?? 'not recorded'}, optimized ${optimized.contractHash ?? 'not recorded'}.</p>
<h2>Limitations</h2><ul id="limitations">${r.limitations.map((l) => html`<li>${l}</li>`)}</ul>
<h2>What we do not claim</h2><ul id="not-claimed">${notClaimed.map((t) => html`<li>${t}</li>`)}</ul>
<p class="muted">Machine-readable: <a href="dataset.json">dataset.json</a> (sha256:${datasetSha256}); generated by goodput ${generator}; share image: <a href="${r.id}.png">${r.id}.png</a>.</p>
${signerLine(signer)}`,
  );
}
