/**
 * What the server says about itself, and the contract's declarations checked
 * against it where it says anything: engine version (`GET /version`: vLLM,
 * the simulator; TGI's `GET /info`), precision and revision (TGI's `/info`
 * model_dtype, model_sha) and quantization (Ollama's `POST /api/show`). A
 * declaration the server contradicts stops the run; one it does not report
 * is recorded as "not-reported". Each source is one bounded request.
 */
import { serverRoot } from '../client/index.js';
import type { ServerReport } from '../core/index.js';
import type { Contract } from './contract-schema.js';
import { ContractError } from './errors.js';

type Fact = { value: string; source: string };
type Facts = Partial<Record<'engineVersion' | 'precision' | 'revision' | 'quantization', Fact>>;

interface FactSource {
  method: 'GET' | 'POST';
  path: string;
  body?: (model: string) => object;
  read(json: Record<string, unknown>, source: string): Facts;
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
const fact = (v: unknown, source: string): Fact | undefined => (str(v) === null ? undefined : { value: str(v) as string, source });

const SOURCES: readonly FactSource[] = [
  { method: 'GET', path: '/version', read: (j, s) => ({ engineVersion: fact(j.version, `${s} version`) }) },
  {
    method: 'GET',
    path: '/info',
    read: (j, s) => ({
      engineVersion: fact(j.version, `${s} version`),
      precision: fact(j.model_dtype, `${s} model_dtype`),
      revision: fact(j.model_sha, `${s} model_sha`),
    }),
  },
  {
    method: 'POST',
    path: '/api/show',
    body: (model) => ({ model }),
    read: (j, s) => ({ quantization: fact((j.details as Record<string, unknown> | undefined)?.quantization_level, `${s} details.quantization_level`) }),
  },
];

async function ask(base: string, src: FactSource, model: string, apiKey: string | undefined): Promise<Facts> {
  try {
    const res = await fetch(`${base}${src.path}`, {
      method: src.method,
      headers: {
        accept: 'application/json',
        ...(src.body ? { 'content-type': 'application/json' } : {}),
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: src.body ? JSON.stringify(src.body(model)) : undefined,
      signal: AbortSignal.timeout(3000),
    });
    if (!res.ok) return {};
    const json: unknown = await res.json();
    return json !== null && typeof json === 'object' ? src.read(json as Record<string, unknown>, `${src.method} ${src.path}`) : {};
  } catch {
    return {};
  }
}

const ALIASES: Record<string, string> = {
  bf16: 'bfloat16',
  fp16: 'float16',
  f16: 'float16',
  half: 'float16',
  fp32: 'float32',
  f32: 'float32',
  float: 'float32',
};
const norm = (s: string) => {
  const t = s
    .trim()
    .toLowerCase()
    .replace(/^torch\./, '');
  return ALIASES[t] ?? t;
};
const SAME: Record<'precision' | 'revision' | 'quantization', (a: string, b: string) => boolean> = {
  precision: (a, b) => norm(a) === norm(b),
  quantization: (a, b) => norm(a) === norm(b),
  revision: (a, b) => a === b || (Math.min(a.length, b.length) >= 7 && (a.startsWith(b) || b.startsWith(a))),
};

/** Asks every source, checks the declarations. @throws ContractError (mismatch) naming the field, both values and the source */
export async function checkServer(c: Contract, baseUrl: string, apiKey: string | undefined): Promise<ServerReport> {
  const base = serverRoot(baseUrl);
  const facts: Facts = {};
  for (const src of SOURCES) {
    for (const [k, v] of Object.entries(await ask(base, src, c.model.name, apiKey)) as Array<[keyof Facts, Fact | undefined]>) {
      if (v !== undefined && facts[k] === undefined) facts[k] = v;
    }
  }
  const checks: ServerReport['checks'] = [];
  for (const field of ['revision', 'precision', 'quantization'] as const) {
    const declared = c.model[field];
    const reported = facts[field];
    if (reported !== undefined && !SAME[field](declared, reported.value)) {
      throw new ContractError(
        'mismatch',
        `model.${field}: the contract declares "${declared}" but the server reports "${reported.value}" (${reported.source}); fix the contract or the server before measuring`,
      );
    }
    checks.push({
      field: `model.${field}`,
      declared,
      reported: reported?.value ?? null,
      source: reported?.source ?? null,
      status: reported ? 'match' : 'not-reported',
    });
  }
  return { engineVersion: facts.engineVersion?.value ?? null, engineVersionSource: facts.engineVersion?.source ?? null, checks };
}
