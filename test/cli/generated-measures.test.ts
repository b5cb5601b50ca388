// The generated tables of the README and docs/study.md print the base rate beside every precision and false-prune
// rate (docs/measures.md), and the study's table carries the primary harm rate, each figure as value (num/den).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Summary } from '../../src/artifacts/schema.js';
import { renderHeadlineMarkdown } from '../../src/cli/docs.js';
import { renderResultsMarkdown } from '../../src/cli/render.js';
import type { Registered } from '../../src/policy/registry.js';
import { baseRate, unscored } from '../../src/score/ratio.js';

const summary = (name: string) =>
  Summary.parse(JSON.parse(readFileSync(join('results', name, 'summary.json'), 'utf8')));
const names = ['raw', 'prune-all', 'ladder-0-3'];
const summaries = names.map(summary);

/** The header and the rows of the first Markdown table in `text`, split into cells. */
function firstTable(text: string): { header: string[]; rows: Map<string, string[]> } {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('| condition'));
  const cells = (l: string) =>
    l
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
  const header = cells(lines[at]!);
  const rows = new Map<string, string[]>();
  for (const l of lines.slice(at + 2)) {
    if (!l.startsWith('|')) break;
    const c = cells(l);
    rows.set(c[0]!.replace(/`/g, ''), c);
  }
  return { header, rows };
}

describe("docs/study.md's results table", () => {
  const { header, rows } = firstTable(renderResultsMarkdown(summaries));

  it('prints the harm rate and obligations lost as value (numerator/denominator)', () => {
    for (const s of summaries) {
      const row = rows.get(s.condition)!;
      const h = s.harm!;
      const value = h.necessaryItems === 0 ? 'undefined' : (h.necessaryRemoved / h.necessaryItems).toFixed(3);
      expect(row[header.indexOf('harm rate')], s.condition).toBe(
        `${value} (${h.necessaryRemoved}/${h.necessaryItems})`,
      );
      const o = s.obligationsLost;
      expect(row[header.indexOf('obligations lost')], s.condition).toBe(
        `${(o.lost / o.declared).toFixed(3)} (${o.lost}/${o.declared})`,
      );
    }
    expect(rows.get('prune-all')![header.indexOf('harm rate')]).toMatch(/^1\.000 \(/);
  });

  it('prints the base rate beside precision and the false-prune rate', () => {
    const b = header.indexOf('base rate');
    expect(b).toBeGreaterThan(0);
    expect(header.slice(b, b + 3)).toEqual(['base rate', 'precision', 'false-prune rate']);
    for (const s of summaries) {
      const eligible = s.coverage.denominator!;
      expect(rows.get(s.condition)![b], s.condition).toBe(
        `${(eligible / s.decisions.total).toFixed(3)} (${eligible}/${s.decisions.total})`,
      );
    }
  });

  it('prints 0/0 as undefined, keeps obligations preserved as value (num/den), and the tokens in a table of their own', () => {
    const raw = rows.get('raw')!;
    expect(raw[header.indexOf('precision')]).toBe('undefined (0/0)');
    const o = summaries[0]!.obligations;
    expect(raw[header.indexOf('obligations preserved')]).toBe(`1.000 (${o.preserved}/${o.total})`);
    const text = renderResultsMarkdown(summaries);
    expect(text).toContain('| condition | raw tokens | removed | placeholder | overhead | final |');
    expect(text).toContain(`| \`raw\` | ${summaries[0]!.tokens.raw} |`);
  });
});

describe("the README's headline table", () => {
  const registered = names.map((name) => ({ variant: 'base', condition: { name } })) as unknown as Registered[];
  const baseRateOf = (s: Summary) =>
    `${((100 * s.coverage.denominator!) / s.decisions.total).toFixed(2)}% (${s.coverage.denominator}/${s.decisions.total})`;

  it('prints the harm rate, and the base rate beside precision: once, in its header, where every condition shares it', () => {
    const { header, rows } = firstTable(renderHeadlineMarkdown(summaries, registered));
    expect(new Set(summaries.map(baseRateOf)).size).toBe(1);
    expect(header).toContain(`precision (base rate ${baseRateOf(summaries[0]!)})`);
    const h = header.indexOf('harm rate');
    for (const s of summaries)
      expect(rows.get(s.condition)![h]).toBe(
        `${((100 * s.harm!.necessaryRemoved) / s.harm!.necessaryItems).toFixed(2)}% (${s.harm!.necessaryRemoved}/${s.harm!.necessaryItems})`,
      );
  });

  it('gives each row its own base rate, beside its precision, where the conditions decided on different items', () => {
    const other = {
      ...summaries[2]!,
      decisions: { ...summaries[2]!.decisions, total: summaries[2]!.decisions.total + 1 },
    };
    const mixed = [summaries[0]!, summaries[1]!, other];
    const { header, rows } = firstTable(renderHeadlineMarkdown(mixed, registered));
    const b = header.indexOf('base rate');
    expect(header[b + 1]).toBe('precision');
    for (const s of mixed) expect(rows.get(s.condition)![b], s.condition).toBe(baseRateOf(s));
  });
});

describe('baseRate', () => {
  it('is the eligible share of the decisions, and unscored where coverage is (no oracle)', () => {
    expect(baseRate({ coverage: { numerator: 2, denominator: 5, value: 0.4 }, decisions: { total: 10 } })).toEqual({
      numerator: 5,
      denominator: 10,
      value: 0.5,
    });
    const none = baseRate({ coverage: unscored(null, 'no oracle'), decisions: { total: 10 } });
    expect(none.numerator).toBeNull();
    expect(renderResultsMarkdown([])).toContain('| condition |');
  });
});
