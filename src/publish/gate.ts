/**
 * The provenance gate: a pure function over the receipts, the price table and
 * the dataset about to be published. It returns every violation (empty means
 * publishable); `goodput publish` refuses and writes nothing on any.
 */
import { INTERNAL_HOSTS, internalSourceHost } from '../core/index.js';
import { type Prices } from './prices.js';
import { type GateRule, RECEIPT_RULES, type Violation, violation } from './gate-rules.js';
import type { Receipt } from './receipt-schema.js';
import { costSanity } from './cost-sanity.js';

export type { GateRule, Violation };

/** Strings that identify our machines, runs or secrets: never in a public dataset. */
const INTERNAL: ReadonlyArray<[RegExp, string]> = [
  [/\bhttps?:\/\/\S+/i, 'a URL'],
  ...INTERNAL_HOSTS,
  [/\b(sk|pk|api|key)-[A-Za-z0-9_-]{6,}/, 'an API key'],
  [/\bBearer\s+\S+/i, 'a bearer token'],
  [/\b(stored )?runs? (ids? )?#?\d+\b/i, 'a stored run id'],
  // Two or more segments after a leading slash (an API route like /v1/completions names no machine), ~/…, C:\…
  [/(?:^|[\s"'(=])((?!\/v1\/|\/api\/)(?:\/[\w.@+-]+){2,}\/?|~\/\S+|[A-Za-z]:\\\S+)/, 'a file path'],
  [/\b(?:[a-z][a-z0-9-]*\.)+[a-z][a-z0-9-]*:\d{2,5}\b/i, 'a host and port'],
];
const INTERNAL_KEYS = /^(url|baseUrl|targetUrl|host|hostname|runId|serverId|apiKey|command)$/i;

function scan(value: unknown, path: string, out: Violation[]): void {
  if (typeof value === 'string') {
    // Price rows cite their source: that one URL per row is the point.
    if (/\.sourceUrl$/.test(path)) return;
    for (const [re, what] of INTERNAL) {
      if (re.test(value))
        out.push(
          violation(
            'no-internal-identifiers',
            `dataset.json ${path}`,
            `contains ${what} (${JSON.stringify(value.match(re)?.[0])}); internal identifiers never ship`,
          ),
        );
    }
  } else if (Array.isArray(value)) value.forEach((x, i) => scan(x, `${path}[${i}]`, out));
  else if (value !== null && typeof value === 'object') {
    for (const [k, x] of Object.entries(value)) {
      if (INTERNAL_KEYS.test(k)) out.push(violation('no-internal-identifiers', `dataset.json ${path}.${k}`, 'is an internal identifier field'));
      scan(x, `${path}.${k}`, out);
    }
  }
}

/**
 * A price's source is the one URL a dataset ships, so its host gets the
 * dataset's host rules: a page at a loopback, IP-literal (link-local and
 * private included), IPv6-literal or internal name is no public citation.
 */
function sourceHostViolations(name: string, sourceUrl: string): Violation[] {
  const bad = internalSourceHost(sourceUrl);
  if (bad === null) return [];
  return [
    violation(
      'no-internal-identifiers',
      `${name} sourceUrl`,
      `cites a page at ${bad.why} (${JSON.stringify(bad.host)}); a price's source is a public page a reader can open`,
    ),
  ];
}

function priceCitations(p: Prices): Violation[] {
  const rows = [
    ...p.tokenPrices.map((r, i) => [`prices token row ${i + 1} (${r.provider} ${r.model})`, r] as const),
    ...p.instancePrices.map((r, i) => [`prices instance row ${i + 1} (${r.provider} ${r.sku})`, r] as const),
  ];
  return rows.flatMap(([name, r]) => [
    ...(/^https?:\/\/[^\s/]+\.[^\s]+/.test(r.sourceUrl) ? [] : [violation('price-cited', name, `has no http(s) source URL ("${r.sourceUrl}")`)]),
    ...sourceHostViolations(name, r.sourceUrl),
    ...(/^\d{4}-\d{2}-\d{2}$/.test(r.asOf) ? [] : [violation('price-cited', name, `has no as-of date ("${r.asOf}")`)]),
  ]);
}

export interface GateInput {
  receipts: readonly Receipt[];
  prices: Prices;
  dataset: unknown;
}

/** The rules over receipts and prices: checked first, since a view cannot be built of a broken receipt. */
export function gateSources(receipts: readonly Receipt[], prices: Prices): Violation[] {
  const out: Violation[] = [];
  const ids = new Set<string>();
  for (const r of receipts) {
    if (ids.has(r.id)) out.push(violation('unique-ids', `receipt ${r.id}`, 'is given twice; receipts must have distinct ids'));
    ids.add(r.id);
    for (const rule of RECEIPT_RULES) out.push(...rule(r));
    out.push(...costSanity(r, prices));
  }
  return [...out, ...priceCitations(prices)];
}

/** The rule over the dataset about to ship: no internal identifiers anywhere in it. */
export function gateDataset(dataset: unknown): Violation[] {
  const out: Violation[] = [];
  scan(dataset, '', out);
  return out;
}

export function runGate(input: GateInput): Violation[] {
  return [...gateSources(input.receipts, input.prices), ...gateDataset(input.dataset)];
}
