/** `bytes` cut at the given positions (any order, duplicates allowed; each taken modulo the length + 1). */
export function splitBytes(bytes: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let prev = 0;
  for (const c of at) {
    pieces.push(bytes.subarray(prev, c));
    prev = c;
  }
  pieces.push(bytes.subarray(prev));
  return pieces;
}
