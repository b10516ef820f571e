/**
 * The list-price tables as view rows: per-token input and output rates in
 * their own columns, whole-instance prices as whole-instance with the per-GPU
 * figure marked context only. They are tables, never chart marks.
 */
import { num } from '../web/index.js';
import type { Prices } from './prices.js';
import type { ViewNumber } from './view-number.js';

export interface TokenPriceRow {
  provider: string;
  model: string;
  input: ViewNumber;
  output: ViewNumber;
  sourceUrl: string;
  asOf: string;
}
export interface InstancePriceRow {
  provider: string;
  sku: string;
  gpus: string;
  whole: ViewNumber;
  perGpu: ViewNumber;
  sourceUrl: string;
  asOf: string;
}

const price = (
  id: string,
  label: string,
  value: number,
  unit: string,
  statistic: string,
  note: string | null = null,
  provenance: ViewNumber['provenance'] = 'list price',
): ViewNumber => ({ id, label, value, text: num(value, 2), unit, statistic, provenance, configuration: null, note });

export function priceRows(p: Prices): { token: TokenPriceRow[]; instance: InstancePriceRow[] } {
  return {
    token: p.tokenPrices.map((r, i) => ({
      provider: r.provider,
      model: r.model,
      sourceUrl: r.sourceUrl,
      asOf: r.asOf,
      input: price(`prices/token/${i}/input`, `${r.provider} ${r.model} input`, r.inputUsdPer1M, 'USD per 1M input tokens', `list price as of ${r.asOf}`),
      output: price(`prices/token/${i}/output`, `${r.provider} ${r.model} output`, r.outputUsdPer1M, 'USD per 1M output tokens', `list price as of ${r.asOf}`),
    })),
    instance: p.instancePrices.map((r, i) => ({
      provider: r.provider,
      sku: r.sku,
      gpus: `${r.gpus} GPU${r.gpus === 1 ? '' : 's'}`,
      sourceUrl: r.sourceUrl,
      asOf: r.asOf,
      whole: price(
        `prices/instance/${i}/whole`,
        `${r.provider} ${r.sku} whole instance`,
        r.usdPerHourWholeInstance,
        'USD per hour, whole instance',
        `list price as of ${r.asOf}`,
      ),
      perGpu: price(
        `prices/instance/${i}/per-gpu`,
        `${r.provider} ${r.sku} per GPU`,
        r.usdPerHourWholeInstance / r.gpus,
        'USD per GPU-hour',
        `whole-instance list price ÷ ${r.gpus} GPUs`,
        'context only: the instance is rented whole',
        'derived',
      ),
    })),
  };
}
