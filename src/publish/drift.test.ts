/**
 * Pages and dataset.json cannot drift: every number marked on any page is in
 * the dataset with the same value, statistic and provenance, every number in
 * the dataset is marked on a page, and the dataset holds no JSON number
 * outside such an entry.
 */
import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import { qualityNoise, qualityScoreSchema } from '../core/index.js';
import { qualityFixture } from '../test-support/quality-fixture.js';
import { contract, level, receiptPair, resultOf } from '../test-support/receipt-fixture.js';
import { type Prices } from './prices.js';
import { type Receipt } from './receipt-schema.js';
import { buildReceipt } from './build-receipt.js';
import { renderSite } from './publish-site.js';

interface Entry {
  id: string;
  value: number | null;
  text: string;
  statistic: string;
  provenance: string;
  configuration: string | null;
  levelState: string | null;
}
interface DatasetNumber {
  id: string;
  unit: string;
  text: string;
  note: string | null;
  levelState?: string;
}
interface DatasetReceipt {
  id: string;
  numbers: DatasetNumber[];
  curves: Record<'baseline' | 'optimized', Array<{ concurrency: string; state: string; numbers: string[] }>>;
}

const PRICES: Prices = {
  tokenPrices: [
    { provider: 'Example Cloud', model: 'demo-model', inputUsdPer1M: 0.5, outputUsdPer1M: 1.5, sourceUrl: 'https://example.com/pricing', asOf: '2026-06-01' },
  ],
  instancePrices: [
    { provider: 'Example Cloud', sku: 'example-8gpu', gpus: 8, usdPerHourWholeInstance: 40, sourceUrl: 'https://example.com/instances', asOf: '2026-06-02' },
  ],
};

let pages: Map<string, Entry[]>;
let docs: Map<string, ReturnType<typeof parseHTML>['document']>;
let dataset: Entry[];
let json: { receipts: DatasetReceipt[]; prices: { token: Array<Record<string, unknown>>; instance: Array<Record<string, unknown>> } };
/** Every number of dataset.json by id: its unit, text and note. */
let byId: Map<string, DatasetNumber>;
let strayNumbers: string[];

function receipts(): Receipt[] {
  // The first on hardware naming its GPU count (per-GPU figures), the second on a label without one (per server).
  const pair = receiptPair('2× Test GPU 24GB');
  const fixture = qualityFixture();
  // A score carrying its own noise (the fixture's prompts disagree by 0.02 nats).
  const kl = fixture.components.kl;
  const perPrompt = [kl.value - 0.01, kl.value + 0.01];
  const term = fixture.components.pplDelta.value === null ? null : fixture.components.pplDelta.term;
  const noisy = { ...fixture, components: { ...fixture.components, kl: { ...kl, perPrompt } }, noise: qualityNoise(perPrompt, term) ?? undefined };
  const one = buildReceipt({ ...pair, quality: qualityScoreSchema.parse(noisy), method: 'FP8 dynamic quantization', generator: '0.1.0' });
  // A second receipt with an invalid single-stream level (its not-recorded numbers must drift-check too) and a client-bound level.
  const bound = level({ c: 4, tokS: 210, perReq: 52, ttft: [60, 90], tpot: 12, e2e: 800 });
  bound.clientBound = { ...bound.clientBound, bound: true, reason: "the client's event loop was delayed 80.0 ms (p99); budget 50 ms" };
  const broken = resultOf(contract({ quantization: 'int4' }), [
    level({ c: 1, tokS: 120, perReq: 120, ttft: [35, 50], tpot: 8, e2e: 540, failed: 1 }),
    level({ c: 2, tokS: 200, perReq: 100, ttft: [40, 60], tpot: 9, e2e: 600 }),
    bound,
  ]);
  const two = buildReceipt({ baseline: receiptPair().baseline, optimized: broken, quality: null, method: 'INT4 weight-only', generator: '0.1.0' });
  if (!one.ok || !two.ok) throw new Error('fixture receipts refused');
  return [one.receipt, two.receipt];
}

function walk(x: unknown, path: string, out: Entry[], stray: string[]): void {
  if (typeof x === 'number') stray.push(path);
  else if (Array.isArray(x)) x.forEach((v, i) => walk(v, `${path}[${i}]`, out, stray));
  else if (x !== null && typeof x === 'object') {
    const o = x as Record<string, unknown>;
    if ('value' in o && 'statistic' in o && 'provenance' in o) {
      out.push({
        id: String(o.id),
        value: o.value as number | null,
        text: String(o.text),
        statistic: String(o.statistic),
        provenance: String(o.provenance),
        configuration: (o.configuration as string | null) ?? null,
        levelState: (o.levelState as string | undefined) ?? null,
      });
      return;
    }
    for (const [k, v] of Object.entries(o)) walk(v, `${path}.${k}`, out, stray);
  }
}

beforeAll(() => {
  const site = renderSite(receipts(), PRICES, '0.1.0');
  expect(site.violations).toEqual([]);
  pages = new Map();
  docs = new Map();
  for (const [name, body] of site.files) {
    if (!name.endsWith('.html')) continue;
    const { document } = parseHTML(String(body));
    docs.set(name, document);
    pages.set(
      name,
      [...document.querySelectorAll('data[data-fact]')].map((d) => ({
        id: d.getAttribute('data-fact') as string,
        value: d.getAttribute('value') === '' ? null : Number(d.getAttribute('value')),
        text: d.textContent ?? '',
        statistic: d.getAttribute('data-statistic') as string,
        provenance: d.getAttribute('data-provenance') as string,
        configuration: d.getAttribute('data-configuration'),
        levelState: d.getAttribute('data-level-state'),
      })),
    );
  }
  dataset = [];
  strayNumbers = [];
  json = JSON.parse(String(site.files.get('dataset.json'))) as typeof json;
  walk(json, '', dataset, strayNumbers);
  byId = new Map(json.receipts.flatMap((r) => r.numbers.map((n) => [n.id, n] as const)));
  for (const row of [...json.prices.token, ...json.prices.instance]) {
    for (const x of Object.values(row)) if (x !== null && typeof x === 'object' && 'id' in x) byId.set(String(x.id), x as DatasetNumber);
  }
});

/** What must agree between a page and dataset.json, including whether a per-level number's level is invalid or client-bound. */
const key = (e: Entry) => JSON.stringify([e.id, e.value, e.statistic, e.provenance, e.configuration, e.levelState]);

describe('pages and dataset.json', () => {
  it('render numbers at all: both receipt pages and the index carry marked numbers', () => {
    expect(pages.size).toBe(3);
    for (const [name, entries] of pages) expect(entries.length, name).toBeGreaterThan(name === 'index.html' ? 3 : 40);
    expect(dataset.some((e) => e.value === null && e.provenance === 'not recorded')).toBe(true);
  });

  it('every number on a page is in dataset.json with the same value, statistic, provenance and configuration', () => {
    const inDataset = new Set(dataset.map(key));
    const missing = [...pages].flatMap(([name, entries]) => entries.filter((e) => !inDataset.has(key(e))).map((e) => `${name}: ${e.id}`));
    expect(missing).toEqual([]);
  });

  it('every number in dataset.json is on a page', () => {
    const shown = new Set([...pages.values()].flatMap((entries) => entries.map(key)));
    expect(dataset.filter((e) => !shown.has(key(e))).map((e) => e.id)).toEqual([]);
  });

  it('the dataset has no number outside a labelled entry, and each entry has a named statistic and a provenance', () => {
    expect(strayNumbers).toEqual([]);
    for (const e of dataset) {
      expect(e.statistic.trim(), e.id).not.toBe('');
      expect(['measured', 'derived', 'not recorded', 'recorded', 'list price']).toContain(e.provenance);
      expect(e.text === 'not recorded').toBe(e.value === null);
    }
  });

  it('list prices appear only on the index, in tables', () => {
    const prices = [...pages].flatMap(([name, entries]) => entries.filter((e) => e.id.startsWith('prices/')).map(() => name));
    expect(new Set(prices)).toEqual(new Set(['index.html']));
  });

  it('no chart on any page draws a price: no price id, vendor, price unit or price figure inside any <svg>', () => {
    const prices = [...byId.values()].filter((n) => n.id.startsWith('prices/'));
    expect(prices.length).toBe(4);
    const forbidden = ['prices/', 'Example Cloud', 'example-8gpu', ...new Set(prices.map((n) => n.unit)), ...prices.map((n) => `${n.text} ${n.unit}`)];
    let svgs = 0;
    for (const [name, document] of docs) {
      for (const svg of document.querySelectorAll('svg')) {
        svgs += 1;
        const drawn = svg.outerHTML;
        for (const f of forbidden) expect(drawn.includes(f), `${name}: an <svg> holds ${JSON.stringify(f)}`).toBe(false);
        expect(svg.querySelectorAll('data').length, `${name}: an <svg> holds marked numbers`).toBe(0);
      }
    }
    // Each receipt with a Pareto view draws it twice: wide, and narrow for a phone (one shown by the window's width).
    expect(svgs).toBe(20);
  });

  it("every chart's data table holds measured numbers of this receipt only, one unit per column, and the chart names that unit", () => {
    let figures = 0;
    for (const [name, document] of docs) {
      for (const figure of document.querySelectorAll('figure.chart')) {
        figures += 1;
        const id = `${name} #${figure.getAttribute('id') ?? '?'}`;
        const rows = [...figure.querySelectorAll('details table tbody tr')].map((tr) => [...tr.querySelectorAll('td')]);
        const units = new Map<number, Set<string>>();
        for (const cells of rows) {
          cells.forEach((td, col) => {
            const d = td.querySelector('data[data-fact]');
            if (d === null) return;
            const n = byId.get(d.getAttribute('data-fact') as string);
            expect(n, `${id}: ${d.getAttribute('data-fact')} is not in dataset.json`).toBeDefined();
            expect(n?.id.startsWith('prices/'), `${id}: ${n?.id}`).toBe(false);
            units.set(col, new Set([...(units.get(col) ?? []), n?.unit ?? '?']));
          });
        }
        expect(units.size, `${id}: its data table has no marked numbers`).toBeGreaterThan(0);
        for (const [col, set] of units) expect([...set], `${id}: column ${col + 1} mixes units`).toHaveLength(1);
        const svgText = [...figure.querySelectorAll('svg text')].map((t) => t.textContent ?? '').join(' | ');
        if (figure.getAttribute('id') === 'chart-pareto') {
          // Two axes: the per-request rate (tok/s) and output tok/s per GPU, or per server (the level's throughput) when the GPU count is not recorded.
          const [x, y] = [[...(units.get(1) ?? [])][0], [...(units.get(2) ?? [])][0]];
          expect(x, id).toBe('tok/s');
          expect(svgText, id).toContain('tok/s per user (mean per-request rate)');
          expect(svgText, id).toContain(y === 'tok/s per GPU' ? 'Output tok/s per GPU' : 'Output tok/s per server (GPU count not recorded)');
          expect(['tok/s per GPU', 'tok/s'], id).toContain(y);
          continue;
        }
        const plotted = [...(units.get(0) ?? [])][0] as string;
        expect(svgText, `${id}: the chart does not name its unit ${plotted}`).toContain(`(${plotted}`);
        // A bar chart is one figure by configuration: every bar in one unit.
        if (!/^chart-(throughput|per-request|ttft)$/.test(figure.getAttribute('id') ?? ''))
          expect(new Set([...units.values()].flatMap((u) => [...u])).size, id).toBe(1);
      }
    }
    expect(figures).toBe(18);
  });

  it('the Pareto view plots per-GPU throughput derived from the level throughput and the GPU count, and states its capacity answer as derived numbers', () => {
    const [perGpu, perServer] = json.receipts;
    const n = (id: string) => byId.get(id) as DatasetNumber & { value: number | null; provenance: string; derivedFrom?: string[]; statistic: string };
    for (const cfg of ['baseline', 'optimized']) {
      const gpus = n(`${perGpu?.id}/${cfg}.gpuCount`);
      expect([gpus.value, gpus.provenance]).toEqual([2, 'recorded']);
      for (const c of [1, 2]) {
        const y = n(`${perGpu?.id}/${cfg}.c${c}.throughputPerGpu`);
        const t = n(`${perGpu?.id}/${cfg}.c${c}.throughput`);
        expect([y.value, y.unit, y.provenance, y.derivedFrom]).toEqual([(t.value as number) / 2, 'tok/s per GPU', 'derived', [t.id, gpus.id]]);
      }
      // Without a GPU count in the label: the count is "not recorded", no per-GPU figure is invented, the chart is per server.
      expect(n(`${perServer?.id}/${cfg}.gpuCount`).provenance).toBe('not recorded');
      expect(byId.has(`${perServer?.id}/${cfg}.c1.throughputPerGpu`)).toBe(false);
    }
    const page = docs.get(`${perGpu?.id}.html`);
    const cells = [...(page?.querySelectorAll('#chart-pareto details td data[data-fact]') ?? [])].map((d) => d.getAttribute('data-fact'));
    expect(cells).toContain(`${perGpu?.id}/optimized.c2.throughputPerGpu`);
    expect(cells).toContain(`${perGpu?.id}/optimized.c2.perRequest`);
    const sentence = page?.querySelector('#pareto .capacity')?.textContent ?? '';
    // The two frontiers do not overlap (baseline 90–100, optimized 150–160 tok/s per user): the target is the middle of one, the other is not extrapolated to it.
    expect(sentence).toBe(
      "At 95.0 tok/s per user, baseline serves the most: 70.0 output tok/s per GPU (interpolated between levels 1 and 2), $3.97 per 1M output tokens at the run's hourly cost.",
    );
    const capacity = n(`${perGpu?.id}/baseline.capacity`);
    expect([capacity.value, capacity.unit, capacity.provenance]).toEqual([70, 'tok/s per GPU', 'derived']);
    expect(capacity.derivedFrom).toEqual([1, 2].flatMap((c) => [`${perGpu?.id}/baseline.c${c}.perRequest`, `${perGpu?.id}/baseline.c${c}.throughputPerGpu`]));
    const cost = n(`${perGpu?.id}/baseline.capacityCostPer1M`);
    expect(cost.value).toBeCloseTo((2 / (70 * 2 * 3600)) * 1e6, 9);
    const outside = n(`${perGpu?.id}/optimized.capacity`);
    expect([outside.value, outside.provenance, outside.note]).toEqual([
      null,
      'not recorded',
      'not measured at this speed (150.0–160.0 tok/s per user tested; never extrapolated)',
    ]);
    expect(page?.querySelector(`#pareto .capacity-table data[data-fact="${capacity.id}"]`)).not.toBeNull();
    expect(docs.get(`${perServer?.id}.html`)?.querySelector('#chart-pareto svg')?.textContent).toContain('Output tok/s per server (GPU count not recorded)');
  });

  it('the quality score states its own noise as a measured number, and its verdict against the baseline beside it', () => {
    const [withNoise, without] = json.receipts;
    const noise = byId.get(`${withNoise?.id}/optimized.qualityNoise`) as DatasetNumber & { value: number | null; provenance: string };
    expect(noise.provenance).toBe('measured');
    expect(noise.value).toBeGreaterThan(0);
    const page = docs.get(`${withNoise?.id}.html`);
    expect(page?.querySelector(`#quality data[data-fact="${noise.id}"]`)).not.toBeNull();
    const verdict = page?.querySelector('#quality-verdict')?.textContent ?? '';
    expect(verdict).toMatch(/^Against the baseline: (worse than|no difference established from) the baseline \(which scores exactly 1 against itself\)/);
    expect((json.receipts[0] as unknown as { quality: { verdict: string } }).quality.verdict).toBe(verdict.replace(/^Against the baseline: /, ''));
    expect((without as unknown as { quality: { line: string } }).quality.line).toBe('quality: not recorded');
  });

  it("an invalid or client-bound level's numbers say so on the page and in dataset.json, with the reason in their note", () => {
    const flagged: Array<[string, string]> = [];
    for (const [name, document] of docs) {
      for (const td of document.querySelectorAll(['throughput', 'per-request', 'ttft'].map((c) => `figure#chart-${c} details td`).join(', '))) {
        const d = td.querySelector('data[data-fact]');
        if (d === null) continue;
        const shown = /\(invalid level\)$/.test(td.textContent ?? '') ? 'invalid' : /\(client-bound\)$/.test(td.textContent ?? '') ? 'client-bound' : 'valid';
        const fact = d.getAttribute('data-fact') as string;
        expect(d.getAttribute('data-level-state'), `${name}: ${fact}`).toBe(shown);
        const n = byId.get(fact);
        expect(n?.levelState, `dataset.json ${fact}`).toBe(shown);
        if (shown === 'valid') continue;
        flagged.push([fact, shown]);
        expect(n?.note, `dataset.json ${fact}`).toMatch(
          shown === 'invalid' ? /^invalid level: 1 of 8 requests failed \(timeout 1\)/ : /^client-bound: the client's event loop was delayed 80\.0 ms/,
        );
        expect(td.getAttribute('title')).toBe(n?.note);
      }
    }
    const id = json.receipts.find((r) => r.curves.optimized.length === 3)?.id as string;
    const level = (c: number) => ['throughput', 'perRequest', 'ttftP50', 'ttftP95', 'failed'].map((m) => `${id}/optimized.c${c}.${m}`);
    // Each table cell once: the throughput and TTFT tables list different metrics of the same levels.
    expect(new Map(flagged)).toEqual(new Map([...level(1).map((f) => [f, 'invalid'] as const), ...level(4).map((f) => [f, 'client-bound'] as const)]));
    const curves = json.receipts.find((r) => r.id === id)?.curves.optimized;
    expect(curves?.map((l) => [l.concurrency, l.state])).toEqual([
      ['1', 'invalid'],
      ['2', 'valid'],
      ['4', 'client-bound'],
    ]);
    expect(curves?.[0]?.numbers).toEqual(level(1));
  });
});
