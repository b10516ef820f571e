/**
 * A table of text rows in its scrolling frame, the first cell of each row its
 * header: a panel's per-level table (figures right-aligned, long headers given
 * room for two lines; `textLast` keeps the last column as text, a path), or,
 * with `plain`, a table of labels (the clients and workers).
 */
interface Props {
  headers: readonly string[];
  rows: string[][];
  /** The table's accessible name, when it has no caption. */
  label?: string;
  caption?: string;
  textLast?: boolean;
  plain?: boolean;
}

export function LevelTable({ headers, rows, label, caption, textLast = false, plain = false }: Props) {
  const align = (numeric: boolean) => (plain ? undefined : numeric ? 'num' : '');
  return (
    <div class="table-wrap">
      <table class={plain ? 'clients' : 'results levels'} aria-label={label}>
        {caption !== undefined && <caption>{caption}</caption>}
        <thead>
          <tr>
            {headers.map((h, i) => (
              <th scope="col" class={align(i > 0)}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr>{r.map((c, i) => (i === 0 ? <th scope="row">{c}</th> : <td class={align(!(textLast && i === r.length - 1))}>{c}</td>))}</tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
