/** A per-level table of a panel in its scrolling frame (long headers get room for two lines); `textLast` keeps the last column as text (a path), not a right-aligned number. */
export function LevelTable({ headers, rows, label, textLast = false }: { headers: readonly string[]; rows: string[][]; label: string; textLast?: boolean }) {
  return (
    <div class="table-wrap">
      <table class="results levels" aria-label={label}>
        <thead>
          <tr>
            {headers.map((h, i) => (
              <th scope="col" class={i === 0 ? '' : 'num'}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr>{r.map((c, i) => (i === 0 ? <th scope="row">{c}</th> : <td class={textLast && i === r.length - 1 ? '' : 'num'}>{c}</td>))}</tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
