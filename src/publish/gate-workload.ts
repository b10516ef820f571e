/**
 * The rule workload-reconstructable: each configuration carries a contract
 * hash and a workload hash (sha256, 64 lowercase hex digits), both sides ran
 * the same workload, and the workload lines the receipt prints hash back to
 * that workload hash — so the load test can be rebuilt from the page.
 */
import { canonicalJson } from '../core/index.js';
import { sha256Hex } from '../workload/index.js';
import { CONFIGURATION_KEYS } from './fact.js';
import type { Receipt } from './receipt-schema.js';
import { WORKLOAD_KEYS } from './run-pair.js';
import { type Violation, violation } from './violation.js';

const SHA256 = /^[0-9a-f]{64}$/;
const v = (number: string, message: string) => violation('workload-reconstructable', number, message);

/**
 * The workload object rebuilt from lines `<section>: <canonical JSON>` (split
 * at the first ": "), or the reasons it cannot be. Whatever the lines hold is
 * what is hashed: no field is assumed present.
 */
export function workloadFromLines(lines: readonly string[]): { ok: true; value: Record<string, unknown> } | { ok: false; problems: string[] } {
  const value: Record<string, unknown> = {};
  const problems: string[] = [];
  lines.forEach((line, i) => {
    const at = line.indexOf(': ');
    const section = at < 0 ? '' : line.slice(0, at);
    if (!(WORKLOAD_KEYS as readonly string[]).includes(section)) {
      problems.push(`line ${i + 1} (${JSON.stringify(line.slice(0, 40))}) is not "<section>: <json>" for a section of ${WORKLOAD_KEYS.join(', ')}`);
      return;
    }
    if (section in value) {
      problems.push(`line ${i + 1} gives the ${section} section a second time`);
      return;
    }
    try {
      value[section] = JSON.parse(line.slice(at + 2)) as unknown;
    } catch {
      problems.push(`line ${i + 1} (${section}) is not valid JSON`);
    }
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value };
}

export function workloadRule(r: Receipt): Violation[] {
  const out: Violation[] = [];
  const valid: string[] = [];
  for (const k of CONFIGURATION_KEYS) {
    const c = r.configurations[k];
    if (!c.contractHash || !c.workloadHash) {
      out.push(v(`${r.id}: every ${k} number`, 'has no verified contract hash and workload hash, so its workload cannot be reconstructed'));
      continue;
    }
    for (const [name, hash] of [
      ['contractHash', c.contractHash],
      ['workloadHash', c.workloadHash],
    ] as const) {
      if (!SHA256.test(hash)) out.push(v(`${r.id}: every ${k} number`, `has ${name} ${JSON.stringify(hash)}, which is not a sha256 (64 lowercase hex digits)`));
    }
    if (SHA256.test(c.workloadHash)) valid.push(c.workloadHash);
  }
  const { baseline: b, optimized: o } = r.configurations;
  if (b.workloadHash && o.workloadHash && b.workloadHash !== o.workloadHash) {
    out.push(v(`${r.id}: every number`, 'the baseline and optimized workloads differ; both sides must run the same load test'));
  }
  const rebuilt = workloadFromLines(r.workload.lines);
  if (!rebuilt.ok) {
    out.push(...rebuilt.problems.map((p) => v(`${r.id}: workload`, `${p}, so the workload cannot be rebuilt from the receipt`)));
    return out;
  }
  const hash = sha256Hex(canonicalJson(rebuilt.value));
  if (r.workload.hash !== hash) {
    out.push(v(`${r.id}: workload`, `its lines hash to ${hash}, not to the stated workload hash ${r.workload.hash ?? 'null'}; the workload was edited`));
  }
  for (const k of CONFIGURATION_KEYS) {
    const h = r.configurations[k].workloadHash;
    if (h && valid.includes(h) && h !== hash) {
      out.push(v(`${r.id}: every ${k} number`, `has workloadHash ${h}, but the receipt's workload lines hash to ${hash}; the workload was edited`));
    }
  }
  return out;
}
