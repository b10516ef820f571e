/**
 * The receipt's Pareto view, built only from its published facts: each
 * level's per-request rate (x) and its throughput per GPU (y, a derived fact),
 * or per server when the hardware label names no GPU count. The capacity
 * answer beside it is the page's (web/view capacityAt), and every figure it
 * states is a derived number of its own, listed in dataset.json with the
 * facts it was read from.
 */
import { type CapacityAnswer, type ParetoModel, type ParetoPoint, capacityAt, defaultTarget, num, paretoOf } from '../web/index.js';
import { CONFIGURATION_KEYS, type ConfigurationKey } from './fact.js';
import type { Receipt } from './receipt-schema.js';
import { type ViewNumber, factById, viewOfFact } from './view-number.js';

export interface ReceiptPareto {
  model: ParetoModel;
  /** The configurations in series order (baseline first). */
  configurations: readonly ConfigurationKey[];
  /** Each configuration's GPU count as recorded (or "not recorded"). */
  gpus: ViewNumber[];
  answer: CapacityAnswer | null;
  /** Per configuration (series order): its figure at the target and the cost per 1M output tokens there, derived. */
  capacity: Array<{ y: ViewNumber; cost: ViewNumber }>;
}

type LevelNumbers = ReadonlyArray<{ concurrency: number; numbers: readonly ViewNumber[] }>;

/** The published number a point plots: its per-request rate (x), or its throughput per GPU, or per server (y). */
export function pointNumber(levels: LevelNumbers, per: ParetoModel['per'], p: ParetoPoint, axis: 'x' | 'y'): ViewNumber | null {
  const metric = axis === 'x' ? 'perRequest' : per === 'GPU' ? 'throughputPerGpu' : 'throughput';
  return levels.find((l) => l.concurrency === p.level)?.numbers.find((n) => n.id.endsWith(`.c${p.level}.${metric}`)) ?? null;
}

export function receiptPareto(r: Receipt, levels: Record<ConfigurationKey, LevelNumbers>): ReceiptPareto {
  const value = (cfg: ConfigurationKey, id: string) => factById(r, `${cfg}.${id}`)?.value ?? null;
  const model = paretoOf(
    CONFIGURATION_KEYS.map((cfg) => ({
      label: cfg,
      gpus: value(cfg, 'gpuCount'),
      hourlyCostUsd: value(cfg, 'hourlyRate'),
      levels: r.curves[cfg].map((p) => ({
        level: p.concurrency,
        perRequestTokS: value(cfg, `c${p.concurrency}.perRequest`),
        throughputTokS: value(cfg, `c${p.concurrency}.throughput`) ?? Number.NaN,
        invalid: p.invalid,
        clientBound: p.clientBound,
      })),
    })),
  );
  const gpus = CONFIGURATION_KEYS.flatMap((cfg) => {
    const f = factById(r, `${cfg}.gpuCount`);
    return f === undefined ? [] : [viewOfFact(r, f)];
  });
  const target = defaultTarget(model);
  const answer = target === null ? null : capacityAt(model, target);
  const capacity =
    answer === null
      ? []
      : answer.entries.map((e, i) => {
          const cfg = CONFIGURATION_KEYS[i] as ConfigurationKey;
          const sources = e.from.flatMap((level) =>
            (['x', 'y'] as const).flatMap((axis) => pointNumber(levels[cfg], model.per, { level, x: 0, y: 0, state: 'valid' }, axis)?.id ?? []),
          );
          const rate = `${r.id}/${cfg}.hourlyRate`;
          const configuration = `${cfg}: ${r.configurations[cfg].identity}`;
          const base = { statistic: `at ${num(answer.target)} tok/s per user on the frontier`, configuration };
          const y: ViewNumber =
            e.y === null
              ? {
                  ...base,
                  id: `${r.id}/${cfg}.capacity`,
                  label: 'Capacity at the target',
                  value: null,
                  text: 'not recorded',
                  unit: `tok/s per ${model.per}`,
                  provenance: 'not recorded',
                  note: e.how,
                }
              : {
                  ...base,
                  id: `${r.id}/${cfg}.capacity`,
                  label: 'Capacity at the target',
                  value: e.y,
                  text: num(e.y),
                  unit: `tok/s per ${model.per}`,
                  provenance: 'derived',
                  note: e.how,
                  derivedFrom: sources,
                };
          const cost: ViewNumber =
            e.costPer1M === null
              ? {
                  ...base,
                  id: `${r.id}/${cfg}.capacityCostPer1M`,
                  label: 'Cost per 1M output tokens at the target',
                  value: null,
                  text: 'not recorded',
                  unit: 'USD',
                  provenance: 'not recorded',
                  note: e.y === null ? e.how : 'no hourly rate was recorded with the run',
                }
              : {
                  ...base,
                  id: `${r.id}/${cfg}.capacityCostPer1M`,
                  label: 'Cost per 1M output tokens at the target',
                  value: e.costPer1M,
                  text: num(e.costPer1M, 2),
                  unit: 'USD',
                  provenance: 'derived',
                  note: `GPU hourly rate ÷ (throughput at the target × 3600 s) × 1,000,000`,
                  derivedFrom: [y.id, rate, ...(model.per === 'GPU' ? [`${r.id}/${cfg}.gpuCount`] : [])],
                };
          return { y, cost };
        });
  return { model, configurations: CONFIGURATION_KEYS, gpus, answer, capacity };
}
