/**
 * A fleet's metrics as one scrape: the targets' own expositions merged, each
 * series labelled with the endpoint it came from (`instance`, as a Prometheus
 * server labels what it scrapes), or a Prometheus server's answer to an instant
 * query turned back into series. Either way the readers that sum a metric's
 * series (seriesValue) sum the replicas, and no replica's series hides another's.
 * Pure: the HTTP is telemetry's.
 */
import { z } from 'zod';
import { LIMITS, limitMessage } from './limits.js';
import { type PromSample, type PromScrape, type PromType, parsePromValue } from './prometheus-text.js';

/** A scrape of `samples` (with the `# TYPE`s that were declared, when known). */
export function scrapeOfSamples(samples: PromSample[], types: ReadonlyMap<string, PromType> = new Map()): PromScrape {
  const byName = new Map<string, PromSample[]>();
  for (const s of samples) {
    const list = byName.get(s.name);
    if (list) list.push(s);
    else byName.set(s.name, [s]);
  }
  return { samples, byName, types, badLines: [] };
}

/** The targets' scrapes as one, each series labelled `instance` with the endpoint it came from. */
export function mergeScrapes(parts: readonly { instance: string; scrape: PromScrape }[]): PromScrape {
  const types = new Map<string, PromType>();
  const samples: PromSample[] = [];
  for (const { instance, scrape } of parts) {
    for (const [k, v] of scrape.types) types.set(k, v);
    for (const s of scrape.samples) samples.push({ name: s.name, labels: { ...s.labels, instance }, value: s.value });
  }
  return scrapeOfSamples(samples, types);
}

const labelText = z.string().max(LIMITS.headerValueChars.max);

/** The query API's answer to an instant query (GET /api/v1/query), checked where it enters. */
const vectorAnswerSchema = z.object({
  status: z.literal('success'),
  data: z.object({
    resultType: z.literal('vector'),
    result: z
      .array(
        z.object({
          metric: z.record(z.string().max(256), labelText),
          value: z.tuple([z.number(), z.string().max(64)]),
        }),
      )
      .max(LIMITS.prometheusSeries.max, { error: (i) => limitMessage('prometheusSeries', (i.input as unknown[]).length, 'data.result') }),
  }),
});

/**
 * A Prometheus server's instant-query answer as a scrape, or why it is not one.
 * A series without `__name__` (a query that aggregated it away) or with a value
 * that is no number is refused by name: it cannot stand for a counter.
 */
export function scrapeOfVector(json: unknown): { ok: true; scrape: PromScrape } | { ok: false; error: string } {
  const parsed = vectorAnswerSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `not an instant vector from the query API: ${issue?.path.join('.') || 'answer'}: ${issue?.message ?? 'invalid'}` };
  }
  const samples: PromSample[] = [];
  for (const [i, r] of parsed.data.data.result.entries()) {
    const { __name__: name, ...labels } = r.metric;
    const value = parsePromValue(r.value[1]);
    if (name === undefined) return { ok: false, error: `data.result[${i}] has no __name__: the selector must pick series, not an aggregate` };
    if (value === null) return { ok: false, error: `data.result[${i}].value is not a number` };
    samples.push({ name, labels, value });
  }
  if (samples.length === 0) return { ok: false, error: 'the selector picks no series' };
  return { ok: true, scrape: scrapeOfSamples(samples) };
}
