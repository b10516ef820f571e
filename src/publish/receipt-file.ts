/**
 * A receipt file holds words and references, not trusted numbers: its title,
 * each configuration's method, and the SHA-256 of each evidence file (both
 * runs' results with their raw records, and the quality score). Everything
 * else a page shows is recomputed here from that evidence with the code that
 * produced it for the CLI; a number, label or sentence the file states that
 * differs from the recomputation is refused, naming it.
 */
import { z } from 'zod';
import { type QualityScore, qualityScoreSchema } from '../core/index.js';
import { type EvidenceSource, evidencePath, loadEvidence, loadEvidenceSignature, signaturePath } from './evidence-files.js';
import { checkSignedEvidence } from './site-signing.js';
import type { ConfigurationKey } from './fact.js';
import { TEXT_LIMITS, textRefusals } from './free-text.js';
import { contractLabelRefusals } from './contract-labels.js';
import { allowListRefusals } from './allow-list.js';
import { type Receipt, RECEIPT_VERSION, STATED_FACT_SETS } from './receipt-schema.js';
import type { RunSignatures } from './standing-schema.js';
import { runSignaturesOf, signedWith } from './standing.js';
import { type Refusal, refusal } from './refusal.js';
import { modelProblem } from './run-pair.js';
import { differenceText, differences } from './same-numbers.js';
import { parseStrictJson } from './strict-json.js';
import { dateRefusals, runDateRefusals } from './receipt-dates.js';
import type { KindSide, ReceiptKind, ReceiptResult } from './receipt-kind.js';
import { receiptKindOf } from './receipt-kinds.js';

export const RECEIPT_FILE_VERSION = RECEIPT_VERSION;

const sha = z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 (64 lowercase hex digits)');

export const evidenceRefsSchema = z.object({ baseline: sha, optimized: sha, quality: sha.nullable() }).strict();
export type EvidenceRefs = z.infer<typeof evidenceRefsSchema>;

/** What a receipt file must hold; any other key is a statement compared with the recomputation. */
const receiptFileSchema = z
  .object({
    receiptVersion: z.literal(RECEIPT_FILE_VERSION, {
      error: `must be ${RECEIPT_FILE_VERSION}: receipts carry their evidence now; make it again with goodput receipt create`,
    }),
    factSetVersion: z
      .union(
        STATED_FACT_SETS.map((v) => z.literal(v)),
        { error: `must be ${STATED_FACT_SETS.join(', ')} or absent (1): the fact sets this goodput recomputes; a later goodput made this receipt` },
      )
      .optional(),
    title: z.string(),
    configurations: z
      .object({
        baseline: z.looseObject({ method: z.string() }),
        optimized: z.looseObject({ method: z.string() }),
      })
      .loose(),
    evidence: evidenceRefsSchema,
    generator: z.string().regex(/^[0-9A-Za-z.+-]{1,40}$/, 'must be a goodput version'),
    /** The publisher's allowance of server disagreements past the tolerance (receipt create --allow-server-disagreement); each is then a limitation. */
    allowServerDisagreement: z.literal(true).optional(),
  })
  .loose();

/** The file `goodput receipt create` writes: the recomputed receipt, stated in full, and its evidence. */
export type ReceiptFile = Receipt & { evidence: EvidenceRefs; allowServerDisagreement?: true };

export function receiptFile(receipt: Receipt, evidence: EvidenceRefs, allowServerDisagreement = false): ReceiptFile {
  return { ...receipt, evidence, ...(allowServerDisagreement ? { allowServerDisagreement: true as const } : {}) };
}

/**
 * The recomputed receipt and its evidence files (path → gzip bytes), which a
 * site ships so readers can recompute it too, and who signed its evidence
 * (stated by a receipt of fact set 3, read by publish --require-signed for any).
 */
export type Recomputation =
  | { ok: true; receipt: Receipt; files: Map<string, Buffer>; results: Record<ConfigurationKey, ReceiptResult>; signatures: RunSignatures }
  | { ok: false; refusals: Refusal[] };

/** One evidence file loaded, kept for shipping, and parsed by its schema; refusals go to `out`. */
async function loadParsed<T>(
  dir: EvidenceSource,
  ref: string,
  field: string,
  schema: z.ZodType<T>,
  out: Refusal[],
  files: Map<string, Buffer>,
): Promise<T | null> {
  const loaded = await loadEvidence(dir, ref, field);
  if (!loaded.ok) {
    out.push(loaded.refusal);
    return null;
  }
  files.set(evidencePath(ref), loaded.gz);
  const result = schema.safeParse(loaded.value);
  if (!result.success) {
    for (const i of result.error.issues.slice(0, 10)) out.push(refusal('schema', `${field}: ${i.path.join('.') || '(top level)'}`, i.message));
    return null;
  }
  return result.data;
}

/**
 * A run signed where it was measured (goodput run --sign) ships its signature
 * beside its evidence: it must verify with the key it names and sign exactly
 * that evidence, or the receipt is refused. Unsigned runs are accepted.
 */
async function runSignature(dir: EvidenceSource, key: ConfigurationKey, ref: string, out: Refusal[], files: Map<string, Buffer>): Promise<string | null> {
  const loaded = await loadEvidenceSignature(dir, ref);
  if (loaded === null) return null;
  const checked = loaded.ok ? checkSignedEvidence(loaded.bytes.toString('utf8'), ref) : loaded;
  if (!checked.ok) out.push(refusal('signature', `evidence.${key}: ${signaturePath(ref)}`, checked.problem));
  else if (loaded.ok) files.set(signaturePath(ref), loaded.bytes);
  return checked.ok ? checked.keyId : null;
}

/** One side: a result of the kind its run's endpoint names, checked against its evidence, and the key its run signature verified with. */
type Side = { kind: ReceiptKind; checked: KindSide; keyid: string | null };

async function side(dir: EvidenceSource, key: ConfigurationKey, ref: string, out: Refusal[], files: Map<string, Buffer>, allow: boolean): Promise<Side | null> {
  const keyid = await runSignature(dir, key, ref, out, files);
  const peek = await loadEvidence(dir, ref, `evidence.${key}`);
  const kind = receiptKindOf(peek.ok ? (peek.value as { run?: { endpoint?: unknown } } | null)?.run?.endpoint : undefined);
  const result = await loadParsed<ReceiptResult>(dir, ref, `evidence.${key}`, kind.schema, out, files);
  const checked = result === null ? null : kind.checkEvidence(key, result, out, allow);
  return checked === null ? null : { kind, checked, keyid };
}

const endpointOf = (s: Side): string => s.checked.runs[0]?.run.endpoint ?? (s.kind.endpoints[0] as string);

/**
 * The receipt `text` states, recomputed from the evidence in `dir` (the
 * receipt's folder, holding `evidence/<sha256>.json.gz`, or those files by path). `today` (YYYY-MM-DD) is the publishing day no
 * date may be after.
 */
export async function recomputeReceipt(text: string, dir: EvidenceSource, today: string): Promise<Recomputation> {
  const out: Refusal[] = [];
  const files = new Map<string, Buffer>();
  const strict = parseStrictJson(text);
  if (!strict.ok)
    return {
      ok: false,
      refusals: [
        refusal(strict.problem.includes('no-duplicate-keys') ? 'no-duplicate-keys' : 'schema', '(receipt)', strict.problem.replace(/ \[rule: [a-z-]+\]$/, '')),
      ],
    };
  const parsed = receiptFileSchema.safeParse(strict.value);
  if (!parsed.success)
    return { ok: false, refusals: parsed.error.issues.slice(0, 20).map((i) => refusal('schema', i.path.join('.') || '(top level)', i.message)) };
  const file = parsed.data;
  for (const k of ['baseline', 'optimized'] as const)
    out.push(...textRefusals(`configurations.${k}.method`, file.configurations[k].method, TEXT_LIMITS.method));
  for (const k of ['baseline', 'optimized'] as const) out.push(...allowListRefusals(`configurations.${k}.method`, file.configurations[k].method, 'prose'));
  const allow = file.allowServerDisagreement === true;
  const sideB = await side(dir, 'baseline', file.evidence.baseline, out, files, allow);
  const sideO = await side(dir, 'optimized', file.evidence.optimized, out, files, allow);
  const standalone =
    file.evidence.quality === null
      ? null
      : await loadParsed(dir, file.evidence.quality, 'evidence.quality', qualityScoreSchema as z.ZodType<QualityScore>, out, files);
  const named = [sideB, sideO].flatMap((x) => (x === null ? [] : [x.checked.contract.model.name, x.checked.contract.hardware.label]));
  out.push(...textRefusals('title', file.title, TEXT_LIMITS.title, named));
  out.push(...allowListRefusals('title', file.title, 'prose', named));
  for (const [k, s] of [
    ['baseline', sideB],
    ['optimized', sideO],
  ] as const)
    if (s !== null) out.push(...identityLabelRefusals(`evidence.${k}`, s.checked));
  const dated = runDates({ baseline: sideB, optimized: sideO }, today);
  if (sideB === null || sideO === null || out.length > 0) return { ok: false, refusals: [...out, ...dated] };
  const model = modelProblem(sideB.checked.contract, sideO.checked.contract);
  if (model !== null) return { ok: false, refusals: [refusal('one-model', 'evidence', model)] };
  if (endpointOf(sideB) !== endpointOf(sideO)) {
    const a = (e: string) => `${/^[aeiou]/.test(e) ? 'an' : 'a'} ${e}`;
    return {
      ok: false,
      refusals: [
        refusal(
          'same-workload',
          'evidence',
          `a receipt compares two runs of one endpoint: the baseline is ${a(endpointOf(sideB))} run, the optimized ${a(endpointOf(sideO))} run`,
        ),
      ],
    };
  }
  const kind = sideB.kind;
  const results = { baseline: kind.combineRuns(sideB.checked.runs), optimized: kind.combineRuns(sideO.checked.runs) };
  const quality = kind.evidenceQuality(standalone, sideO.checked, results, today, out);
  if (!quality.ok) return { ok: false, refusals: quality.refusals };
  const built = kind.build({
    ...results,
    quality: quality.score,
    method: file.configurations.optimized.method,
    baselineMethod: file.configurations.baseline.method,
    title: file.title,
    generator: file.generator,
    factSet: file.factSetVersion ?? 1,
  });
  if (!built.ok) return { ok: false, refusals: [...out, ...built.problems.map((p) => refusal(pairRule(p), 'evidence', p))] };
  const keyids = { baseline: sideB.keyid, optimized: sideO.keyid };
  const inRun = (results.optimized as { quality?: unknown }).quality !== undefined;
  const signatures = signedWith(
    built.receipt.signatures ?? runSignaturesOf(results, inRun ? 'in-run' : file.evidence.quality === null ? null : 'file'),
    keyids,
  );
  const receipt = built.receipt.signatures === undefined ? built.receipt : { ...built.receipt, signatures };
  return statedAgainst(file, receipt, [...out, ...dated], today, files, results, signatures);
}

/** Every run's start and end on both sides, each named by its side and run (receipt-dates.ts). */
function runDates(sides: Record<ConfigurationKey, Side | null>, today: string): Refusal[] {
  return (['baseline', 'optimized'] as const).flatMap(
    (key) => sides[key]?.checked.runs.flatMap((r, k) => runDateRefusals(`evidence.${key}: run ${k + 1}`, r.run, today)) ?? [],
  );
}

/** The rule a pair problem breaks, by its wording. */
const pairRule = (p: string) =>
  /identical accounts/.test(p) ? 'self-comparison' : /models differ/.test(p) ? 'one-model' : /GPUs differ|hourly rates/.test(p) ? 'same-gpu' : 'same-workload';

/** Whatever else the file states must be exactly what the evidence gives. */
function statedAgainst(
  file: z.infer<typeof receiptFileSchema>,
  receipt: Receipt,
  out: Refusal[],
  today: string,
  files: Map<string, Buffer>,
  results: Record<ConfigurationKey, ReceiptResult>,
  signatures: RunSignatures,
): Recomputation {
  out.push(...identifierRefusals(receipt), ...dateRefusals(receipt, today));
  const { evidence: _e, receiptVersion: _v, allowServerDisagreement: _a, ...stated } = file;
  const { receiptVersion: _rv, ...recomputed } = receipt;
  for (const d of differences(stated, recomputed, '', true)) out.push(refusal('stated-equals-recomputed', d.path, differenceText(d)));
  // Optional keys are compared where stated; this one the evidence gives is stated, so a handicapped baseline cannot be left off.
  if (recomputed.serverConfiguration !== undefined && stated.serverConfiguration === undefined)
    out.push(
      refusal(
        'stated-equals-recomputed',
        'serverConfiguration',
        `is absent, but the evidence gives both servers' configurations (${recomputed.serverConfiguration.handicaps.length} handicap(s) flagged); a receipt states them`,
      ),
    );
  // Fact sets 3 and later state who signed: leaving it off would make every fact read as signed by no one without saying so.
  if (recomputed.signatures !== undefined && stated.signatures === undefined)
    out.push(
      refusal(
        'stated-equals-recomputed',
        'signatures',
        'is absent, but a receipt of fact set 3 or later states who signed its evidence (each fact stands on it)',
      ),
    );
  return out.length > 0 ? { ok: false, refusals: out } : { ok: true, receipt, files, results, signatures };
}

/** Words the evidence contributes to every page (model, hardware, engines) carry no internal identifier either. */
function identifierRefusals(r: Receipt): Refusal[] {
  const named: Array<[string, string | null]> = [
    ['model', r.model],
    ['hardware', r.hardware],
    ['configurations.baseline.engine', r.configurations.baseline.engine],
    ['configurations.optimized.engine', r.configurations.optimized.engine],
  ];
  // Hardware labels state memory sizes ("80GB") and models their size: only the numeric-claims rule does not apply.
  return named.flatMap(([field, text]) => (text === null ? [] : textRefusals(field, text, TEXT_LIMITS.title).filter((x) => x.rule !== 'no-numeric-claims')));
}

/** Every identity label the evidence puts on a page, by the pattern of its kind: names and versions that cannot carry a claim. */
function identityLabelRefusals(
  where: string,
  side: { contract: KindSide['contract']; runs: ReadonlyArray<{ run: { engine?: { name: string; version: string | null } | null } }> },
): Refusal[] {
  const e = side.runs[0]?.run.engine;
  const labels: Array<[string, string, 'name' | 'version']> = e
    ? [['run.engine.name', e.name, 'name'], ...(e.version ? [['run.engine.version', e.version, 'version'] as [string, string, 'version']] : [])]
    : [];
  return [
    ...contractLabelRefusals(`${where}: contract.`, side.contract).filter((r) => r.rule === 'allow-list'),
    ...labels.flatMap(([field, text, kind]) => allowListRefusals(`${where}: ${field}`, text, kind)),
  ];
}
