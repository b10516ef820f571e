/**
 * dataset.json, serialized from the site view-model the pages render. Every
 * JSON number in it sits in a ViewNumber (value, statistic, provenance,
 * configuration); versions and counts are strings, so a reader can trust that
 * each number is one a page shows.
 */
import type { ViewNumber } from './view-number.js';
import { receiptNumbers } from './receipt-view.js';
import { textModality } from './run-pair.js';
import type { SiteView } from './site-view.js';

export const DATASET_VERSION = 'goodput-dataset/1';

export function datasetOf(site: SiteView): unknown {
  const n = (x: ViewNumber) => ({ ...x });
  return {
    version: DATASET_VERSION,
    generator: `goodput ${site.generator}`,
    signedBy: site.signer,
    // Listed only by a site that lists measurers, so a site published before reads as it did.
    ...(site.measurers.length === 0 ? {} : { measurers: site.measurers }),
    notClaimed: site.notClaimed,
    changelog: site.changelog,
    receipts: site.receipts.map((v) => {
      const r = v.receipt;
      const cfg = (k: 'baseline' | 'optimized') => ({
        identity: r.configurations[k].identity,
        method: r.configurations[k].method,
        model: r.configurations[k].model,
        engine: r.configurations[k].engine,
        measuredAt: r.configurations[k].measuredAt,
        contractHash: r.configurations[k].contractHash,
        workloadHash: r.configurations[k].workloadHash,
        serverAccount: r.configurations[k].serverAccount,
      });
      return {
        id: r.id,
        page: v.page,
        title: r.title,
        model: r.model,
        hardware: r.hardware,
        hardwareDeclaredBy: 'the publisher',
        simulated: r.simulated,
        modality: r.modality ?? textModality(r.inputs),
        ...(r.inputs === undefined ? {} : { inputs: r.inputs }),
        measuredAt: r.measuredAt,
        configurations: { baseline: cfg('baseline'), optimized: cfg('optimized') },
        ...(r.serverConfiguration === undefined ? {} : { serverConfiguration: r.serverConfiguration }),
        workload: r.workload,
        costBasis: { text: r.costBasis.text, priceAsOf: r.costBasis.priceAsOf },
        quality:
          r.quality === null
            ? { line: 'quality: not recorded' }
            : {
                line: r.quality.line,
                verdict: r.quality.verdict,
                evaluator: r.quality.evaluator,
                scaleNote: r.quality.scaleNote,
                promptSetHash: r.quality.promptSetHash,
                referenceTextHash: r.quality.referenceTextHash,
              },
        headlines: v.headlines.map((h) => ({ number: h.number.id, change: h.change?.id ?? null, changeWords: h.changeWords, direction: h.direction })),
        charts: v.bars.map((b) => ({ id: b.id, title: b.title, subtitle: b.subtitle, numbers: b.numbers.map((x) => x.id) })),
        // The scaling curves the page draws and tabulates: per level, its state and its numbers (listed in `numbers`).
        curves: Object.fromEntries(
          (['baseline', 'optimized'] as const).map((k) => [
            k,
            v.levels[k].map((l) => ({
              concurrency: String(l.concurrency),
              state: l.invalid ? 'invalid' : l.clientBound ? 'client-bound' : 'valid',
              numbers: l.numbers.map((x) => x.id),
            })),
          ]),
        ),
        limitations: r.limitations,
        ...(v.standing === null
          ? {}
          : {
              standing: {
                hardware: v.standing.labels.hardware,
                simulated: v.standing.labels.simulated,
                engine: { baseline: v.standing.labels.baseline, optimized: v.standing.labels.optimized },
                ...(r.serverConfiguration === undefined ? {} : { serverConfiguration: v.standing.labels.configuration }),
              },
              runSignatures: v.standing.signatures,
            }),
        numbers: receiptNumbers(v).map((x) => (v.standing === null ? n(x) : { ...n(x), standing: v.standing.of(x.id) })),
      };
    }),
    prices: {
      capturedAt: site.prices.capturedAt,
      token: site.prices.token.map((t) => ({
        provider: t.provider,
        model: t.model,
        sourceUrl: t.sourceUrl,
        asOf: t.asOf,
        input: n(t.input),
        output: n(t.output),
      })),
      instance: site.prices.instance.map((t) => ({
        provider: t.provider,
        sku: t.sku,
        gpus: t.gpus,
        sourceUrl: t.sourceUrl,
        asOf: t.asOf,
        wholeInstance: n(t.whole),
        perGpuContextOnly: n(t.perGpu),
      })),
    },
  };
}

/** The file's text: stable key order, two-space indent, a final newline. */
export function datasetText(site: SiteView): string {
  return JSON.stringify(datasetOf(site), null, 2) + '\n';
}
