/**
 * The price file: the shipped template parses and holds no prices; rows are
 * validated naming the field; whole-instance rows get a per-GPU figure marked
 * context only, and per-token rates stay in two columns.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { priceRows } from './price-view.js';
import { pricesCapturedAt, readPrices } from './prices.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-prices-'));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe('price files', () => {
  it('the template in examples/ parses and carries no prices', async () => {
    const r = await readPrices(fileURLToPath(new URL('../../examples/prices.yaml', import.meta.url)));
    expect(r).toEqual({ ok: true, prices: { tokenPrices: [], instancePrices: [] } });
  });

  it('reads JSON too, keeps input and output apart, and marks the per-GPU figure as context only', async () => {
    const r = await readPrices(
      file(
        'p.json',
        JSON.stringify({
          tokenPrices: [{ provider: 'Example', model: 'm', inputUsdPer1M: 0.25, outputUsdPer1M: 1.25, sourceUrl: 'https://example.com/a', asOf: '2026-05-01' }],
          instancePrices: [{ provider: 'Example', sku: 'x8', gpus: 8, usdPerHourWholeInstance: 50, sourceUrl: 'https://example.com/b', asOf: '2026-05-03' }],
        }),
      ),
    );
    if (!r.ok) throw new Error(r.problems.join('\n'));
    expect(pricesCapturedAt(r.prices)).toBe('2026-05-03');
    const rows = priceRows(r.prices);
    expect([rows.token[0]?.input.value, rows.token[0]?.output.value]).toEqual([0.25, 1.25]);
    expect(rows.instance[0]?.whole).toMatchObject({ value: 50, unit: 'USD per hour, whole instance', provenance: 'list price' });
    expect(rows.instance[0]?.perGpu).toMatchObject({
      value: 6.25,
      unit: 'USD per GPU-hour',
      note: 'context only: the instance is rented whole',
      statistic: 'whole-instance list price ÷ 8 GPUs',
    });
  });

  it('names each bad field, and says when the file is not YAML or missing', async () => {
    const bad = await readPrices(
      file(
        'bad.yaml',
        'instancePrices:\n  - { provider: X, sku: y, gpus: 0, usdPerHourWholeInstance: -1, sourceUrl: "https://example.com", asOf: 2026-01-01 }\n',
      ),
    );
    expect(bad.ok === false && bad.problems).toEqual([
      expect.stringMatching(/bad\.yaml: instancePrices\.0\.gpus: gpus must be a whole number ≥ 1$/),
      expect.stringMatching(/bad\.yaml: instancePrices\.0\.usdPerHourWholeInstance: usdPerHourWholeInstance must not be negative$/),
    ]);
    const notYaml = await readPrices(file('x.yaml', 'tokenPrices: [\n'));
    expect(notYaml.ok === false && notYaml.problems[0]).toMatch(/x\.yaml: not valid YAML/);
    const missing = await readPrices(join(dir, 'none.yaml'));
    expect(missing.ok === false && missing.problems[0]).toMatch(/none\.yaml: cannot be read \(ENOENT\)/);
  });
});
