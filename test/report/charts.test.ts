// The book charts' rules on made-up analyses built to break them: crowded points must still get labels that do not
// overprint, token bars must add to raw even where placeholders outweigh what was removed, the waterfall must keep
// the upper-risk ladder apart, captions must state what the numbers show, and the whole chart must fit a column.
// Only the fields the charts read are filled in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Analysis, ConditionRow, LadderRow } from '../../src/report/analysis.js';
import { buildCharts, LABEL_MARK, TOKEN_SEGMENTS, wrap } from '../../src/report/charts.js';
import { overlaps, placeLabels } from '../../src/report/label-placement.js';
import { isNumericColumn, markdownTable, thousands } from '../../src/report/markdown.js';
import { BOOK_COLUMN_PT, measureText } from '../../src/report/render-chart.js';
import { chartBoxes, collide, overprinted } from './chart-geometry.js';

const share = (numerator: number, denominator: number) => {
  const value = denominator === 0 ? null : numerator / denominator;
  return { numerator, denominator, value, lo: value, hi: value };
};

function row(
  condition: string,
  o: {
    harm: number;
    reduction: number;
    layer?: ConditionRow['layer'];
    upperRisk?: boolean;
    placeholder?: number;
    sweep?: ConditionRow['sweep'];
    abstain?: number;
  },
): ConditionRow {
  const raw = 1_000_000;
  const placeholder = o.placeholder ?? 0;
  const removed = Math.round(o.reduction * raw) + placeholder;
  return {
    condition,
    layer: o.layer ?? 'A',
    rung: null,
    upperRisk: o.upperRisk ?? false,
    sweep: o.sweep ?? null,
    fixtures: 10,
    prunePoints: 20,
    prunes: 5,
    harmRate: share(Math.round(o.harm * 1000), 1000),
    coverage: share(Math.round(o.reduction * 1000), 1000),
    abstentionRate: share(Math.round((o.abstain ?? 0) * 1000), 1000),
    obligationsLost: share(0, 10),
    baseRate: share(300, 1000),
    precision: share(1, 1),
    falsePruneRate: share(0, 1),
    obligationsPreserved: share(10, 10),
    tokens: { raw, removed, placeholder, overhead: 0, final: raw - removed + placeholder },
    reduction: { estimate: o.reduction, lo: o.reduction, hi: o.reduction, seed: 's', iterations: 1 },
    refetchAlerts: 0,
    cost: null,
    economics: [],
  } as unknown as ConditionRow;
}

function ladder(condition: string, r: ConditionRow, previous: string | null, rules: [string, number, number][]) {
  return {
    condition,
    previous,
    row: r,
    removedBy: rules.map(([rule, rung, tokens], i) => ({
      step: i + 1,
      rule,
      rung,
      items: 1,
      netTokensRemoved: tokens,
    })),
    marginal: null,
  } as LadderRow;
}

function analysis(rows: ConditionRow[], ladders: LadderRow[] = [], proposed: string | null = null): Analysis {
  return {
    fixtures: 10,
    prunePoints: 20,
    exploratory: false,
    preregistration: { file: 'p.json', sha256: 'abcdef0123456789' },
    rows,
    ladder: ladders,
    proposed,
  } as unknown as Analysis;
}

// Twelve conditions piled into the low-harm corner, four of them on the very same spot, plus a sweep.
const crowded = [
  row('raw', { harm: 0, reduction: 0, layer: 'control' }),
  row('id-only', { harm: 0, reduction: 0, layer: 'control', upperRisk: true }),
  row('position-only', { harm: 0, reduction: 0, layer: 'control', upperRisk: true }),
  row('exact-redundancy', { harm: 0, reduction: 0.016 }),
  row('ladder-0', { harm: 0, reduction: 0.016, layer: 'B' }),
  row('source-identity', { harm: 0, reduction: 0.014 }),
  row('checked-supersession', { harm: 0.001, reduction: 0.003 }),
  row('verified-completion', { harm: 0.004, reduction: 0.012 }),
  row('ladder-0-2', { harm: 0.06, reduction: 0.099, layer: 'B' }),
  row('ladder-0-3', { harm: 0.064, reduction: 0.109, layer: 'B', abstain: 0.42 }),
  row('ladder-0-3~pressure', { harm: 0.064, reduction: 0.107, layer: 'B', abstain: 0.42 }),
  row('dcp-purge-errors', { harm: 0.033, reduction: 0.061, layer: 'comparator' }),
  row('masking', {
    harm: 0.25,
    reduction: 0.53,
    layer: 'comparator',
    sweep: { base: 'masking', parameter: 'keepLast', value: 10 },
  }),
  row('masking@1', {
    harm: 0.36,
    reduction: 0.79,
    layer: 'comparator',
    sweep: { base: 'masking', parameter: 'keepLast', value: 1 },
  }),
  row('masking@40', {
    harm: 0.12,
    reduction: 0.26,
    layer: 'comparator',
    sweep: { base: 'masking', parameter: 'keepLast', value: 40 },
  }),
  row('prune-all', { harm: 1, reduction: 0.86, layer: 'control', upperRisk: true, placeholder: 140_000 }),
  // Placeholders worth more than what was removed: the final context is longer than raw.
  row('wordy', { harm: 0, reduction: -0.05, placeholder: 100_000 }),
  row('ladder-0-4', { harm: 0.48, reduction: 0.62, layer: 'B', upperRisk: true }),
];
const ladders = [
  ladder('ladder-0', crowded[4]!, null, [['exact-redundancy', 0, 16_000]]),
  ladder('ladder-0-2', crowded[8]!, 'ladder-0', [
    ['exact-redundancy', 0, 16_000],
    ['errored-input-residue', 2, 83_000],
  ]),
  ladder('ladder-0-3', crowded[9]!, 'ladder-0-2', [
    ['exact-redundancy', 0, 16_000],
    ['errored-input-residue', 2, 83_000],
    ['verified-completion', 3, 10_000],
  ]),
  ladder('ladder-0-4', crowded[17]!, 'ladder-0-3', [
    ['exact-redundancy', 0, 16_000],
    ['errored-input-residue', 2, 83_000],
    ['verified-completion', 3, 10_000],
    ['predictive-semantic', 4, 511_000],
  ]),
  ladder('ladder-0-3~pressure', crowded[10]!, 'ladder-0-4', [['exact-redundancy', 0, 15_000]]),
];
const charts = buildCharts(analysis(crowded, ladders, 'ladder-0-3'));
const chart = (name: string) => charts.find((c) => c.name === name)!;
const valuesOf = (spec: unknown): Record<string, unknown>[] => {
  const out: Record<string, unknown>[] = [];
  const walk = (x: unknown) => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') {
      const o = x as Record<string, unknown>;
      if (o.data && typeof o.data === 'object' && Array.isArray((o.data as { values?: unknown }).values))
        out.push(...((o.data as { values: Record<string, unknown>[] }).values ?? []));
      Object.values(o).forEach(walk);
    }
  };
  walk(spec);
  return out;
};

describe('chart text never overprints', () => {
  it.each(charts.map((c) => c.name))(
    '%s: no two visible text boxes overlap and no label covers a point',
    async (name) => {
      const { texts, points } = await chartBoxes(chart(name).spec);
      expect(texts.length).toBeGreaterThan(5);
      expect(overprinted(texts)).toEqual([]);
      for (const t of texts.filter((x) => x.mark.startsWith(LABEL_MARK)))
        expect(
          points.filter((p) => collide(t, p)),
          t.text,
        ).toEqual([]);
    },
  );

  it('labels every point of the crowded corner, sharing one label where points coincide', async () => {
    const { texts } = await chartBoxes(chart('frontier').spec);
    const labels = texts.filter((t) => t.mark.startsWith(LABEL_MARK)).map((t) => t.text);
    const joined = labels.join(' | ');
    for (const name of [
      'raw',
      'exact-redundancy',
      'source-identity',
      'checked-supersession',
      'ladder-0-3',
      'dcp-purge-errors',
    ])
      expect(joined).toContain(name);
    // The four conditions at (0, 0) share one label rather than printing four on top of each other.
    expect(labels.some((l) => l.includes('raw') && l.includes('id-only') && l.includes('position-only'))).toBe(true);
    expect(chart('frontier').spec.title).not.toMatchObject({
      subtitle: expect.arrayContaining([expect.stringMatching(/Not labelled/)]),
    });
  });

  it('the placer refuses overlap for any cloud of points, and still places labels where there is room', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            x: fc.integer({ min: 0, max: 200 }),
            y: fc.integer({ min: 0, max: 150 }),
            n: fc.integer({ min: 1, max: 12 }),
          }),
          {
            minLength: 1,
            maxLength: 25,
          },
        ),
        (pts) => {
          const anchors = pts.map((p, i) => ({ x: p.x, y: p.y, text: `c${i}-${'x'.repeat(p.n)}` }));
          const o = {
            width: 200,
            height: 150,
            fontSize: 6.5,
            measure: (t: string) => measureText(t, 6.5),
            pointRadius: 3,
          };
          const { labels, unplaced } = placeLabels(anchors, o);
          for (let i = 0; i < labels.length; i++) {
            const b = labels[i]!.box;
            expect(b.x1 >= 0 && b.y1 >= 0 && b.x2 <= o.width && b.y2 <= o.height).toBe(true);
            for (let j = i + 1; j < labels.length; j++) expect(overlaps(b, labels[j]!.box)).toBe(false);
            for (const a of anchors)
              expect(overlaps(b, { x1: a.x - 3, y1: a.y - 3, x2: a.x + 3, y2: a.y + 3 })).toBe(false);
          }
          // Every point is named, on a label or in the list of those without room.
          const named = [...labels.map((l) => l.text), ...unplaced].join(', ');
          for (const a of anchors) expect(named).toContain(a.text);
          // A lone point always gets its label.
          if (anchors.length === 1) expect(labels).toHaveLength(1);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('token bars', () => {
  it('stack kept and removed to exactly raw, never longer, even when placeholders outweigh the removal', () => {
    const bars = valuesOf(chart('tokens').spec).filter((v) => TOKEN_SEGMENTS.includes(v.segment as never));
    const byCondition = new Map<string, Record<string, unknown>[]>();
    for (const b of bars)
      byCondition.set(b.condition as string, [...(byCondition.get(b.condition as string) ?? []), b]);
    expect(byCondition.size).toBeGreaterThan(10);
    for (const [condition, segs] of byCondition) {
      const raw = segs[0]!.raw as number;
      const length = segs.reduce((s, b) => s + ((b.end as number) - (b.start as number)), 0);
      expect(length, condition).toBe(raw);
      expect(Math.max(...segs.map((b) => b.end as number)), condition).toBeLessThanOrEqual(raw);
      expect(Math.min(...segs.map((b) => b.start as number)), condition).toBe(0);
    }
    // The final context (a tick, not a bar) may pass raw: here placeholders outweigh what was removed.
    const wordy = valuesOf(chart('tokens').spec).find((v) => v.condition === 'wordy' && 'final' in v)!;
    expect(wordy.final as number).toBeGreaterThan(1_000_000);
  });
});

describe('the waterfall', () => {
  it("draws the proposed ladder's rules in order to its total, and the upper-risk ladder in a panel of its own", () => {
    const spec = chart('ladder-waterfall').spec as { vconcat: { data: { values: Record<string, unknown>[] } }[] };
    expect(spec.vconcat).toHaveLength(2);
    const [main, apart] = spec.vconcat.map((p) => p.data.values);
    expect(main!.map((v) => v.step)).toEqual([
      '1. exact-redundancy (rung 0)',
      '2. errored-input-residue (rung 2)',
      '3. verified-completion (rung 3)',
      'ladder-0-3: total',
    ]);
    expect(main!.at(-1)!.end).toBe(109_000);
    expect(JSON.stringify(main)).not.toContain('predictive-semantic');
    expect(JSON.stringify(main)).not.toContain('ladder-0-4');
    expect(apart!.map((v) => v.step)).toContain('4. predictive-semantic (rung 4)');
    expect(apart!.at(-1)).toMatchObject({ step: 'ladder-0-4 †: total', end: 620_000 });
  });

  it('has no second panel when no upper-risk ladder was run, and never takes a variant for the proposal', () => {
    const spec = buildCharts(
      analysis(
        crowded,
        ladders.filter((l) => !l.row.upperRisk),
        null,
      ),
    ).find((c) => c.name === 'ladder-waterfall')!.spec as { vconcat: unknown[] };
    expect(spec.vconcat).toHaveLength(1);
    expect(JSON.stringify(spec.vconcat[0])).toContain('ladder-0-3: total');
    expect(JSON.stringify(spec.vconcat[0])).not.toContain('pressure');
  });
});

describe('captions', () => {
  it.each(charts.map((c) => c.name))('%s: one sentence of takeaway with its numbers, no hash', (name) => {
    const c = chart(name);
    expect(c.caption).toMatch(/\d+(\.\d)?%|\d{1,3}(,\d{3})+/);
    expect(c.caption).not.toMatch(/sha256|preregistration|[0-9a-f]{12}/);
    expect(c.caption.split(/(?<=\.)\s/)).toHaveLength(1);
    // The hash stays with the chart, as provenance.
    expect(JSON.stringify(c.spec.usermeta)).toContain('abcdef012345');
  });

  it('name the conditions and values that carry the takeaway', () => {
    expect(chart('harm-reduction').caption).toContain('dcp-purge-errors, removes 6.1% of tokens at 3.3% harm');
    expect(chart('coverage-abstention').caption).toContain('ladder-0-3 abstains most, on 42.0%');
    expect(chart('ladder-waterfall').caption).toContain('ladder-0-3 removes 109,000 net tokens');
    expect(chart('ladder-waterfall').caption).toContain('ladder-0-4 would remove 511,000 more at 48.0% harm');
  });

  it('change with the numbers: a safer ladder changes the harm takeaway', () => {
    const safer = crowded.map((r) =>
      r.condition === 'ladder-0-3' ? row('ladder-0-3', { harm: 0.01, reduction: 0.109, layer: 'B' }) : r,
    );
    expect(buildCharts(analysis(safer, ladders, 'ladder-0-3'))[0]!.caption).toContain('ladder-0-3, removes 10.9%');
  });
});

describe('book column', () => {
  it.each(charts.map((c) => c.name))('%s: title and takeaway wrap within the column', (name) => {
    const title = chart(name).spec.title as { text: string[]; subtitle: string[] };
    for (const line of title.text) expect(measureText(line, 9, true)).toBeLessThanOrEqual(BOOK_COLUMN_PT - 12);
    for (const line of title.subtitle) expect(measureText(line, 7.5)).toBeLessThanOrEqual(BOOK_COLUMN_PT - 12);
  });

  it('wraps words without losing any, and keeps a long word whole on its own line', () => {
    const text = 'a '.repeat(80) + 'supercalifragilistic';
    const lines = wrap(text, 50, 7.5);
    expect(lines.join(' ')).toBe(text.trim());
    expect(lines.length).toBeGreaterThan(3);
    expect(wrap('short', 500, 7.5)).toEqual(['short']);
  });
});

describe('Markdown tables', () => {
  it('right-align numeric columns and group thousands; text columns stay left', () => {
    const md = markdownTable(
      ['condition', 'raw', 'harm rate', 'rung', 'cost'],
      [
        ['raw', '15456952', '0/209 = 0.000 [0.000, 0.000]', '–', 'not known'],
        ['prune-all', '2126388', '1029/1317 = 0.781 [0.743, 0.813]', '3', 'not known'],
        ['id-only', '12', 'undefined', '0', 'not known'],
      ],
    ).split('\n');
    expect(md[1]).toBe('|:-|-:|-:|-:|:-|');
    expect(md[2]).toBe('|raw|15,456,952|0/209 = 0.000 [0.000, 0.000]|–|not known|');
    expect(md[3]).toContain('|2,126,388|1,029/1,317 = 0.781 [0.743, 0.813]|');
  });

  it('leave fractions and text alone: no separators inside decimals or condition names', () => {
    const md = markdownTable(
      ['condition', 'p'],
      [
        ['predictive-semantic@0.05', '0.00012345'],
        ['x2020', '1.5'],
      ],
    );
    expect(md).toContain('|predictive-semantic@0.05|0.00012345|');
    expect(md).toContain('|x2020|1.5|');
    expect(isNumericColumn(['abc', '12'])).toBe(false);
    expect(isNumericColumn(['undefined', '–'])).toBe(false);
    expect(thousands(-1234567.25)).toBe('-1,234,567.25');
    expect(thousands(999)).toBe('999');
  });
});
