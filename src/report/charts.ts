// The report's charts as vega-lite specs. Every interval is computed by the harness and handed over as fields
// (lo, hi); no spec asks vega to aggregate or bootstrap, so two renders of the same results are identical.
// Colours are the Okabe-Ito palette, distinguishable with the common colour-vision deficiencies.
import { caption, curveOf, isVariant, type Analysis, type ConditionRow } from './analysis.js';
import { FONT_FAMILY } from './render-chart.js';

export const OKABE_ITO = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#D55E00',
  '#CC79A7',
  '#56B4E9',
  '#F0E442',
  '#000000',
] as const;

export interface ChartSpec {
  readonly name: string;
  readonly title: string;
  readonly caption: string;
  /** The vega-lite spec, data inline. */
  readonly spec: Record<string, unknown>;
}

const LAYER_LABEL: Record<ConditionRow['layer'], string> = {
  control: 'control (raw)',
  A: 'Layer A (one mechanism)',
  B: 'Layer B (ladder)',
  comparator: 'published comparator',
};
const LAYER_ORDER = Object.values(LAYER_LABEL);
const layerColour = {
  field: 'group',
  type: 'nominal',
  title: 'kind of condition',
  scale: { domain: LAYER_ORDER, range: OKABE_ITO.slice(0, 4) },
};

const label = (r: ConditionRow) => (r.upperRisk ? `${r.condition} (upper-risk)` : r.condition);

function frame(name: string, title: string, a: Analysis, body: Record<string, unknown>): ChartSpec {
  const text = caption(a);
  return {
    name,
    title,
    caption: text,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      title: {
        text: title,
        subtitle: text,
        anchor: 'start',
        fontSize: 15,
        subtitleFontSize: 11,
        subtitleColor: '#444444',
      },
      background: 'white',
      padding: 12,
      config: {
        font: FONT_FAMILY,
        axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 260 },
        legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 260 },
        header: { labelFontSize: 12, titleFontSize: 12 },
        view: { stroke: '#dddddd' },
      },
      ...body,
    },
  };
}

/** The pooled base rate, the same for every condition run on the same fixtures, for captions. */
function baseRateNote(a: Analysis): string {
  const r = a.rows[0]?.baseRate;
  return r && r.value !== null
    ? `base rate (removable share) ${r.numerator}/${r.denominator} = ${(r.value * 100).toFixed(1)}%`
    : 'base rate undefined';
}

function harmAndReduction(a: Analysis): ChartSpec {
  const rows = a.rows.filter((r) => !isVariant(r));
  const values = rows.flatMap((r) =>
    [
      { measure: 'harm rate', value: r.harmRate.value, lo: r.harmRate.lo, hi: r.harmRate.hi },
      { measure: 'net token reduction', value: r.reduction.estimate, lo: r.reduction.lo, hi: r.reduction.hi },
    ]
      .filter((m) => m.value !== null)
      .map((m) => ({ condition: label(r), group: LAYER_LABEL[r.layer], ...m })),
  );
  const order = rows.map(label);
  const y = { field: 'condition', type: 'nominal', title: null, sort: order };
  const chart = frame('harm-reduction', 'Harm rate and net token reduction of each condition', a, {
    data: { values },
    facet: { column: { field: 'measure', type: 'nominal', title: null, sort: ['harm rate', 'net token reduction'] } },
    resolve: { scale: { x: 'independent' } },
    spec: {
      width: 300,
      height: { step: 18 },
      layer: [
        {
          mark: { type: 'rule', strokeWidth: 2 },
          encoding: {
            y,
            x: { field: 'lo', type: 'quantitative', title: '95% fixture-cluster bootstrap interval' },
            x2: { field: 'hi' },
            color: layerColour,
          },
        },
        {
          mark: { type: 'point', filled: true, size: 50 },
          encoding: { y, x: { field: 'value', type: 'quantitative' }, color: layerColour },
        },
      ],
    },
  });
  // The base rate belongs in the caption: harm is read against how much of the context was removable at all.
  const text = `${chart.caption}; ${baseRateNote(a)}`;
  const spec = chart.spec as { title: Record<string, unknown> };
  return { ...chart, caption: text, spec: { ...chart.spec, title: { ...spec.title, subtitle: text } } };
}

function coverageAbstention(a: Analysis): ChartSpec {
  const values = a.rows
    .filter((r) => !isVariant(r) && r.coverage.value !== null && r.abstentionRate.value !== null)
    .map((r) => ({
      condition: r.condition,
      group: LAYER_LABEL[r.layer],
      coverage: r.coverage.value,
      coverageLo: r.coverage.lo,
      coverageHi: r.coverage.hi,
      abstention: r.abstentionRate.value,
      abstentionLo: r.abstentionRate.lo,
      abstentionHi: r.abstentionRate.hi,
    }));
  const x = {
    field: 'abstention',
    type: 'quantitative',
    title: 'abstention rate: share of candidates a rule could not check (95% Wilson)',
    scale: { domain: [0, 1] },
  };
  const y = {
    field: 'coverage',
    type: 'quantitative',
    title: 'coverage: share of removable items removed (95% Wilson)',
    scale: { domain: [0, 1] },
  };
  return frame('coverage-abstention', 'Coverage against abstention', a, {
    width: 520,
    height: 380,
    data: { values },
    layer: [
      {
        mark: 'rule',
        encoding: {
          x,
          y: { field: 'coverageLo', type: 'quantitative' },
          y2: { field: 'coverageHi' },
          color: layerColour,
        },
      },
      {
        mark: 'rule',
        encoding: {
          y,
          x: { field: 'abstentionLo', type: 'quantitative' },
          x2: { field: 'abstentionHi' },
          color: layerColour,
        },
      },
      { mark: { type: 'point', filled: true, size: 60 }, encoding: { x, y, color: layerColour } },
      {
        mark: { type: 'text', align: 'left', dx: 6, dy: -6, fontSize: 10 },
        encoding: { x, y, text: { field: 'condition' } },
      },
    ],
  });
}

function frontier(a: Analysis): ChartSpec {
  const curves = [...new Set(a.rows.filter((r) => r.sweep !== null).map(curveOf))];
  const values = a.rows
    .filter((r) => r.reduction.estimate !== null && r.harmRate.value !== null)
    .map((r) => ({
      condition: r.condition,
      curve: r.sweep === null ? 'single condition' : `${r.sweep.base} (${r.sweep.parameter})`,
      value: r.sweep?.value ?? 0,
      reduction: r.reduction.estimate,
      reductionLo: r.reduction.lo,
      reductionHi: r.reduction.hi,
      fpr: r.harmRate.value,
      fprLo: r.harmRate.lo,
      fprHi: r.harmRate.hi,
      pointLabel: r.sweep === null ? r.condition : `${r.sweep.parameter}=${r.sweep.value}`,
    }));
  const domain = [
    ...curves.map((c) => `${c} (${a.rows.find((r) => curveOf(r) === c)?.sweep?.parameter ?? 'parameter'})`),
    'single condition',
  ];
  const colour = {
    field: 'curve',
    type: 'nominal',
    title: 'parameter sweep',
    scale: { domain, range: [OKABE_ITO[3], OKABE_ITO[0], '#999999'] },
  };
  const x = {
    field: 'reduction',
    type: 'quantitative',
    title: 'token reduction, 1 - final/raw (95% bootstrap over fixtures)',
    axis: { format: '.0%' },
  };
  const y = {
    field: 'fpr',
    type: 'quantitative',
    title: 'harm rate (95% fixture-cluster bootstrap)',
    axis: { format: '.0%' },
  };
  return frame('frontier', 'Safety against reduction: the frontier, with parameter sweeps as curves', a, {
    width: 560,
    height: 400,
    data: { values },
    layer: [
      {
        data: {
          values: [
            { t: 0.01, l: 'harm 1%' },
            { t: 0.05, l: 'harm 5%' },
          ],
        },
        mark: { type: 'rule', strokeDash: [4, 4], color: '#777777' },
        encoding: { y: { field: 't', type: 'quantitative' } },
      },
      {
        transform: [{ filter: "datum.curve !== 'single condition'" }],
        mark: { type: 'line', strokeWidth: 1.5 },
        encoding: { x, y, color: colour, detail: { field: 'curve' }, order: { field: 'value', type: 'quantitative' } },
      },
      {
        mark: { type: 'rule', opacity: 0.6 },
        encoding: { y, x: { field: 'reductionLo', type: 'quantitative' }, x2: { field: 'reductionHi' }, color: colour },
      },
      {
        mark: { type: 'rule', opacity: 0.6 },
        encoding: { x, y: { field: 'fprLo', type: 'quantitative' }, y2: { field: 'fprHi' }, color: colour },
      },
      {
        mark: { type: 'point', filled: true, size: 50 },
        encoding: {
          x,
          y,
          color: colour,
          shape: { field: 'curve', type: 'nominal', title: 'parameter sweep', scale: { domain } },
        },
      },
      {
        mark: { type: 'text', align: 'left', dx: 5, dy: -5, fontSize: 9 },
        encoding: { x, y, text: { field: 'pointLabel' } },
      },
    ],
  });
}

const SEGMENTS = ['kept from the raw history', 'placeholders left', 'overhead (model calls)', 'removed'] as const;

function tokenAccounting(a: Analysis): ChartSpec {
  const rows = a.rows.filter((r) => !isVariant(r));
  const values = rows.flatMap((r) => {
    const kept = r.tokens.raw - r.tokens.removed;
    const parts = [kept, r.tokens.placeholder, r.tokens.overhead, r.tokens.removed];
    let start = 0;
    return SEGMENTS.map((segment, i) => {
      const row = { condition: r.condition, segment, order: i, start, end: start + parts[i]!, tokens: parts[i]! };
      start += parts[i]!;
      return row;
    });
  });
  return frame('tokens', 'Token accounting: what each condition kept, left as placeholders and removed', a, {
    width: 520,
    height: { step: 18 },
    data: { values },
    mark: 'bar',
    encoding: {
      y: { field: 'condition', type: 'nominal', title: null, sort: rows.map((r) => r.condition) },
      x: {
        field: 'start',
        type: 'quantitative',
        title: 'tokens summed over prune points (final context = the first three segments)',
      },
      x2: { field: 'end' },
      color: {
        field: 'segment',
        type: 'nominal',
        title: 'tokens',
        scale: { domain: [...SEGMENTS], range: [OKABE_ITO[0], OKABE_ITO[1], OKABE_ITO[4], '#cccccc'] },
      },
    },
  });
}

function ladderWaterfall(a: Analysis): ChartSpec {
  const last = a.ladder[a.ladder.length - 1];
  const values: Record<string, unknown>[] = [];
  let total = 0;
  for (const e of last?.removedBy ?? []) {
    values.push({
      step: `${e.step ?? '–'}. ${e.rule}`,
      rung: e.rung === null ? 'no rung' : `rung ${e.rung}`,
      start: total,
      end: total + e.netTokensRemoved,
      tokens: e.netTokensRemoved,
      items: e.items,
    });
    total += e.netTokensRemoved;
  }
  values.push({ step: 'total', rung: 'total', start: 0, end: total, tokens: total, items: null });
  const palette = new Map<string, string>([
    ['rung 0', OKABE_ITO[0]],
    ['rung 1', OKABE_ITO[1]],
    ['rung 2', OKABE_ITO[2]],
    ['rung 3', OKABE_ITO[3]],
    ['rung 4', OKABE_ITO[4]],
    ['no rung', OKABE_ITO[5]],
    ['total', '#555555'],
  ]);
  const present = new Set(values.map((v) => v.rung as string));
  const rungs = [...palette.keys()].filter((r) => present.has(r));
  return frame(
    'ladder-waterfall',
    `Layer B ladder (${last?.condition ?? 'none'}): net tokens removed by each rung's rule, in order`,
    a,
    {
      width: { step: 60 },
      height: 320,
      data: { values },
      layer: [
        {
          mark: 'bar',
          encoding: {
            x: {
              field: 'step',
              type: 'nominal',
              sort: null,
              title: 'rule, in application order',
              axis: { labelAngle: -30 },
            },
            y: {
              field: 'start',
              type: 'quantitative',
              title: 'cumulative net tokens removed (summed over prune points)',
            },
            y2: { field: 'end' },
            color: {
              field: 'rung',
              type: 'nominal',
              title: 'evidence rung',
              scale: { domain: rungs, range: rungs.map((r) => palette.get(r)!) },
            },
          },
        },
        {
          mark: { type: 'text', dy: -6, fontSize: 10 },
          encoding: {
            x: { field: 'step', type: 'nominal', sort: null },
            y: { field: 'end', type: 'quantitative' },
            text: { field: 'tokens', type: 'quantitative' },
          },
        },
      ],
    },
  );
}

export function buildCharts(a: Analysis): ChartSpec[] {
  return [harmAndReduction(a), coverageAbstention(a), frontier(a), tokenAccounting(a), ladderWaterfall(a)];
}
