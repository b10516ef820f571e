/**
 * The Prometheus text exposition format (0.0.4) turned into samples. Pure: text in,
 * samples out. Handles `# HELP`/`# TYPE`/other comments, label values with escaped
 * quotes, backslashes and newlines, `+Inf`/`-Inf`/`NaN`, optional timestamps and
 * CRLF line ends. A line that is not a valid sample is counted, never thrown: one
 * odd line must not cost a whole scrape.
 */

export type PromType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

/** One series value: `name{labels} value`. */
export interface PromSample {
  name: string;
  labels: Readonly<Record<string, string>>;
  value: number;
}

/** A parsed exposition. */
export interface PromScrape {
  samples: PromSample[];
  /** Series by name (`vllm:ttft_seconds_sum` → its series), for lookups. */
  byName: ReadonlyMap<string, PromSample[]>;
  /** `# TYPE` declarations by family name. */
  types: ReadonlyMap<string, PromType>;
  /** 1-based numbers of lines that were neither comments nor valid samples. */
  badLines: number[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const TYPES = new Set<PromType>(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** Parses a value token: a decimal or exponent number, `+Inf`, `-Inf`, `Inf` or `NaN`; null otherwise. */
export function parsePromValue(token: string): number | null {
  switch (token) {
    case '+Inf':
    case 'Inf':
      return Number.POSITIVE_INFINITY;
    case '-Inf':
      return Number.NEGATIVE_INFINITY;
    case 'NaN':
      return Number.NaN;
  }
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(token)) return null;
  return Number(token);
}

/** Parses `{a="x",b="y\"z"}` starting at `s[0] === '{'`; returns the labels and the rest, or null. */
function parseLabels(s: string): { labels: Record<string, string>; rest: string } | null {
  const labels: Record<string, string> = {};
  let i = 1;
  for (;;) {
    while (s[i] === ' ' || s[i] === '\t') i++;
    if (s[i] === '}') return { labels, rest: s.slice(i + 1) };
    const name = LABEL_NAME.exec(s.slice(i))?.[0];
    if (name === undefined) return null;
    i += name.length;
    while (s[i] === ' ') i++;
    if (s[i++] !== '=') return null;
    while (s[i] === ' ') i++;
    if (s[i++] !== '"') return null;
    let value = '';
    for (;;) {
      const c = s[i++];
      if (c === undefined) return null;
      if (c === '"') break;
      if (c === '\\') {
        const e = s[i++];
        if (e === undefined) return null;
        value += e === 'n' ? '\n' : e;
      } else value += c;
    }
    labels[name] = value;
    while (s[i] === ' ') i++;
    if (s[i] === ',') i++;
    else if (s[i] !== '}') return null;
  }
}

/** Parses one sample line, or null when it is not one. */
function parseSampleLine(line: string): PromSample | null {
  const name = NAME.exec(line)?.[0];
  if (name === undefined) return null;
  let rest = line.slice(name.length);
  let labels: Record<string, string> = {};
  if (rest.startsWith('{')) {
    const parsed = parseLabels(rest);
    if (parsed === null) return null;
    labels = parsed.labels;
    rest = parsed.rest;
  }
  if (!/^[ \t]/.test(rest)) return null;
  const fields = rest.trim().split(/[ \t]+/);
  if (fields.length < 1 || fields.length > 2) return null;
  const value = parsePromValue(fields[0] as string);
  if (value === null) return null;
  if (fields.length === 2 && !/^-?\d+$/.test(fields[1] as string)) return null;
  return { name, labels, value };
}

/** Parses a whole exposition. */
export function parsePrometheusText(text: string): PromScrape {
  const samples: PromSample[] = [];
  const byName = new Map<string, PromSample[]>();
  const types = new Map<string, PromType>();
  const badLines: number[] = [];
  const lines = text.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = (lines[n] as string).trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^#\s*TYPE\s+(\S+)\s+(\S+)/.exec(line);
      if (m && TYPES.has(m[2] as PromType)) types.set(m[1] as string, m[2] as PromType);
      continue;
    }
    const sample = parseSampleLine(line);
    if (sample === null) {
      badLines.push(n + 1);
      continue;
    }
    samples.push(sample);
    const list = byName.get(sample.name);
    if (list) list.push(sample);
    else byName.set(sample.name, [sample]);
  }
  return { samples, byName, types, badLines };
}
