/** The most intervals open at once; an end and a start at the same instant do not overlap. */
export function peakOverlap(intervals: ReadonlyArray<readonly [start: number, end: number]>): number {
  const events: Array<[number, number]> = [];
  for (const [start, end] of intervals) events.push([start, 1], [end, -1]);
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, d] of events) peak = Math.max(peak, (now += d));
  return peak;
}
