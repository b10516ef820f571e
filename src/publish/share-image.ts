/**
 * A receipt's share image: the four headline stats (statistic and
 * configuration with each) drawn by web/view's share card, rasterized to a
 * 1200×630 PNG by resvg with an embedded font (Inter, from its npm package)
 * and no system fonts, so every machine draws the same pixels.
 */
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';
import { type ShareCardInput, SHARE_WIDTH, shareCardSvg } from '../web/index.js';
import type { ReceiptView } from './receipt-view.js';

const require = createRequire(import.meta.url);
const FONT_FILES = ['@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf', '@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf'].map((f) =>
  require.resolve(f),
);
const FONT_FAMILY = 'Inter';

export function shareCardInput(v: ReceiptView): ShareCardInput {
  const r = v.receipt;
  return {
    title: `${r.model} · ${r.hardware}${r.simulated ? ' · simulated' : ''}`,
    subtitle: `${r.configurations.optimized.method} · measured ${r.measuredAt}`,
    stats: v.headlines.map((h) => ({
      label: h.number.label,
      value: h.number.text,
      unit: h.number.unit,
      statistic: h.number.statistic,
      provenance: h.number.value === null ? 'not recorded' : h.number.provenance,
      configuration: h.number.configuration ?? '',
      change: h.change ? `${h.change.text}, ${h.verdictWord ?? ''}` : null,
    })),
    footer: [
      r.quality === null ? 'quality: not recorded' : `quality: ${r.quality.scaleNote} (evaluator ${r.quality.evaluatorId})`,
      `baseline: ${r.configurations.baseline.identity} · the same workload on both sides`,
      caveats(v),
    ].filter((line) => line !== ''),
  };
}

/** What a reader of the image alone must know: simulated figures, and changes whose direction one run cannot establish. */
function caveats(v: ReceiptView): string {
  const single = v.headlines.some((h) => h.verdict?.startsWith('no difference established (fewer than 3 runs') === true);
  return [
    v.receipt.simulated ? 'simulated: measured against the goodput simulator, not a real GPU' : '',
    single ? 'fewer than 3 runs a side: changes are stated without a direction' : '',
  ]
    .filter((x) => x !== '')
    .join(' · ');
}

export function shareSvg(v: ReceiptView): string {
  return shareCardSvg(shareCardInput(v), FONT_FAMILY);
}

export function sharePng(v: ReceiptView): Buffer {
  const resvg = new Resvg(shareSvg(v), {
    fitTo: { mode: 'width', value: SHARE_WIDTH },
    font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: FONT_FAMILY },
  });
  return resvg.render().asPng();
}
