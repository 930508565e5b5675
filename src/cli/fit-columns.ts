/**
 * Fitting a table into a terminal width (`process.stdout.columns`): text cells are shortened in the middle with `…`
 * (a path keeps its start and its file name), headers wrap after an underscore (`judge_output_` / `tokens`), numbers are
 * never cut. When even that is too wide, the columns go in panels one under the other, each repeating the first column.
 */

const GAP = 2;
/** A text column is never cut below this (or its longest value, if shorter). */
const MIN_TEXT = 12;

/** The pieces a header may wrap into: after each underscore. */
function headerPieces(header: string): string[] {
  return header.split(/(?<=_)/);
}

/** A header wrapped into lines at most `width` long (pieces joined greedily). */
function wrapHeader(header: string, width: number): string[] {
  const lines: string[] = [];
  for (const piece of headerPieces(header)) {
    if (lines.length > 0 && lines[lines.length - 1]!.length + piece.length <= width) lines[lines.length - 1] += piece;
    else lines.push(piece);
  }
  return lines;
}

/** A value cut to `width` in the middle: `episodes/ddr/…-p-0001.json`. */
export function elide(text: string, width: number): string {
  if (text.length <= width) return text;
  if (width <= 1) return '…'.slice(0, width);
  const head = Math.ceil((width - 1) / 2);
  return `${text.slice(0, head)}…${text.slice(text.length - (width - 1 - head))}`;
}

/** The widths when nothing is cut, and the least each column can take (numbers whole, text down to MIN_TEXT, headers by piece). */
function measure(columns: string[], cells: string[][], numeric: boolean[]): { natural: number[]; least: number[] } {
  const natural = columns.map((header, c) => Math.max(header.length, ...cells.map((row) => row[c]!.length)));
  const least = columns.map((header, c) => {
    const values = Math.max(0, ...cells.map((row) => row[c]!.length));
    const pieces = Math.max(...headerPieces(header).map((piece) => piece.length));
    return Math.min(natural[c]!, Math.max(pieces, numeric[c] ? values : Math.min(values, MIN_TEXT)));
  });
  return { natural, least };
}

const span = (widths: readonly number[]) => widths.reduce((sum, w) => sum + w, 0) + GAP * (widths.length - 1);

/**
 * Column widths within `width`: the widest column above its least loses a character at a time until the table fits
 * or every column is at its least.
 */
function shrink(natural: readonly number[], least: readonly number[], width: number): number[] {
  const widths = [...natural];
  while (span(widths) > width) {
    let pick = -1;
    for (let c = 0; c < widths.length; c++) if (widths[c]! > least[c]! && (pick === -1 || widths[c]! > widths[pick]!)) pick = c;
    if (pick === -1) break;
    widths[pick]! -= 1;
  }
  return widths;
}

/** One panel: header lines (wrapped), a rule, the rows (cut to width), columns padded. */
function panel(columns: string[], cells: string[][], widths: number[]): string[] {
  const headers = columns.map((header, c) => wrapHeader(header, widths[c]!));
  const depth = Math.max(...headers.map((lines) => lines.length));
  const line = (row: string[]) => row.map((cell, c) => elide(cell, widths[c]!).padEnd(widths[c]!)).join(' '.repeat(GAP)).trimEnd();
  return [
    ...Array.from({ length: depth }, (_, index) => line(headers.map((lines) => lines[index] ?? ''))),
    widths.map((w) => '-'.repeat(w)).join(' '.repeat(GAP)),
    ...cells.map(line),
  ];
}

/**
 * A table's lines within `width`: shrunk (text cut, headers wrapped) when that is enough; else in panels one under the
 * other, each the first column and as many of the next as fit whole, shrunk only if one column alone is too wide.
 */
export function fitColumns(columns: string[], cells: string[][], numeric: boolean[], width: number): string[] {
  const { natural, least } = measure(columns, cells, numeric);
  if (span(least) <= width || columns.length <= 2) return panel(columns, cells, shrink(natural, least, width));
  const lines: string[] = [];
  let next = 1;
  while (next < columns.length) {
    const chosen = [0];
    while (next < columns.length && (chosen.length === 1 || span([...chosen, next].map((c) => natural[c]!)) <= width)) chosen.push(next++);
    if (lines.length > 0) lines.push('');
    const widths = shrink(chosen.map((c) => natural[c]!), chosen.map((c) => least[c]!), width);
    lines.push(...panel(chosen.map((c) => columns[c]!), cells.map((row) => chosen.map((c) => row[c]!)), widths));
  }
  return lines;
}
