/**
 * How long a test may wait before it is called hung. Timeouts in tests guard
 * against hangs; they are never performance checks (those live in the timing
 * pass). Quiet, this machine kind runs the suite in ~13 minutes; with two other
 * suites beside it (load ~10 on 2 cores) every test takes up to ~5× as long,
 * so every timeout a test or harness sets is multiplied by this factor, the
 * same in the config, the harnesses and the tests. GOODPUT_TEST_PATIENCE
 * overrides it (a number from 1 to 20).
 */
const DEFAULT_FACTOR = 5;

function factorFromEnv(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_FACTOR;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 1 || n > 20) throw new Error(`GOODPUT_TEST_PATIENCE must be a number from 1 to 20, not ${JSON.stringify(raw)}`);
  return n;
}

/** The factor every test timeout is multiplied by. */
export const PATIENCE = factorFromEnv(process.env.GOODPUT_TEST_PATIENCE);

/** `ms`, as long as this machine may need under load. */
export function patient(ms: number): number {
  return Math.round(ms * PATIENCE);
}
