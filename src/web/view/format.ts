/** Number and time formatting for the page: grouped digits, a dash for no value (never a zero). */

/** 1234.5 → "1,234.5"; null → "—". */
export function num(x: number | null | undefined, digits = 1): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** "$1.29". */
export function usd(x: number | null | undefined, digits = 2): string {
  return x === null || x === undefined ? '—' : `$${num(x, digits)}`;
}

/** ISO time → "2025-01-02 03:04 UTC". */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** A signed percentage with a real minus sign: "+18 %", "−5.2 %". */
export function signedPct(x: number): string {
  const digits = Math.abs(x) < 10 ? 1 : 0;
  return `${x > 0 ? '+' : x < 0 ? '−' : '±'}${num(Math.abs(x), digits)} %`;
}
