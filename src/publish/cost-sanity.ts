/**
 * Cost sanity: the hourly rate a receipt's cost divides is what the publisher
 * pays for the whole server, so it cannot be below what the publisher's own
 * price table cites for that many of the GPU. "8× H100" at one H100's hourly
 * price would understate every cost per million tokens eightfold; the gate
 * refuses it, naming the rate, the cited row and the GPU count, and the fix is
 * to cite the price actually paid (a row with its source and date).
 */
import { gpuCount } from '../web/index.js';
import { CONFIGURATION_KEYS } from './fact.js';
import type { InstancePrice, Prices } from './prices.js';
import type { Receipt } from './receipt-schema.js';
import { type Violation, violation, who } from './violation.js';

/** GPU model names in a hardware label ("8× H100 SXM 80GB" → H100, "MI300X"), not memory sizes. */
export function gpuModels(label: string): string[] {
  return [...label.matchAll(/\b([a-z]{1,3}\d{1,4}[a-z]?)\b/gi)]
    .map((m) => m[1] as string)
    .filter((t) => !/\d(?:gb|tb)$/i.test(t) && !/^(?:sxm|pcie|nvl)\d*$/i.test(t));
}

/** The cited instance rows for a label's GPU: provider or SKU names one of its models as a word. */
function citedFor(label: string, prices: Prices): InstancePrice[] {
  const models = gpuModels(label).map((m) => new RegExp(`\\b${m}\\b`, 'i'));
  return prices.instancePrices.filter((row) => models.some((re) => re.test(`${row.provider} ${row.sku}`)));
}

/** An hourly rate below the cheapest cited per-GPU price times the label's GPU count (one when it names none). */
export function costSanity(r: Receipt, prices: Prices): Violation[] {
  const rows = citedFor(r.hardware, prices);
  if (rows.length === 0) return [];
  const perGpu = (row: InstancePrice) => row.usdPerHourWholeInstance / row.gpus;
  const cheapest = rows.reduce((a, b) => (perGpu(b) < perGpu(a) ? b : a));
  const gpus = gpuCount({ gpuLabel: r.hardware }) ?? 1;
  const floor = perGpu(cheapest) * gpus;
  return CONFIGURATION_KEYS.flatMap((cfg) => {
    const rate = r.facts.find((f) => f.id === `${cfg}.hourlyRate`);
    if (rate === undefined || rate.value === null || rate.value >= floor * (1 - 1e-9)) return [];
    return [
      violation(
        'cost-cited',
        who(r, rate),
        `is ${rate.value} USD/h for ${r.hardware}, below ${gpus} × ${perGpu(cheapest)} USD/h, the cheapest per-GPU price cited (${cheapest.provider} ${cheapest.sku}, ${cheapest.sourceUrl}); cite the price paid as an instance row, or state the rate of every GPU the label names`,
      ),
    ];
  });
}
