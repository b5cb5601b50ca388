// The one CSV dialect every written table uses (points.csv, the ecology tables): comma-separated, a field quoted
// only when it holds a comma, a quote or a line break, a quote doubled inside quotes, null as an empty field.
export type CsvValue = string | number | boolean | null;

export function csvField(value: CsvValue): string {
  const text = value === null ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, with its line break. */
export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\n`;
}

/** A whole table: the header, then every row. */
export function csvTable(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map(csvRow).join('');
}

/** Splits one line written by csvRow back into its fields (a line, so a field's own line break is not supported). */
export function csvCells(line: string): string[] {
  const cells: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      i += 1;
      while (i < line.length && !(line[i] === '"' && line[i + 1] !== '"')) {
        value += line[i] === '"' ? '"' : line[i];
        i += line[i] === '"' ? 2 : 1;
      }
      cells.push(value);
      i += 2;
    } else {
      const comma = line.indexOf(',', i);
      const stop = comma < 0 ? line.length : comma;
      cells.push(line.slice(i, stop));
      i = stop + 1;
    }
  }
  return cells;
}
