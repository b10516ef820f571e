/**
 * The share image of a receipt as an SVG string, 1200×630: the title and the
 * four headline stats, each with its value, unit, statistic, provenance and
 * configuration. Literal colours (no CSS variables) and one named font family,
 * so a rasterizer given that font draws it the same anywhere.
 */
import { COLORS } from './chart-lines.js';

export interface ShareStat {
  label: string;
  /** Value as printed, "1,234.5" or "not recorded". */
  value: string;
  unit: string;
  /** "p50 at concurrency 1". */
  statistic: string;
  /** "measured", "derived" or "not recorded": never cut off. */
  provenance: string;
  /** "optimized: bf16, fp8 quantization, vllm 0.9". */
  configuration: string;
  /** "+18 %, better against the baseline", or null. */
  change: string | null;
}

/** `footer`: up to three lines under the stats (the quality scale note and the caveats belong there, never cut short). */
export interface ShareCardInput {
  title: string;
  subtitle: string;
  stats: readonly ShareStat[];
  footer: readonly string[];
}

export const SHARE_WIDTH = 1200;
export const SHARE_HEIGHT = 630;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** Cuts text to `max` characters with an ellipsis: the image has fixed room. */
const fit = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);
/**
 * A configuration identity ("optimized: bf16, fp8 quantization, vllm 0.9.1")
 * on up to two lines, broken after a comma or a space: it is what tells the
 * configurations apart, so it wraps rather than being cut. Only past two full
 * lines is the end cut with an ellipsis.
 */
export function wrapIdentity(s: string, max: number): [string, string] {
  if (s.length <= max) return [s, ''];
  const cut = Math.max(s.lastIndexOf(', ', max - 1) + 1, s.lastIndexOf(' ', max));
  const at = cut > 0 ? cut : max;
  return [s.slice(0, at).trimEnd(), fit(s.slice(at).trimStart(), max)];
}

function stat(s: ShareStat, x: number, y: number, w: number, h: number): string {
  const t = (dy: number, size: number, fill: string, text: string, weight = 400) =>
    `<text x="${x + 24}" y="${y + dy}" font-size="${size}" font-weight="${weight}" fill="${fill}">${esc(text)}</text>`;
  const [id1, id2] = wrapIdentity(s.configuration, 54);
  return [
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="14" fill="#f9fafb" stroke="#d1d5db" stroke-width="2"/>`,
    t(34, 24, '#374151', fit(s.label, 40), 600),
    t(86, 52, '#111827', fit(`${s.value}${s.value === 'not recorded' ? '' : ` ${s.unit}`}`, 22), 700),
    t(116, 20, '#374151', `${fit(s.statistic, 50 - s.provenance.length)}, ${s.provenance}`),
    t(142, 19, COLORS.accent, id1),
    id2 === '' ? '' : t(164, 19, COLORS.accent, id2),
    s.change === null ? '' : t(id2 === '' ? 168 : 190, 19, '#374151', fit(s.change, 54)),
  ].join('');
}

export function shareCardSvg(input: ShareCardInput, fontFamily: string): string {
  const w = (SHARE_WIDTH - 3 * 40) / 2;
  const h = 206;
  const cells = input.stats.slice(0, 4).map((s, i) => stat(s, 40 + (i % 2) * (w + 40), 122 + Math.floor(i / 2) * (h + 14), w, h));
  const footer = input.footer
    .slice(0, 3)
    .map((line, i) => `<text x="40" y="${SHARE_HEIGHT - 60 + 22 * i}" font-size="16" fill="#374151">${esc(fit(line, 130))}</text>`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_WIDTH}" height="${SHARE_HEIGHT}" viewBox="0 0 ${SHARE_WIDTH} ${SHARE_HEIGHT}" font-family="${esc(fontFamily)}">` +
    `<rect width="${SHARE_WIDTH}" height="${SHARE_HEIGHT}" fill="#ffffff"/>` +
    `<rect width="${SHARE_WIDTH}" height="10" fill="${COLORS.accent}"/>` +
    `<text x="40" y="66" font-size="34" font-weight="700" fill="#111827">${esc(fit(input.title, 60))}</text>` +
    `<text x="40" y="106" font-size="22" fill="#374151">${esc(fit(input.subtitle, 95))}</text>` +
    cells.join('') +
    footer.join('') +
    '</svg>'
  );
}
