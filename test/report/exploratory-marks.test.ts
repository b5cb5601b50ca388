// A condition stamped exploratory alone (the preregistration does not name it) is marked wherever its figures appear:
// in every table's CSV (an exploratory column) and Markdown, preregistered tables included, and in every chart; and
// a chart drawn from a table the preregistration does not name is stamped exploratory as that table is.
import { describe, expect, it } from 'vitest';
import { buildCharts, CHART_EXPLORATORY_STAMP } from '../../src/report/charts.js';
import { buildTables, tableCsv } from '../../src/report/tables.js';
import { quickAnalysis } from './support.js';

const a = quickAnalysis();
const tables = buildTables(a);
const charts = buildCharts(a);
// Committed today: the package runs and the scaled comparators are stamped exploratory alone.
const EXPLORATORY = 'anthropic-clear-tool-uses';

describe('conditions stamped exploratory alone', () => {
  it('exist in the committed results', () => {
    expect(a.rows.find((r) => r.condition === EXPLORATORY)?.exploratory).toBe(true);
  });

  it('carry an exploratory column in the CSV of every table of conditions', () => {
    for (const name of [
      'measures',
      'layer-a',
      'comparators',
      'ladder',
      'families',
      'frontier',
      'tokens',
      'thresholds',
    ]) {
      const t = tables.find((x) => x.name === name)!;
      expect(t.data.columnNames(), name).toContain('exploratory');
    }
    const comparators = tables.find((x) => x.name === 'comparators')!;
    const csv = tableCsv(comparators, a).split('\n');
    const header = csv[0]!.split(',');
    const line = csv.find((l) => l.startsWith(`${EXPLORATORY},`))!.split(',');
    expect(line[header.indexOf('exploratory')]).toBe('true');
    const proposed = csv.find((l) => l.startsWith('ladder-0-3,'))!.split(',');
    expect(proposed[header.indexOf('exploratory')]).toBe('false');
  });

  it('are marked in the Markdown of the preregistered families and thresholds tables, and of frontier and tokens', () => {
    for (const [name, column] of [
      ['families', 'condition'],
      ['thresholds', 'curve'],
      ['frontier', 'condition'],
      ['tokens', 'condition'],
    ] as const) {
      const names = tables.find((x) => x.name === name)!.view.array(column) as string[];
      expect(names, name).toContain(`${EXPLORATORY} (exploratory)`);
      expect(names, name).not.toContain(EXPLORATORY);
    }
  });

  it('are marked in every chart that draws them', () => {
    for (const name of ['harm-reduction', 'coverage-abstention', 'tokens']) {
      const spec = JSON.stringify(charts.find((c) => c.name === name)!.spec);
      expect(spec, name).toContain(`"${EXPLORATORY} ‡"`);
      expect(spec, name).toContain('exploratory: the preregistration does not name it');
    }
  });
});

describe('charts drawn from a table the preregistration does not name', () => {
  const subtitle = (name: string) =>
    ((charts.find((c) => c.name === name)!.spec.title as { subtitle: string[] }).subtitle ?? []).join(' ');

  it('are stamped exploratory, as their table is', () => {
    expect(a.preregisteredTables).not.toContain('frontier');
    expect(a.preregisteredTables).not.toContain('tokens');
    expect(subtitle('frontier')).toContain(CHART_EXPLORATORY_STAMP);
    expect(subtitle('tokens')).toContain(CHART_EXPLORATORY_STAMP);
  });

  it('while a chart of a preregistered table is not', () => {
    expect(subtitle('harm-reduction')).not.toContain(CHART_EXPLORATORY_STAMP);
    expect(subtitle('ladder-waterfall')).not.toContain(CHART_EXPLORATORY_STAMP);
  });
});
