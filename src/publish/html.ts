/**
 * HTML helpers of the static site: escaping, the page frame with its inline
 * CSS (no remote scripts, fonts or styles), and the marked number — every
 * rendered number is a `<data>` element carrying its fact id, statistic and
 * provenance, which is how the drift test reads pages back.
 */
import { Raw, esc, html } from '../web/index.js';
import { viewStatistic, type ViewNumber } from './view-number.js';

/** The escaping, tagged template and wide-table frame of the page's markup: one implementation for the page, the report and the site. */
export { Raw, esc, html, scrollFrame } from '../web/index.js';

/** Who stands behind the site: the key that signs its manifest, or that nobody does. */
export function signerLine(signer: string | null): Raw {
  return signer === null
    ? html`<p class="muted" id="signer">Not signed: no publisher key stands behind these files.</p>`
    : html`<p class="muted" id="signer">Signed by the publisher's key <code>${signer}</code>: every file's size and SHA-256 are in <a href="manifest.dsse.json">manifest.dsse.json</a>; check it with <code>goodput verify --key-id ${signer}</code>.</p>`;
}

/** The number as a `<data>` element (a per-level number also carries its level's state); `withStatistic` adds "(p50, measured)" after it. */
export function dataNumber(n: ViewNumber, o: { unit?: boolean; withStatistic?: boolean } = {}): Raw {
  const unit = o.unit && n.value !== null ? ` ${n.unit}` : '';
  return html`<data value="${n.value === null ? '' : String(n.value)}" data-fact="${n.id}" data-statistic="${n.statistic}" data-provenance="${n.provenance}"${new Raw(
    n.configuration === null ? '' : ` data-configuration="${esc(n.configuration)}"`,
  )}${new Raw(n.levelState === undefined ? '' : ` data-level-state="${n.levelState}"`)}>${n.text}${unit}</data>${
    o.withStatistic ? html` <span class="stat">(${viewStatistic(n)})</span>` : ''
  }`;
}

const CSS = `
:root{color-scheme:light;--fg:#111827;--muted:#4b5563;--line:#d1d5db;--accent:#1d4ed8;--base:#6b7280;--bad:#b91c1c}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:#fff}
main{max-width:1040px;margin:0 auto;padding:24px}h1{font-size:1.6rem;margin:.2em 0}h2{font-size:1.2rem;margin-top:2em;border-bottom:1px solid var(--line)}
a{color:var(--accent)}.muted,.stat{color:var(--muted)}.stat{font-size:.85em}
table{border-collapse:collapse;width:100%;margin:.5em 0 1em;font-variant-numeric:tabular-nums}caption{text-align:left;font-weight:600;padding:.3em 0}
th,td{border-bottom:1px solid var(--line);padding:.35em .5em;text-align:left;vertical-align:top;min-width:6.5em}td.n{text-align:right}td.n data{white-space:nowrap}
.table-wrap{overflow-x:auto;max-width:100%;background:linear-gradient(to right,#fff 30%,rgba(255,255,255,0)) left/40px 100% no-repeat local,linear-gradient(to left,#fff 30%,rgba(255,255,255,0)) right/40px 100% no-repeat local,radial-gradient(farthest-side at 0 50%,rgba(0,0,0,.28),transparent) left/14px 100% no-repeat scroll,radial-gradient(farthest-side at 100% 50%,rgba(0,0,0,.28),transparent) right/14px 100% no-repeat scroll}
.table-wrap>table{margin:0}.table-wrap>table>caption{position:sticky;left:0;max-width:calc(100vw - 48px)}thead th{min-width:10em}#facts thead th:nth-child(n+3){min-width:15em}main{overflow-wrap:anywhere}
.headlines{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:12px;padding:0;list-style:none}
.headline{border:1px solid var(--line);border-radius:8px;padding:12px}.headline .value{font-size:1.7rem;font-weight:700}
.headline .cfg{font-size:.85em;color:var(--muted)}figure.chart{margin:1.5em 0}figcaption strong{display:block}
.note{border-left:4px solid var(--accent);padding:.5em 1em;background:#f3f4f6}.invalid{color:var(--bad)}
svg{max-width:100%;height:auto}
td.num{text-align:right}.chart-svg .narrow{display:none}
@media (max-width:640px){.chart-svg .wide{display:none}.chart-svg .narrow{display:inline}
#facts,#facts tbody,#facts tr,#facts th,#facts td,#facts caption{display:block;min-width:0;width:auto;text-align:left}
#facts thead{display:none}#facts tr{border-bottom:1px solid var(--line);padding:.4em 0}
#facts th,#facts td{border:0;padding:.1em 0}#facts td.n data{white-space:normal}#facts td[data-label]::before{content:attr(data-label) ": ";color:var(--muted);font-size:.85em}}
figcaption .subtitle,figcaption .legend{display:block;color:var(--muted);font-size:.9em}.hint{color:var(--muted);font-size:.9em}.capacity-table td.num data{white-space:nowrap}
`;

export function page(title: string, body: Raw): string {
  return `<!doctype html>\n${
    html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>${new Raw(CSS)}</style></head><body><main>${body}</main></body></html>`.html
  }\n`;
}
