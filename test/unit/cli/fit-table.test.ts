import { describe, expect, it } from 'vitest';
import { elide } from '../../../src/cli/fit-columns.ts';
import { formatTable } from '../../../src/cli/format-table.ts';

const widest = (text: string) => Math.max(...text.split('\n').map((line) => line.length));

/** A leaderboard row as `sandbox results` prints it: names, a long suite path, numbers. */
const board = {
  title: 'Leaderboard',
  columns: ['run', 'model', 'suite', 'enforcement', 'group', 'episodes', 'graded', 'pass_rate', 'sr', 'psr', 'accuracy'],
  rows: [
    ['block', 'openai:gpt-4o-mini', 'episodes/ddr/ddr-clinical-p-0001.json', 'block', 'clinical', 120, 118, 0.8475, 0.9, 0.95, '-'],
    ['observe', 'reference', 'episodes/cctu/cctu2-mh-001.json', 'observe', 'multi-hop', 3, 3, 1, 1, 1, '-'],
  ],
};

describe('results tables fit the terminal width', () => {
  it('a table that fits, or with no width given, is printed whole as before', () => {
    const whole = formatTable(board);
    expect(formatTable(board, { width: 400 })).toBe(whole);
    expect(whole).toContain('episodes/ddr/ddr-clinical-p-0001.json');
  });

  it('at 80 columns no line is longer than 80, every value is still there (whole, or a number never cut), and each row keeps its run', () => {
    const text = formatTable(board, { width: 80 });
    expect(widest(text)).toBeLessThanOrEqual(80);
    // too wide at 80 even with text cut to 12: panels, each starting with the first column (run)
    const panels = text.split('\n\n');
    expect(panels.length).toBeGreaterThan(1);
    for (const panel of panels) expect(panel.split('\n').filter((line) => /^(block|observe) /.test(line)).map((line) => line.split(' ')[0])).toEqual(['block', 'observe']);
    // the numbers as formatTable writes them (3 decimals for a fraction): all present, none cut
    for (const value of ['120', '118', '0.848', '0.900', '0.950']) expect(text).toContain(value);
    expect(text).toContain('episodes/ddr/ddr-clinical-p-0001.json');
  });

  it('narrow enough that cutting text suffices: long text is cut in the middle with …, headers wrap after an underscore', () => {
    const table = { title: 't', columns: ['suite', 'pass_rate'], rows: [['episodes/ddr/ddr-clinical-p-0001.json', 0.5]] };
    // natural: 37 + 2 + 9 = 48; at 30 the suite column takes 30 − 2 − 9 = 19 (pass_rate stays: its header could wrap to 5, but nothing else needs it)
    const lines = formatTable(table, { width: 30 }).split('\n');
    expect(lines.every((line) => line.length <= 30)).toBe(true);
    expect(lines[3]).toBe(`${elide('episodes/ddr/ddr-clinical-p-0001.json', 19)}  0.500`);
    const narrower = formatTable(table, { width: 24 }).split('\n');
    // 24 − 2 − 12 (the suite's least) = 10 ≥ 9: pass_rate whole; the suite column gets 24 − 2 − 9 = 13
    expect(narrower[3]).toBe(`${elide('episodes/ddr/ddr-clinical-p-0001.json', 13)}  0.500`);
  });

  it('a number given as text (as results prints a cost: 0.000312) is a number: never cut', () => {
    const table = { title: 't', columns: ['name', 'cost_usd'], rows: [['a-very-long-name-of-a-run-indeed', '0.000312'], ['short', '-']] };
    // 24 − 2 − 8 (0.000312 whole) = 14 for the name
    const lines = formatTable(table, { width: 24 }).split('\n');
    expect(lines[3]).toBe(`${elide('a-very-long-name-of-a-run-indeed', 14)}  0.000312`);
    expect(lines.every((line) => line.length <= 24)).toBe(true);
  });

  it('elide keeps the start and the end: width − 1 characters and …', () => {
    expect(elide('episodes/ddr/ddr-clinical-p-0001.json', 13)).toBe('episod…1.json');
    expect(elide('short', 13)).toBe('short');
    expect(elide('abcdef', 1)).toBe('…');
  });
});
