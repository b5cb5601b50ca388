// The exploratory economics table: stamped in its first line, one row per condition and cache profile, and the
// chapter's outcome "reduction is large but overhead and cache effects remove the economic benefit" told apart from
// a net win and from removing nothing.
import { describe, expect, it } from 'vitest';
import type { EconomicsTotal } from '../../src/economics/record.js';
import type { Analysis, ConditionRow } from '../../src/report/analysis.js';
import { economicsTables, economicVerdict, EXPLORATORY_TITLE } from '../../src/report/economics.js';
import { EXPLORATORY_STAMP, tableCsv } from '../../src/report/tables.js';

const total = (over: Partial<EconomicsTotal>): EconomicsTotal => ({
  profile: 'anthropic-5m',
  points: 4,
  unknownPoints: 0,
  savedTokens: 1000,
  savings: 3000,
  cacheLoss: 0,
  overhead: 0,
  net: 3000,
  ...over,
});
const row = (condition: string, economics: EconomicsTotal[]) =>
  ({ condition, reduction: { estimate: 0.4, lo: 0.3, hi: 0.5 }, economics }) as unknown as ConditionRow;
const analysis = (rows: ConditionRow[]) => ({ rows }) as unknown as Analysis;

describe('economics table', () => {
  it('judges the outcome from the net, not from the reduction', () => {
    expect(economicVerdict(total({}))).toBe('net win');
    expect(economicVerdict(total({ cacheLoss: 2500, overhead: 600, net: -100 }))).toBe('benefit removed');
    expect(economicVerdict(total({ cacheLoss: 3000, net: 0 }))).toBe('benefit removed');
    expect(economicVerdict(total({ savedTokens: 0, savings: 0, net: 0 }))).toBe('no reduction');
    expect(economicVerdict(total({ unknownPoints: 4 }))).toBe('unknown');
  });

  it('has one row per condition and profile, stamped exploratory in its title and first column', () => {
    const [t] = economicsTables(
      analysis([
        row('raw', [
          total({ savedTokens: 0, savings: 0, net: 0 }),
          total({ profile: 'openai-in-memory', savedTokens: 0, savings: 0, net: 0 }),
        ]),
        row('ladder-0-3', [
          total({ cacheLoss: 4000, net: -1000 }),
          total({ profile: 'openai-in-memory', cacheLoss: 1000, net: 2000 }),
        ]),
      ]),
    );
    expect(t!.title).toBe(EXPLORATORY_TITLE);
    expect(t!.title.startsWith('EXPLORATORY')).toBe(true);
    const csv = tableCsv(t!, { preregisteredTables: [] }).split('\n');
    expect(csv[0]).toBe(EXPLORATORY_STAMP);
    expect(csv[1]!.startsWith('exploratory,condition,profile')).toBe(true);
    expect(
      csv
        .slice(2)
        .filter(Boolean)
        .map((l) => l.split(',').slice(0, 3).join(',') + ' ' + l.split(',').at(-1)),
    ).toEqual([
      'true,raw,anthropic-5m no reduction',
      'true,raw,openai-in-memory no reduction',
      'true,ladder-0-3,anthropic-5m benefit removed',
      'true,ladder-0-3,openai-in-memory net win',
    ]);
  });

  it('writes no table for results recorded before the economics existed', () => {
    expect(economicsTables(analysis([row('raw', [])]))).toEqual([]);
  });
});
