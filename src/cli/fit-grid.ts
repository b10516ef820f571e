/**
 * Text that fits a terminal of a given width (120 columns by default): lines
 * wrapped at spaces with a hanging indent, and tables whose widest columns
 * wrap their cells onto more lines until the whole table fits.
 */

export const TERMINAL_COLUMNS = 120;

/** Narrowest a wrapped column gets: a badge ("client-bound") or a number still reads. */
const MIN_COLUMN = 8;

/** `text` cut into lines of at most `width`, at spaces (or after a hyphen or slash) where it can, mid-word where it must. */
export function wrapCell(text: string, width: number): string[] {
  const out: string[] = [];
  let rest = text.trim();
  while (rest.length > width) {
    const head = rest.slice(0, width + 1);
    const space = head.lastIndexOf(' ');
    const soft = Math.max(head.slice(0, width).lastIndexOf('-'), head.slice(0, width).lastIndexOf('/'), head.slice(0, width).lastIndexOf(','));
    const cut = space > 0 ? space : soft > 0 ? soft + 1 : width;
    out.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  out.push(rest);
  return out;
}

/** One line wrapped to `width`, its continuation lines indented two past its own indent. */
export function wrapLine(line: string, width = TERMINAL_COLUMNS): string[] {
  if (line.length <= width) return [line];
  const indent = /^ */.exec(line)?.[0] ?? '';
  const hang = `${indent}  `;
  const [first, ...rest] = wrapCell(line.slice(indent.length), width - indent.length);
  const tail = rest.join(' ');
  return [`${indent}${first ?? ''}`, ...(tail === '' ? [] : wrapCell(tail, width - hang.length).map((l) => `${hang}${l}`))];
}

/**
 * A table within `width` columns: the first column left-aligned, the others
 * right-aligned, a rule under the headers; while it is too wide, the widest
 * column gives up one character and its cells wrap onto more lines.
 */
export function fitGrid(headers: readonly string[], rows: ReadonlyArray<ReadonlyArray<string>>, width = TERMINAL_COLUMNS): string {
  const all = [headers, ...rows];
  const widths = headers.map((_, i) => Math.max(1, ...all.map((r) => (r[i] ?? '').length)));
  const total = () => widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
  while (total() > width) {
    let widest = -1;
    widths.forEach((w, i) => {
      if (w > MIN_COLUMN && (widest < 0 || w > (widths[widest] as number))) widest = i;
    });
    if (widest < 0) break;
    widths[widest] = (widths[widest] as number) - 1;
  }
  const render = (cells: readonly string[]): string[] => {
    const wrapped = widths.map((w, i) => wrapCell(cells[i] ?? '', w));
    const height = Math.max(...wrapped.map((c) => c.length));
    return Array.from({ length: height }, (_, k) =>
      wrapped
        .map((c, i) => {
          const text = c[k] ?? '';
          return i === 0 ? text.padEnd(widths[i] as number) : text.padStart(widths[i] as number);
        })
        .join('  ')
        .trimEnd(),
    );
  };
  return [...render(headers), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.flatMap(render)].join('\n');
}
