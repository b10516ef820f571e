/**
 * How a level splits over the clients that send it (client threads, worker
 * processes): a closed loop's streams and a contiguous run of its requests, an
 * open loop's sends round-robin, and the sequence numbers each share sends.
 * Every share computes the same plan from the same spec and takes its part.
 */
import { splitConcurrency, splitRequests } from '../core/index.js';
import { arrivalOps } from '../workload/index.js';
import type { LevelShare } from './level-request.js';
import type { SweepSpec } from './sweep-spec.js';

/** Which share of how many. */
export type ShareOf = Pick<LevelShare, 'index' | 'count'>;

/**
 * The sequence numbers of the measured requests `share` sends at `level` (sessions:
 * of the turns it sends), so a share that never finished can be accounted for.
 */
export function shareSeqs(spec: SweepSpec, level: number, requests: number, share: ShareOf): number[] {
  const plan = arrivalOps(spec.arrival).plan(level, spec.prompts.kind === 'sessions' ? spec.prompts.sessions.length : requests);
  if (spec.prompts.kind === 'sessions') {
    const sessions = spec.prompts.sessions;
    let ids: number[];
    if (plan.kind === 'closed') {
      const part = closedPart(plan.slots, sessions.length, share);
      ids = Array.from({ length: part.to - part.from }, (_, k) => part.from + k);
    } else ids = openPart(plan.offsetsNs.length, share);
    const turns = ids.reduce((a, id) => a + (sessions[id]?.turns.length ?? 0), 0);
    return Array.from({ length: turns }, (_, k) => k * share.count + share.index);
  }
  if (plan.kind === 'closed') {
    const part = closedPart(plan.slots, requests, share);
    return Array.from({ length: part.to - part.from }, (_, k) => spec.warmup + part.from + k);
  }
  return openPart(plan.offsetsNs.length, share).map((i) => spec.warmup + i);
}

/** This share's slots (`slots` of them from stream `firstSlot` of the level on) and request range of a closed loop of `slots` streams and `total` requests. */
export function closedPart(slots: number, total: number, share: ShareOf | undefined): { slots: number; firstSlot: number; from: number; to: number } {
  const streams = Math.min(slots, total);
  if (!share) return { slots: streams, firstSlot: 0, from: 0, to: total };
  const each = splitConcurrency(streams, share.count);
  const range = splitRequests(total, each)[share.index] as { from: number; to: number };
  const firstSlot = each.slice(0, share.index).reduce((a, n) => a + n, 0);
  return { slots: each[share.index] as number, firstSlot, ...range };
}

/** The positions of `n` scheduled sends this share makes (every count-th, from its index). */
export function openPart(n: number, share: ShareOf | undefined): number[] {
  const step = share?.count ?? 1;
  const out: number[] = [];
  for (let i = share?.index ?? 0; i < n; i += step) out.push(i);
  return out;
}

/** An open loop's in-flight cap for this share (at least 1: the sweep never runs more shares than the cap). */
export const capPart = (max: number, share: ShareOf | undefined) => (share ? Math.max(1, splitConcurrency(max, share.count)[share.index] as number) : max);
