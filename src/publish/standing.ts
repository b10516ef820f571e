/**
 * Each fact's standing: what stands behind it. Evidence can prove arithmetic
 * and physics, not who measured, so a reader is told for every claim which of
 * four it is: recomputed from the evidence's records, corroborated by the
 * server's own account (what of it), signed by a measurer key the site lists
 * (which key; the run signature verified), or declared by the publisher. The
 * labels a page puts beside the numbers (hardware, engine, "simulated") are
 * declared unless both runs are signed by a listed measurer; a quality score
 * stands on its own evidence's signature. A side that ran a set of runs is
 * signed only as a set: its runs and manifest signed by the same key.
 */
import { evidencePath } from './evidence-files.js';
import { type Refusal, refusal } from './refusal.js';
import { openSetManifest } from './run-set.js';
import { STATED_METRICS } from './stated-facts.js';
import type { ConfigurationKey, Fact } from './fact.js';
import type { ReceiptResult } from './receipt-kind.js';
import type { Receipt } from './receipt-schema.js';
import type { RunSignatures, SideSignature } from './standing-schema.js';

export const STANDINGS = ['recomputed', 'corroborated', 'signed', 'declared'] as const;
export type StandingBy = (typeof STANDINGS)[number];

/** A fact's standing in dataset.json: the word, what stands behind it, and the measurer's key when signed. */
export interface Standing {
  by: StandingBy;
  what: string;
  key?: string;
}

/** The weakest first: a number computed from several facts stands no higher than its weakest source. */
const RANK: Readonly<Record<StandingBy, number>> = { declared: 0, recomputed: 1, corroborated: 2, signed: 3 };
export const weakest = (all: readonly Standing[]): Standing | null =>
  all.reduce<Standing | null>((w, s) => (w === null || RANK[s.by] < RANK[w.by] ? s : w), null);

type Truth = { comparison: ReadonlyArray<{ agrees: boolean }> } | null | undefined;

/**
 * What the server's own /metrics corroborate in the side's first run: its
 * comparison (recomputed from the records when the receipt is) agreeing at
 * every level; null when a level has none or disagrees, or the kind keeps none.
 */
function serverCorroboration(result: ReceiptResult): string | null {
  const levels = result.levels as ReadonlyArray<{ serverTruth?: Truth }>;
  const agree = levels.filter((l) => l.serverTruth != null && l.serverTruth.comparison.length > 0 && l.serverTruth.comparison.every((c) => c.agrees));
  if (levels.length === 0 || agree.length < levels.length) return null;
  return "its /metrics (TTFT, inter-token time, generated tokens, requests) agree with the records at every one of the run's levels";
}

/**
 * One side's signatures as the evidence gives them: `first` is its run 1 (the
 * result's top level, which carries a signed set's manifest), `runs` how many
 * it ran, `keyid` the key whose run signature over the evidence verified, or null.
 */
function sideSignature(first: ReceiptResult, runs: number, keyid: string | null): SideSignature {
  const runSet = 'runSet' in first ? first.runSet : undefined;
  const manifest = runSet === undefined ? null : openSetManifest(runSet.manifest);
  return {
    keyid,
    runs,
    setKeyid: manifest !== null && manifest.ok ? manifest.statement.signer.keyid : null,
    server: serverCorroboration(first),
  };
}

/**
 * Both sides' and the quality score's signatures as the results give them
 * (each result combined with its repeats, its top level run 1), before any
 * signature file is read: every key null until `signedWith` names the keys
 * whose run signatures verified.
 */
export function runSignaturesOf(results: Record<ConfigurationKey, ReceiptResult>, quality: 'in-run' | 'file' | null): RunSignatures {
  const one = (k: ConfigurationKey) => sideSignature(results[k], 1 + (results[k].repeats?.length ?? 0), null);
  return { baseline: one('baseline'), optimized: one('optimized'), quality: quality === null ? null : { source: quality, keyid: null } };
}

/** The signatures with the key whose run signature verified on each side (null: unsigned); a score measured in the optimized run is signed with it. */
export function signedWith(sig: RunSignatures, keyids: Record<ConfigurationKey, string | null>): RunSignatures {
  return {
    baseline: { ...sig.baseline, keyid: keyids.baseline },
    optimized: { ...sig.optimized, keyid: keyids.optimized },
    quality: sig.quality === null ? null : { ...sig.quality, keyid: sig.quality.source === 'in-run' ? keyids.optimized : null },
  };
}

type Signer = { key: string; listed: boolean } | { key: null; why: string };

/** Who stands behind a side: its run signature's key (a set's only when its manifest is signed by that key too), or why no one does. */
function signerOf(s: SideSignature, measurers: ReadonlySet<string>): Signer {
  if (s.keyid === null) return { key: null, why: s.runs > 1 ? `its ${s.runs} runs are not signed` : 'the run is not signed' };
  if (s.runs > 1 && s.setKeyid !== s.keyid)
    return { key: null, why: `its ${s.runs} runs carry no set manifest signed by ${s.keyid}, so the set is not signed` };
  return { key: s.keyid, listed: measurers.has(s.keyid) };
}

const notSigned = (s: Signer): string =>
  s.key === null ? `not signed by a measurer (${s.why})` : `signed by ${s.key}, which this site does not list as a measurer`;

/** The quality score's signer: the optimized run's when it was measured in that run, none for a score file. */
function qualitySigner(sig: RunSignatures, measurers: ReadonlySet<string>): Signer {
  const q = sig.quality;
  if (q === null) return { key: null, why: 'no quality score was given' };
  if (q.source === 'file') return { key: null, why: 'unsigned quality evidence: a score file carries no run signature' };
  return signerOf(sig.optimized, measurers);
}

const QUALITY_WHAT = 'recomputed from the quality evidence';

/** Corroborated by the server's account: the figures its /metrics count (tokens, their timing, requests). */
const CORROBORATED = /^(peakThroughput|singleStream|throughput|ttft|tpot|itl)/;

/** The standing of one fact of a receipt with signatures, on a site that lists `measurers`. */
export function factStanding(sig: RunSignatures, f: Fact, measurers: ReadonlySet<string>): Standing {
  const quality = f.metric.startsWith('quality');
  const signer = quality ? qualitySigner(sig, measurers) : signerOf(sig[f.configuration], measurers);
  // The server's counters and the GPU readings are in the result, not its records: only the arithmetic on them is recomputed.
  const stated = STATED_METRICS[f.metric];
  if (signer.key !== null && signer.listed)
    return {
      by: 'signed',
      what:
        stated === undefined
          ? `signed by measurer ${signer.key}: the run signature verified; recomputed from its records`
          : `signed by measurer ${signer.key}: the run signature verified over the result that states ${stated}`,
      key: signer.key,
    };
  const unsigned = notSigned(signer);
  if (f.provenance === 'recorded') return { by: 'declared', what: `declared by the publisher with the run (${f.label.toLowerCase()}), ${unsigned}` };
  if (stated !== undefined && f.value !== null)
    return {
      by: 'declared',
      what: `declared by the publisher: the run's result states ${stated}, which its records cannot recompute (only the arithmetic on them), ${unsigned}`,
    };
  if (quality) return { by: 'recomputed', what: `${QUALITY_WHAT}, ${unsigned}` };
  const server = sig[f.configuration].server;
  if (server !== null && f.value !== null && CORROBORATED.test(f.metric))
    return { by: 'corroborated', what: `corroborated by the server: ${server}; ${unsigned}` };
  return { by: 'recomputed', what: `recomputed from the run's records, ${unsigned}` };
}

/** The standing of what the publisher labels a run with (hardware, engine and version, simulated): declared unless `sides` are all signed by listed measurers. */
export function labelStanding(sig: RunSignatures, sides: readonly ConfigurationKey[], measurers: ReadonlySet<string>): Standing {
  const signers = sides.map((k) => signerOf(sig[k], measurers));
  const unlisted = signers.find((s) => s.key === null || !s.listed);
  if (unlisted === undefined) {
    const keys = [...new Set(signers.map((s) => s.key as string))];
    return { by: 'signed', what: `signed by measurer ${keys.join(' and ')}: the run signature verified`, key: keys.join(' ') };
  }
  return { by: 'declared', what: `declared by the publisher, ${notSigned(unlisted)}` };
}

/** The few words shown beside a number: "signed by measurer ed25519:…", "declared by the publisher, not signed by a measurer". */
export function standingWords(s: Standing): string {
  if (s.by === 'signed') return `signed by measurer ${s.key ?? ''}`;
  if (s.by === 'declared') return 'declared by the publisher, not signed by a measurer';
  if (s.by === 'corroborated') return "corroborated by the server's /metrics, not signed by a measurer";
  return `recomputed from ${s.what.startsWith(QUALITY_WHAT) ? 'the quality evidence' : 'the records'}, not signed by a measurer`;
}

export type LabelStandings = Record<'hardware' | 'simulated' | 'configuration' | ConfigurationKey, Standing>;

/**
 * The labels' standings of a receipt with signatures: hardware, "simulated"
 * and the servers' configurations (as each server reported it, which a
 * publisher can edit and rebuild the receipt from) rest on both runs, each
 * engine on its own run.
 */
export function receiptLabelStandings(r: Receipt, measurers: ReadonlySet<string>): LabelStandings | null {
  const sig = r.signatures;
  if (sig === undefined) return null;
  return {
    hardware: labelStanding(sig, ['baseline', 'optimized'], measurers),
    simulated: labelStanding(sig, ['baseline', 'optimized'], measurers),
    configuration: labelStanding(sig, ['baseline', 'optimized'], measurers),
    baseline: labelStanding(sig, ['baseline'], measurers),
    optimized: labelStanding(sig, ['optimized'], measurers),
  };
}

/** Each run's signature in words, for the page: which key signed which side, verified, and whether the site lists it. */
export function signatureLines(sig: RunSignatures, measurers: ReadonlySet<string>): string[] {
  const side = (k: ConfigurationKey): string => {
    const s = sig[k];
    const runs = s.runs > 1 ? `${s.runs} runs` : 'run';
    if (s.keyid === null) return `${k} ${runs}: not signed`;
    const set = s.runs > 1 ? (s.setKeyid === s.keyid ? '; its set manifest and each run in it verified' : '; no set manifest signed by that key') : '';
    return `${k} ${runs}: signed by ${s.keyid}, the signature over the evidence verified${set}; ${measurers.has(s.keyid) ? 'a measurer this site lists' : 'not a measurer this site lists'}`;
  };
  const q = sig.quality;
  const quality =
    q === null
      ? []
      : [
          q.source === 'file'
            ? 'quality score: a score file, unsigned quality evidence'
            : 'quality score: measured in the optimized run, signed with it as above',
        ];
  return [side('baseline'), side('optimized'), ...quality];
}

/**
 * publish --require-signed: every run and quality score signed by a measurer
 * key the site lists, or a refusal naming the evidence file that is not.
 */
export function requireSignedRefusals(
  sig: RunSignatures,
  refs: { baseline: string; optimized: string; quality: string | null },
  measurers: ReadonlySet<string>,
): Refusal[] {
  const out: Refusal[] = [];
  for (const k of ['baseline', 'optimized'] as const) {
    const s = signerOf(sig[k], measurers);
    if (s.key === null || !s.listed)
      out.push(refusal('require-signed', `evidence.${k} (${evidencePath(refs[k])})`, `${notSigned(s)}; --require-signed publishes signed runs only`));
  }
  const q = sig.quality;
  if (q !== null) {
    const s = qualitySigner(sig, measurers);
    const file = q.source === 'file' && refs.quality !== null ? evidencePath(refs.quality) : evidencePath(refs.optimized);
    if (s.key === null || !s.listed)
      out.push(refusal('require-signed', `evidence.quality (${file})`, `${notSigned(s)}; --require-signed publishes signed quality evidence only`));
  }
  return out;
}
