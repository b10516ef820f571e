/**
 * A signed repeat set checked where a receipt reads it (receipt create,
 * publish, verify): its manifest verifies and signs this contract and the
 * declared count; every run ships at the index it was signed at, changed in
 * nothing; no index is missing or shipped twice; no two runs hold the same
 * records (a clone); and the runs follow one another in time after the
 * manifest, as goodput makes them. A set without a manifest (unsigned, or
 * signed before sets were) is left to the repeats-declared rule alone.
 */
import type { RunSet } from '../core/index.js';
import { type Refusal, refusal } from './refusal.js';
import { type RunStatement, type SetManifest, type SignedRun, manifestSha256, openRunStatement, openSetManifest, runSha256 } from './run-set.js';

/** One run of a set as it is checked, of any kind: what its signature covers, its span and its records. */
type SetRun = SignedRun & { run: { startedAt: string; endedAt: string | null }; records?: readonly unknown[] };

/** How a kind hashes its records (the hash a run states as recordsSha256). */
type RecordsHash = (records: readonly never[]) => string;

const runSetRefusal = (field: string, message: string) => refusal('run-set', field, message);

/** Each signed index shipped exactly once, and each shipped run where it was signed and as it was signed. */
function placeRefusals(where: string, n: number, statements: ReadonlyArray<RunStatement | null | undefined>, runs: readonly SetRun[]): Refusal[] {
  const out: Refusal[] = [];
  if (runs.length > n) out.push(runSetRefusal(`${where}: repeats`, `ships ${runs.length} runs; the set's manifest signs ${n}`));
  for (let i = 1; i <= n; i++) {
    const at = runs.flatMap((_, k) => (statements[k]?.index === i ? [k + 1] : []));
    if (at.length === 0)
      out.push(runSetRefusal(`${where}: run ${i}`, `is missing: the set's manifest signs ${n} runs and no run ships with the signature of run ${i}`));
    if (at.length > 1) out.push(runSetRefusal(`${where}: run ${i}`, `is shipped ${at.length} times (as runs ${at.join(', ')}): a run was duplicated`));
  }
  runs.forEach((r, k) => {
    const s = statements[k];
    if (s === null) return;
    if (s === undefined) {
      out.push(runSetRefusal(`${where}: run ${k + 1}`, 'carries no signature of the set: it was not measured in this set'));
      return;
    }
    if (s.index !== k + 1)
      out.push(runSetRefusal(`${where}: run ${k + 1}`, `ships as run ${k + 1}, but is signed as run ${s.index} of the set: the runs were renumbered`));
    const h = runSha256(r);
    if (h !== s.runSha256)
      out.push(
        runSetRefusal(
          `${where}: run ${k + 1}`,
          `hashes to ${h}; the set signs ${s.runSha256} for run ${s.index}: the run was changed after it was signed, or is not the run measured there`,
        ),
      );
  });
  return out;
}

/** No two runs with byte-identical records: each run of a set is its own measurement. */
function cloneRefusals(where: string, runs: readonly SetRun[], hashOf: RecordsHash): Refusal[] {
  const seen = new Map<string, number>();
  const out: Refusal[] = [];
  runs.forEach((r, k) => {
    const hash = r.records === undefined ? r.recordsSha256 : hashOf(r.records as readonly never[]);
    if (hash === undefined) return;
    const first = seen.get(hash);
    if (first === undefined) seen.set(hash, k + 1);
    else
      out.push(
        runSetRefusal(`${where}: run ${k + 1} records`, `are byte-identical to run ${first}'s (sha256 ${hash}): one measurement shipped as two runs (a clone)`),
      );
  });
  return out;
}

/** The runs one after another, the first after the manifest was signed: goodput makes a set's runs in sequence. */
function timeRefusals(where: string, manifest: SetManifest, runs: readonly SetRun[]): Refusal[] {
  const out: Refusal[] = [];
  let after = { at: Date.parse(manifest.startedAt), what: `the set's manifest was signed (${manifest.startedAt})` };
  runs.forEach((r, k) => {
    const start = Date.parse(r.run.startedAt);
    const end = r.run.endedAt === null ? NaN : Date.parse(r.run.endedAt);
    if (Number.isNaN(start) || Number.isNaN(end) || end < start) {
      out.push(runSetRefusal(`${where}: run ${k + 1} run.endedAt`, `is ${r.run.endedAt ?? 'null'} after a start at ${r.run.startedAt}: not a measured span`));
      return;
    }
    if (start < after.at)
      out.push(
        runSetRefusal(
          `${where}: run ${k + 1} run.startedAt`,
          `is ${r.run.startedAt}, before ${after.what}: runs of one set are made one after another, so these overlap`,
        ),
      );
    after = { at: end, what: `run ${k + 1} ended (${r.run.endedAt ?? ''})` };
  });
  return out;
}

/** Every refusal of a side's signed set (none when the result carries no set manifest); `hashOf` hashes its kind's records. */
export function runSetRefusals(
  where: string,
  declared: number,
  contractHash: string,
  runSet: RunSet | undefined,
  runs: readonly SetRun[],
  hashOf: RecordsHash,
): Refusal[] {
  if (runSet === undefined) return [];
  const m = openSetManifest(runSet.manifest);
  if (!m.ok) return [runSetRefusal(`${where}: runSet.manifest`, m.problem)];
  const manifest = m.statement;
  const digest = manifestSha256(runSet.manifest);
  const out: Refusal[] = [];
  if (manifest.contractHash !== contractHash)
    out.push(runSetRefusal(`${where}: runSet.manifest.contractHash`, `signs a set of contract ${manifest.contractHash}, not this result's ${contractHash}`));
  if (manifest.n !== declared)
    out.push(
      runSetRefusal(
        `${where}: runSet.manifest.n`,
        `signs a set of ${manifest.n} runs, but the contract declares ${declared}: the declared count was changed after the set was signed`,
      ),
    );
  const statements = runSet.runs.map((env, k) => {
    const s = openRunStatement(env, manifest);
    if (!s.ok) out.push(runSetRefusal(`${where}: runSet.runs[${k}]`, s.problem));
    else if (s.statement.set !== digest)
      out.push(
        runSetRefusal(`${where}: runSet.runs[${k}]`, `is signed for set manifest ${s.statement.set}, not this set's (${digest}): a run from another set`),
      );
    return s.ok && s.statement.set === digest ? s.statement : null;
  });
  return [...out, ...placeRefusals(where, manifest.n, statements, runs), ...cloneRefusals(where, runs, hashOf), ...timeRefusals(where, manifest, runs)];
}
