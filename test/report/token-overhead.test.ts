// What the tokens table and chart say "final" is must be what the scoring computes: final = raw - removed +
// placeholder (src/score/score.ts); a policy's overhead is reported beside it and is not part of it.
import { describe, expect, it } from 'vitest';
import type { Analysis, ConditionRow } from '../../src/report/analysis.js';
import { buildCharts } from '../../src/report/charts.js';
import { buildTables } from '../../src/report/tables.js';

const tokens = { raw: 1000, removed: 500, placeholder: 20, overhead: 300, final: 520 };
const p = { numerator: 0, denominator: 10, value: 0, lo: 0, hi: 0 };
const row = {
  fixtures: 1,
  prunePoints: 1,
  prunes: 5,
  precision: p,
  falsePruneRate: p,
  deferRate: p,
  obligationsPreserved: p,
  obligationsLost: p,
  baseRate: p,
  refetchAlerts: 0,
  cost: null,
  economics: [],
  condition: 'model-policy',
  exploratory: false,
  layer: 'A',
  rung: 4,
  upperRisk: false,
  sweep: null,
  tokens,
  reduction: { estimate: 0.48, lo: 0.4, hi: 0.5, seed: '1', iterations: 10 },
  harmRate: { numerator: 0, denominator: 10, value: 0, lo: 0, hi: 0 },
  coverage: { numerator: 1, denominator: 10, value: 0.1, lo: 0, hi: 0.2 },
  abstentionRate: { numerator: 0, denominator: 10, value: 0, lo: 0, hi: 0 },
} as unknown as ConditionRow;
const a = {
  fixtures: 1,
  prunePoints: 1,
  seed: 1,
  iterations: 10,
  exploratory: false,
  preregistration: { file: 'p.json', sha256: 'x'.repeat(64) },
  preregisteredTables: [],
  rows: [row],
  comparisons: [],
  secondary: [],
  ladder: [],
  families: [],
  thresholds: [],
  corpora: [],
  behaviour: [],
  pointOutcomes: [],
  plan: { file: 'p.json', sha256: 'x' },
  proposed: null,
} as unknown as Analysis;

describe('final tokens', () => {
  it('is raw - removed + placeholder in the data these captions describe', () => {
    expect(tokens.final).toBe(tokens.raw - tokens.removed + tokens.placeholder);
  });

  it('are not said to include the overhead by the tokens table', () => {
    const notes = buildTables(a)
      .find((t) => t.name === 'tokens')!
      .notes.join(' ');
    expect(notes).toContain('final = raw - removed + placeholder,');
    expect(notes).not.toContain('+ overhead');
  });

  it('nor by the tokens chart, whose takeaway counts only what the context holds', () => {
    const chart = buildCharts(a).find((c) => c.name === 'tokens')!;
    const subtitle = (chart.spec.title as { subtitle: string[] }).subtitle.join(' ');
    expect(subtitle).not.toContain('plus model-call overhead');
    // Placeholders add back 20 of 1000 tokens (2.0%); the 300 overhead tokens are not in the final context.
    expect(chart.caption).toContain('placeholders add back at most 2.0% of raw');
  });
});
