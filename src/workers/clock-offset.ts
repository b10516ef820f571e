/**
 * How far a machine's clock is from the database server's, NTP-style: several
 * round trips, each giving an offset (the server's time minus the midpoint of
 * our send and receive) and a round-trip time. The half of the samples with the
 * shortest round trips are kept, their median offset is the estimate, and the
 * longest kept round trip, halved, bounds its error: the server read its clock
 * somewhere inside each round trip.
 */

/** A wall clock in epoch ms, sub-ms (monotonic-based: performance.timeOrigin + performance.now()). */
export type WallClock = () => number;

export interface ClockOffset {
  /** The database's clock minus ours, ms. */
  offsetMs: number;
  /** The estimate is within ± this, ms. */
  uncertaintyMs: number;
  samples: number;
}

/** Round trips per measurement. */
export const OFFSET_SAMPLES = 9;
/** A clock whose offset is known no better than this is refused, ms. */
export const MAX_CLOCK_UNCERTAINTY_MS = 10;

/** Our wall clock: a monotonic source pinned to the epoch once, so it never steps. */
export const wallClock: WallClock = () => performance.timeOrigin + performance.now();

/** Measures the offset with `serverMs()` (one round trip returning the server's epoch ms). */
export async function measureClockOffset(serverMs: () => Promise<number>, wall: WallClock, samples = OFFSET_SAMPLES): Promise<ClockOffset> {
  const rows: Array<{ offset: number; rtt: number }> = [];
  for (let i = 0; i < samples; i++) {
    const t0 = wall();
    const s = await serverMs();
    const t1 = wall();
    rows.push({ offset: s - (t0 + t1) / 2, rtt: t1 - t0 });
  }
  const best = rows.sort((a, b) => a.rtt - b.rtt).slice(0, Math.max(1, Math.ceil(rows.length / 2)));
  const offsets = best.map((r) => r.offset).sort((a, b) => a - b);
  const mid = offsets.length >> 1;
  const offsetMs = offsets.length % 2 === 1 ? (offsets[mid] as number) : ((offsets[mid - 1] as number) + (offsets[mid] as number)) / 2;
  return { offsetMs, uncertaintyMs: Math.max(...best.map((r) => r.rtt)) / 2, samples };
}

/** Measurements tried before an offset is refused: a machine busy for a moment (many processes starting at once) gets another chance. */
export const OFFSET_ATTEMPTS = 4;

/** The best of up to OFFSET_ATTEMPTS measurements (the smallest error bound), stopping at the first within the bound. */
export async function measureClockOffsetWell(serverMs: () => Promise<number>, wall: WallClock): Promise<ClockOffset> {
  let best = await measureClockOffset(serverMs, wall);
  for (let i = 1; i < OFFSET_ATTEMPTS && best.uncertaintyMs > MAX_CLOCK_UNCERTAINTY_MS; i++) {
    await new Promise((r) => setTimeout(r, 250 * i));
    const again = await measureClockOffset(serverMs, wall);
    if (again.uncertaintyMs < best.uncertaintyMs) best = again;
  }
  return best;
}

/** Why a measured offset cannot be used, or null when it can. */
export function offsetProblem(o: ClockOffset): string | null {
  return o.uncertaintyMs > MAX_CLOCK_UNCERTAINTY_MS
    ? `its clock offset to the database is known only to ±${o.uncertaintyMs.toFixed(1)} ms (the bound is ±${MAX_CLOCK_UNCERTAINTY_MS} ms): the database is too far or too busy to agree a start instant with it`
    : null;
}
