// Markdown tables as a reader prints them: a column of numbers right-aligned, so digits line up, and every whole
// number of four or more digits grouped in thousands ("15,456,952"); text columns left-aligned. CSV keeps the bare
// numbers: it is for machines.

/** 15456952 -> "15,456,952"; the fraction is left as it is. */
export function thousands(n: number): string {
  const [whole, fraction] = String(n).split('.');
  const sign = whole!.startsWith('-') ? '-' : '';
  const digits = sign ? whole!.slice(1) : whole!;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** Groups the integer part of every number of four or more digits in a numeric cell. */
function groupDigits(cell: string): string {
  // A digit run not preceded by a decimal point or another digit is an integer part; runs after "." are fractions.
  return cell.replace(/(?<![.\d])\d{4,}/g, (run) => thousands(Number(run)));
}

// A cell is numeric when it starts with a number ("0.016 [0.011, 0.022]", "28/29 = 0.966", "-26", "12%");
// "undefined" and dashes stand for a missing number and do not make a column text.
const NUMERIC = /^[-−+]?\$?\d/;
const MISSING = new Set(['', 'undefined', '–', '-', '—']);

export function isNumericColumn(cells: readonly string[]): boolean {
  const present = cells.filter((c) => !MISSING.has(c.trim()));
  return present.length > 0 && present.every((c) => NUMERIC.test(c.trim()));
}

const escapeCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const numeric = header.map((_, i) => isNumericColumn(rows.map((r) => r[i] ?? '')));
  const cell = (text: string, i: number) => escapeCell(numeric[i] ? groupDigits(text) : text);
  return [
    `|${header.map(escapeCell).join('|')}|`,
    `|${numeric.map((n) => (n ? '-:' : ':-')).join('|')}|`,
    ...rows.map((r) => `|${header.map((_, i) => cell(r[i] ?? '', i)).join('|')}|`),
  ].join('\n');
}
