// The report's charts as vega-lite specs, drawn for a book column (render-chart.ts: one SVG unit is a point, the
// chart at most 4.5 in wide, the PNG at 300 dpi). Every interval is computed by the harness and handed over as
// fields (lo, hi); no spec asks vega to aggregate or bootstrap, so two renders of the same results are identical.
// Each chart carries a one-line takeaway computed from the numbers it draws; what the figures rest on (fixture
// count, preregistration hash) goes in the spec's usermeta and the bundle's provenance, not under the title.
// Colours are the Okabe-Ito palette, distinguishable with the common colour-vision deficiencies.
import {
  caption,
  curveOf,
  isVariant,
  SAFETY_THRESHOLDS,
  type Analysis,
  type ConditionRow,
  type LadderRow,
} from './analysis.js';
import { placeLabels, type PlacedLabel } from './label-placement.js';
import { thousands } from './markdown.js';
import { BOOK_COLUMN_PT, FONT_FAMILY, measureText } from './render-chart.js';

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
  /** One sentence saying what the chart shows, computed from its numbers. */
  readonly caption: string;
  /** The vega-lite spec, data inline. */
  readonly spec: Record<string, unknown>;
}

/** Type sizes in points: a book's figure text sits at 7-9 pt. */
export const TYPE = { title: 9, caption: 7.5, axisTitle: 7.5, label: 7, mark: 6.5 } as const;
const PADDING = 6;
/** Room the y axis takes beside its labels (ticks, offset), and a scatter's axis (labels and title). */
const AXIS_GAP = 16;
const SCATTER_AXIS = 40;
/** The name of every label layer whose boxes must not overlap (tests find them by it). */
export const LABEL_MARK = 'point_labels';

const LAYER_LABEL: Record<ConditionRow['layer'], string> = {
  control: 'control',
  A: 'Layer A (one mechanism)',
  B: 'Layer B (ladder)',
  comparator: 'published comparator',
};
const LAYER_ORDER = Object.values(LAYER_LABEL);
const layerColour = {
  field: 'group',
  type: 'nominal',
  title: null,
  scale: { domain: LAYER_ORDER, range: OKABE_ITO.slice(0, 4) },
  legend: { orient: 'bottom', direction: 'horizontal', columns: 2, symbolSize: 40 },
};

const UPPER_RISK_MARK = ' †';
const UPPER_RISK_NOTE = '†\u00a0upper-risk: may remove what is still needed; a reference point, never a proposal.';
const EXPLORATORY_MARK = ' ‡';
const EXPLORATORY_NOTE = '‡\u00a0exploratory: the preregistration does not name it; no verdict reads it.';
const label = (r: Pick<ConditionRow, 'condition' | 'upperRisk' | 'exploratory'>) =>
  `${r.condition}${r.upperRisk ? UPPER_RISK_MARK : ''}${r.exploratory ? EXPLORATORY_MARK : ''}`;
/** The exploratory mark's note, when a chart draws a condition stamped exploratory alone. */
const exploratoryNote = (rows: readonly Pick<ConditionRow, 'exploratory'>[]) =>
  rows.some((r) => r.exploratory) ? [EXPLORATORY_NOTE] : [];

/**
 * The table each chart draws its figures from. A chart drawn from a table the preregistration does not name is
 * exploratory as that table is, and says so on its face.
 */
export const CHART_TABLE: Readonly<Record<string, string>> = {
  'harm-reduction': 'measures',
  'coverage-abstention': 'measures',
  frontier: 'frontier',
  tokens: 'tokens',
  'ladder-waterfall': 'ladder',
};

/** The line an exploratory chart carries under its title. */
export const CHART_EXPLORATORY_STAMP = 'Exploratory: not preregistered';

export const pct = (x: number | null, digits = 1) => (x === null ? 'undefined' : `${(x * 100).toFixed(digits)}%`);

/** Words of `text` in lines no wider than `width` at `fontSize`. */
export function wrap(text: string, width: number, fontSize: number, bold = false): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/[ \t\n]+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && measureText(next, fontSize, bold) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** Width left for plots once padding is taken off the column. */
const INNER = BOOK_COLUMN_PT - 2 * PADDING;

function frame(
  name: string,
  title: string,
  takeaway: string,
  a: Analysis,
  body: Record<string, unknown>,
  notes: readonly string[] = [],
): ChartSpec {
  // An exploratory figure says so on its face; a preregistered one keeps its hash in provenance only. A figure drawn
  // from a table the preregistration does not name is exploratory as that table is.
  const table = CHART_TABLE[name];
  const unnamed = table !== undefined && !(a.preregisteredTables ?? []).includes(table);
  const stamp =
    a.exploratory || a.preregistration === null
      ? [`${caption(a)}.`]
      : unnamed
        ? [`${CHART_EXPLORATORY_STAMP} (the ${table} table's figures).`]
        : [];
  return {
    name,
    title,
    caption: takeaway,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      title: {
        text: wrap(title, INNER - 2, TYPE.title, true),
        subtitle: [
          ...wrap(takeaway, INNER - 2, TYPE.caption),
          ...[...notes, ...stamp].flatMap((n) => wrap(n, INNER - 2, TYPE.caption)),
        ],
        anchor: 'start',
        fontSize: TYPE.title,
        subtitleFontSize: TYPE.caption,
        subtitleColor: '#333333',
        subtitlePadding: 3,
        offset: 6,
      },
      usermeta: { provenance: caption(a) },
      background: 'white',
      padding: PADDING,
      config: {
        font: FONT_FAMILY,
        axis: {
          labelFontSize: TYPE.label,
          titleFontSize: TYPE.axisTitle,
          titleFontWeight: 'normal',
          labelLimit: INNER,
          tickSize: 3,
          labelPadding: 2,
          titlePadding: 4,
        },
        legend: {
          labelFontSize: TYPE.label,
          titleFontSize: TYPE.axisTitle,
          labelLimit: INNER,
          symbolSize: 40,
          rowPadding: 2,
          columnPadding: 8,
          offset: 6,
        },
        header: { labelFontSize: TYPE.axisTitle, titleFontSize: TYPE.axisTitle, labelPadding: 3 },
        view: { stroke: '#dddddd' },
        concat: { spacing: 12 },
        facet: { spacing: 10 },
      },
      ...body,
    },
  };
}

/** Width of the widest of `texts` as an axis label. */
const labelColumn = (texts: readonly string[]) =>
  Math.max(0, ...texts.map((t) => measureText(t, TYPE.label))) + AXIS_GAP;

/**
 * Conditions as rows and measures as side-by-side panels sharing the row labels: every label has its own row, so
 * none can overprint another however close the values.
 */
function dotPanels(
  rows: readonly ConditionRow[],
  measures: readonly {
    title: string;
    of: (r: ConditionRow) => { value: number | null; lo: number | null; hi: number | null };
  }[],
): Record<string, unknown> {
  const values = rows.flatMap((r) =>
    measures
      .map((m) => ({ measure: m.title, ...m.of(r) }))
      .filter((m) => m.value !== null)
      .map((m) => ({ condition: label(r), group: LAYER_LABEL[r.layer], ...m })),
  );
  const order = rows.map(label);
  const panel = Math.floor((INNER - labelColumn(order) - 10 * (measures.length - 1)) / measures.length);
  const y = { field: 'condition', type: 'nominal', title: null, sort: order };
  // Every measure here is a share of something, so each panel runs 0-100%: panels can be compared by eye.
  const low = Math.min(0, ...values.map((v) => v.lo ?? v.value ?? 0));
  const x = { type: 'quantitative', title: null, scale: { domain: [low, 1] }, axis: { format: '.0%', tickCount: 4 } };
  return {
    data: { values },
    facet: {
      column: { field: 'measure', type: 'nominal', title: null, sort: measures.map((m) => m.title) },
    },
    resolve: { scale: { x: 'independent' } },
    spec: {
      width: panel,
      height: { step: 9 },
      layer: [
        {
          mark: { type: 'rule', strokeWidth: 1.5 },
          encoding: { y, x: { field: 'lo', ...x }, x2: { field: 'hi' }, color: layerColour },
        },
        {
          mark: { type: 'point', filled: true, size: 16, opacity: 1 },
          encoding: { y, x: { field: 'value', ...x }, color: layerColour },
        },
      ],
    },
  };
}

/** Conditions drawn as themselves: no sweep variants, which the frontier draws as curves. */
const conditions = (a: Analysis) => a.rows.filter((r) => !isVariant(r));

function harmTakeaway(rows: readonly ConditionRow[]): string {
  const threshold = SAFETY_THRESHOLDS[SAFETY_THRESHOLDS.length - 1]!;
  const scored = rows.filter((r) => r.harmRate.value !== null && r.reduction.estimate !== null);
  const safe = scored.filter((r) => r.harmRate.value! <= threshold);
  if (safe.length === 0) return `No condition keeps its harm rate at or below ${pct(threshold, 0)}.`;
  const best = safe.reduce((b, r) => (r.reduction.estimate! > b.reduction.estimate! ? r : b));
  const beyond = scored.filter((r) => r.reduction.estimate! > best.reduction.estimate!);
  const head = `${safe.length} of ${scored.length} conditions keep harm at or below ${pct(threshold, 0)}; the one removing most, ${best.condition}, removes ${pct(best.reduction.estimate)} of tokens at ${pct(best.harmRate.value)} harm`;
  if (beyond.length === 0) return `${head}.`;
  const least = Math.min(...beyond.map((r) => r.harmRate.value!));
  return `${head}; every condition that removes more harms at least ${pct(least)}.`;
}

/** A measure as a dot panel draws it: the value and its interval. */
const shown = (m: { value?: number | null; lo: number | null; hi: number | null }) => ({
  value: m.value ?? null,
  lo: m.lo,
  hi: m.hi,
});

function harmAndReduction(a: Analysis): ChartSpec {
  const rows = conditions(a);
  // One safety panel, on the primary measure; precision would only repeat it as a complement.
  return frame(
    'harm-reduction',
    'Harm rate and net token reduction of each condition',
    harmTakeaway(rows),
    a,
    dotPanels(rows, [
      { title: 'harm rate', of: (r) => shown(r.harmRate) },
      { title: 'net token reduction', of: (r) => ({ ...shown(r.reduction), value: r.reduction.estimate }) },
    ]),
    [`Dots: pooled value; lines: 95% fixture-cluster bootstrap interval. ${UPPER_RISK_NOTE}`, ...exploratoryNote(rows)],
  );
}

function coverageTakeaway(rows: readonly ConditionRow[]): string {
  const scored = rows.filter((r) => r.coverage.value !== null && r.abstentionRate.value !== null);
  if (scored.length === 0) return 'No condition has a defined coverage and abstention rate.';
  const most = scored.reduce((b, r) => (r.abstentionRate.value! > b.abstentionRate.value! ? r : b));
  const never = scored.filter((r) => r.abstentionRate.numerator === 0).length;
  if (most.abstentionRate.value === 0)
    return `No condition abstains; coverage ranges to ${pct(Math.max(...scored.map((r) => r.coverage.value!)))}.`;
  return `${most.condition} abstains most, on ${pct(most.abstentionRate.value)} of candidates, and covers ${pct(most.coverage.value)} of removable items; ${never} of ${scored.length} conditions never abstain.`;
}

function coverageAbstention(a: Analysis): ChartSpec {
  const rows = conditions(a);
  return frame(
    'coverage-abstention',
    'Coverage and abstention of each condition',
    coverageTakeaway(rows),
    a,
    dotPanels(rows, [
      { title: 'coverage', of: (r) => shown(r.coverage) },
      { title: 'abstention', of: (r) => shown(r.abstentionRate) },
    ]),
    [
      `Coverage: share of removable items removed; abstention: share of candidates a rule could not check. Lines: 95% fixture-cluster bootstrap interval. ${UPPER_RISK_NOTE}`,
      ...exploratoryNote(rows),
    ],
  );
}

interface FrontierPoint {
  condition: string;
  group: string;
  curve: string | null;
  order: number;
  label: string;
  reduction: number;
  reductionLo: number | null;
  reductionHi: number | null;
  harm: number;
  harmLo: number | null;
  harmHi: number | null;
}

function frontierPoints(a: Analysis): FrontierPoint[] {
  return a.rows
    .filter((r) => r.reduction.estimate !== null && r.harmRate.value !== null)
    .map((r) => {
      const inSweep = r.sweep !== null;
      // A sweep's base names its curve; its variants show only the parameter's value.
      const text = !inSweep
        ? label(r)
        : isVariant(r)
          ? `${r.sweep!.value}`
          : `${label(r)} (${r.sweep!.parameter}=${r.sweep!.value})`;
      return {
        condition: r.condition,
        group: LAYER_LABEL[r.layer],
        curve: inSweep ? curveOf(r) : null,
        order: r.sweep?.value ?? 0,
        label: text,
        reduction: r.reduction.estimate!,
        reductionLo: r.reduction.lo,
        reductionHi: r.reduction.hi,
        harm: r.harmRate.value!,
        harmLo: r.harmRate.lo,
        harmHi: r.harmRate.hi,
      };
    });
}

const POINT_SIZE = 16;
const POINT_RADIUS = Math.sqrt(POINT_SIZE) / 2 + 1;

/** A scatter panel of harm against reduction over fixed domains, its labels placed in plot points. */
function frontierPanel(
  points: readonly FrontierPoint[],
  labelled: (p: FrontierPoint) => boolean,
  domain: { x: [number, number]; y: [number, number] },
  size: { width: number; height: number },
  name: string,
  extra: Record<string, unknown>[] = [],
): { spec: Record<string, unknown>; labels: readonly PlacedLabel[]; unplaced: readonly string[] } {
  const px = (v: number) => ((v - domain.x[0]) / (domain.x[1] - domain.x[0])) * size.width;
  const py = (v: number) => size.height - ((v - domain.y[0]) / (domain.y[1] - domain.y[0])) * size.height;
  const dx = (p: number) => domain.x[0] + (p / size.width) * (domain.x[1] - domain.x[0]);
  const dy = (p: number) => domain.y[0] + ((size.height - p) / size.height) * (domain.y[1] - domain.y[0]);
  const inside = points.filter(
    (p) => p.reduction >= domain.x[0] && p.reduction <= domain.x[1] && p.harm >= domain.y[0] && p.harm <= domain.y[1],
  );
  const { labels, unplaced } = placeLabels(
    inside.filter(labelled).map((p) => ({ x: px(p.reduction), y: py(p.harm), text: p.label })),
    {
      width: size.width,
      height: size.height,
      fontSize: TYPE.mark,
      measure: (t) => measureText(t, TYPE.mark),
      pointRadius: POINT_RADIUS,
    },
  );
  // Points that only share a spot with a labelled one still count as obstacles, so place them all first.
  const labelValues = labels.map((l) => ({ text: l.text, x: dx(l.tx), y: dy(l.ty) }));
  const leaders = labels
    .filter((l) => l.leader)
    .map((l) => {
      const ex = Math.min(Math.max(l.x, l.box.x1), l.box.x2);
      const ey = Math.min(Math.max(l.y, l.box.y1), l.box.y2);
      return { x: dx(l.x), y: dy(l.y), x2: dx(ex), y2: dy(ey) };
    });
  const scale = (d: [number, number]) => ({ domain: d, nice: false, zero: false });
  const x = {
    field: 'reduction',
    type: 'quantitative',
    title: 'net token reduction, 1 − final/raw',
    scale: scale(domain.x),
    axis: { format: '.0%', tickCount: 5 },
  };
  const y = {
    field: 'harm',
    type: 'quantitative',
    title: 'harm rate',
    scale: scale(domain.y),
    axis: { format: '.0%', tickCount: 5 },
  };
  const within = {
    filter: {
      and: [
        { field: 'reduction', range: domain.x },
        { field: 'harm', range: domain.y },
      ],
    },
  };
  const spec = {
    width: size.width,
    height: size.height,
    layer: [
      {
        data: { values: SAFETY_THRESHOLDS.filter((t) => t > 0 && t <= domain.y[1]).map((t) => ({ t })) },
        mark: { type: 'rule', strokeDash: [3, 3], color: '#999999', strokeWidth: 0.75 },
        encoding: { y: { field: 't', type: 'quantitative', scale: scale(domain.y) } },
      },
      ...extra,
      {
        data: { values: points.filter((p) => p.curve !== null) },
        transform: [within],
        mark: { type: 'line', strokeWidth: 1 },
        encoding: {
          x,
          y,
          color: layerColour,
          detail: { field: 'curve' },
          order: { field: 'order', type: 'quantitative' },
        },
      },
      {
        data: { values: leaders },
        mark: { type: 'rule', color: '#888888', strokeWidth: 0.5 },
        encoding: {
          x: { field: 'x', type: 'quantitative', scale: scale(domain.x) },
          y: { field: 'y', type: 'quantitative', scale: scale(domain.y) },
          x2: { field: 'x2' },
          y2: { field: 'y2' },
        },
      },
      {
        data: { values: inside },
        mark: { type: 'point', filled: true, size: POINT_SIZE, opacity: 1 },
        encoding: { x, y, color: layerColour },
      },
      {
        name: `${LABEL_MARK}-${name}`,
        data: { values: labelValues },
        mark: { type: 'text', align: 'left', baseline: 'middle', fontSize: TYPE.mark },
        encoding: {
          x: { field: 'x', type: 'quantitative', scale: scale(domain.x) },
          y: { field: 'y', type: 'quantitative', scale: scale(domain.y) },
          text: { field: 'text' },
        },
      },
    ],
  };
  return { spec, labels, unplaced };
}

/** Upper end of a domain holding `max`, rounded up to a step. */
const ceilTo = (max: number, step: number) => Math.max(step, Math.ceil((max + 1e-9) / step) * step);

function frontierTakeaway(points: readonly FrontierPoint[]): string {
  const threshold = SAFETY_THRESHOLDS[SAFETY_THRESHOLDS.length - 1]!;
  const safe = points.filter((p) => p.harm <= threshold);
  const beyond = points.filter((p) => p.harm > threshold);
  if (safe.length === 0) return `No condition or sweep setting keeps harm at or below ${pct(threshold, 0)}.`;
  const reach = Math.max(...safe.map((p) => p.reduction));
  const best = safe.find((p) => p.reduction === reach)!;
  const cheapest = beyond.length === 0 ? null : beyond.reduce((b, p) => (p.harm < b.harm ? p : b));
  return `At most ${pct(threshold, 0)} harm, the best reduction is ${pct(reach)} (${best.condition})${
    cheapest
      ? `; past that line, ${cheapest.condition} removes ${pct(cheapest.reduction)} at ${pct(cheapest.harm)} harm`
      : ''
  }.`;
}

function frontier(a: Analysis): ChartSpec {
  const points = frontierPoints(a);
  // The conservative conditions crowd the low-harm corner; they get an enlarged panel of their own, and the full
  // panel labels only what lies outside that corner.
  const corner = SAFETY_THRESHOLDS[SAFETY_THRESHOLDS.length - 1]! * 2;
  const near = points.filter((p) => p.harm <= corner);
  const zoom = {
    x: [0, ceilTo(Math.max(0, ...near.map((p) => p.reduction)) * 1.1, 0.02)] as [number, number],
    y: [0, ceilTo(Math.max(0, ...near.map((p) => p.harm)) * 1.15, 0.01)] as [number, number],
  };
  const inZoom = (p: FrontierPoint) => p.reduction <= zoom.x[1] && p.harm <= zoom.y[1];
  // A little room below zero, so points at 0 are drawn whole inside the plot.
  const pad = (d: [number, number]): [number, number] => [d[0] - (d[1] - d[0]) * 0.02, d[1]];
  const full = {
    x: [Math.min(0, ...points.map((p) => p.reduction)), ceilTo(Math.max(...points.map((p) => p.reduction)), 0.1)] as [
      number,
      number,
    ],
    y: [0, ceilTo(Math.max(...points.map((p) => p.harm)), 0.1)] as [number, number],
  };
  const width = INNER - SCATTER_AXIS;
  const fullDomain = { x: pad(full.x), y: pad(full.y) };
  const box = {
    data: { values: [{ x: zoom.x[0], x2: zoom.x[1], y: zoom.y[0], y2: zoom.y[1] }] },
    mark: { type: 'rect', fill: '#f2f2f2', stroke: '#999999', strokeWidth: 0.75 },
    encoding: {
      x: { field: 'x', type: 'quantitative', scale: { domain: fullDomain.x, nice: false, zero: false } },
      x2: { field: 'x2' },
      y: { field: 'y', type: 'quantitative', scale: { domain: fullDomain.y, nice: false, zero: false } },
      y2: { field: 'y2' },
    },
  };
  const top = frontierPanel(points, (p) => !inZoom(p), fullDomain, { width, height: 150 }, 'all', [box]);
  const bottom = frontierPanel(
    points,
    () => true,
    { x: pad(zoom.x), y: pad(zoom.y) },
    { width, height: 170 },
    'corner',
  );
  const unplaced = [...top.unplaced, ...bottom.unplaced];
  return frame(
    'frontier',
    'Harm against reduction, sweeps drawn as curves',
    frontierTakeaway(points),
    a,
    {
      vconcat: [
        {
          title: {
            text: 'all conditions (grey box: enlarged below)',
            fontSize: TYPE.axisTitle,
            fontWeight: 'normal',
            anchor: 'start',
          },
          ...top.spec,
        },
        {
          title: {
            text: 'the low-harm corner, enlarged',
            fontSize: TYPE.axisTitle,
            fontWeight: 'normal',
            anchor: 'start',
          },
          ...bottom.spec,
        },
      ],
    },
    [
      `Dashed: ${SAFETY_THRESHOLDS.filter((t) => t > 0)
        .map((t) => pct(t, 0))
        .join(' and ')} harm. Curves: parameter sweeps, labelled by value. ${UPPER_RISK_NOTE}`,
      ...exploratoryNote(a.rows),
      ...(unplaced.length > 0 ? [`Not labelled for want of room: ${unplaced.join('; ')}.`] : []),
    ],
  );
}

export const TOKEN_SEGMENTS = ['kept', 'removed'] as const;
const FINAL_MARK = 'final context';

function tokenTakeaway(rows: readonly ConditionRow[], proposed: string | null): string {
  const shares = rows.filter((r) => r.tokens.raw > 0).map((r) => ({ r, final: r.tokens.final / r.tokens.raw }));
  if (shares.length === 0) return 'No condition saw any tokens.';
  const named = shares.find((s) => s.r.condition === proposed);
  const lead = named ? `${named.r.condition}'s final context is ${pct(named.final)} of raw; ` : '';
  const least = shares.reduce((b, s) => (s.final < b.final ? s : b));
  // final = raw - removed + placeholder (src/score/score.ts): what pruning adds back to the context is its placeholders;
  // a policy's own model-call overhead is spent beside the context, not in it.
  const back = shares.reduce((b, s) => (s.r.tokens.placeholder > b.r.tokens.placeholder ? s : b));
  const added = back.r.tokens.placeholder / back.r.tokens.raw;
  return `${lead}the smallest is ${pct(least.final)} (${least.r.condition}); placeholders add back at most ${pct(added)} of raw (${back.r.condition}).`;
}

function tokenAccounting(a: Analysis): ChartSpec {
  const rows = conditions(a);
  // Kept plus removed is raw, so no bar is longer than the history it was cut from; what pruning adds back
  // (placeholders, model calls) is a tick at the final context's length, which may sit anywhere along the bar.
  const values = rows.flatMap((r) => {
    const kept = r.tokens.raw - r.tokens.removed;
    return [
      { condition: label(r), segment: 'kept', start: 0, end: kept, tokens: kept, raw: r.tokens.raw },
      {
        condition: label(r),
        segment: 'removed',
        start: kept,
        end: r.tokens.raw,
        tokens: r.tokens.removed,
        raw: r.tokens.raw,
      },
    ];
  });
  const finals = rows.map((r) => ({ condition: label(r), segment: FINAL_MARK, final: r.tokens.final }));
  const order = rows.map(label);
  const y = { field: 'condition', type: 'nominal', title: null, sort: order };
  const colour = {
    field: 'segment',
    type: 'nominal',
    title: null,
    scale: { domain: [...TOKEN_SEGMENTS, FINAL_MARK], range: [OKABE_ITO[0], '#d9d9d9', '#000000'] },
    legend: { orient: 'bottom', direction: 'horizontal', columns: 3, symbolSize: 40 },
  };
  const xTitle = 'tokens, summed over prune points';
  return frame(
    'tokens',
    'Token accounting: kept and removed add up to raw',
    tokenTakeaway(rows, a.proposed),
    a,
    {
      width: INNER - labelColumn(order),
      height: { step: 9 },
      layer: [
        {
          data: { values },
          mark: { type: 'bar', height: 7 },
          encoding: {
            y,
            x: { field: 'start', type: 'quantitative', title: xTitle, axis: { format: '~s', tickCount: 5 } },
            x2: { field: 'end' },
            color: colour,
          },
        },
        {
          data: { values: finals },
          mark: { type: 'tick', thickness: 1.5, size: 9 },
          encoding: { y, x: { field: 'final', type: 'quantitative' }, color: colour },
        },
      ],
    },
    [
      `Bar: the raw history, kept plus removed. Tick: the final context, kept plus placeholders (a policy's model-call overhead is spent beside it, not in it). ${UPPER_RISK_NOTE}`,
      ...exploratoryNote(rows),
    ],
  );
}

/** The ladder the study proposes, and the upper-risk ladders that extend it. */
function laddersOf(a: Analysis): { proposed: LadderRow | undefined; apart: LadderRow[] } {
  const ladders = a.ladder.filter((l) => !isVariant(l.row) && !l.condition.includes('~'));
  const named = ladders.find((l) => l.condition === a.proposed);
  const firstRisk = ladders.findIndex((l) => l.row.upperRisk);
  const bounded = firstRisk < 0 ? ladders : ladders.slice(0, firstRisk);
  return {
    proposed: named && !named.row.upperRisk ? named : bounded[bounded.length - 1],
    apart: ladders.filter((l) => l.row.upperRisk),
  };
}

const RUNG_COLOUR = new Map<string, string>([
  ['rung 0', OKABE_ITO[0]],
  ['rung 1', OKABE_ITO[1]],
  ['rung 2', OKABE_ITO[2]],
  ['rung 3', OKABE_ITO[3]],
  ['rung 4', OKABE_ITO[4]],
  ['no rung', OKABE_ITO[5]],
  ['total', '#555555'],
]);

interface Step {
  step: string;
  rung: string;
  start: number;
  end: number;
  tokens: number;
  text: string;
}

function steps(entries: LadderRow['removedBy'], from = 0): Step[] {
  const out: Step[] = [];
  let total = from;
  for (const e of entries) {
    const rung = e.rung === null ? 'no rung' : `rung ${e.rung}`;
    out.push({
      step: `${e.step ?? '–'}. ${e.rule} (${rung})`,
      rung,
      start: total,
      end: total + e.netTokensRemoved,
      tokens: e.netTokensRemoved,
      text: thousands(e.netTokensRemoved),
    });
    total += e.netTokensRemoved;
  }
  return out;
}

const netOf = (l: LadderRow) => l.removedBy.reduce((s, e) => s + e.netTokensRemoved, 0);

function waterfallPanel(values: readonly Step[], width: number, rungs: readonly string[]): Record<string, unknown> {
  const y = { field: 'step', type: 'nominal', sort: null, title: null };
  const max = Math.max(0, ...values.map((v) => Math.max(v.start, v.end)));
  // Room on the right for the largest count's text.
  const room = Math.max(...values.map((v) => measureText(v.text, TYPE.mark))) + 6;
  const domainMax = max * (1 + room / Math.max(1, width - room));
  const x = {
    field: 'start',
    type: 'quantitative',
    title: 'cumulative net tokens removed',
    scale: { domain: [Math.min(0, ...values.map((v) => Math.min(v.start, v.end))), domainMax], nice: false },
    axis: { format: '~s', tickCount: 4 },
  };
  return {
    width,
    height: { step: 11 },
    data: { values },
    layer: [
      {
        mark: { type: 'bar', height: 8 },
        encoding: {
          y,
          x,
          x2: { field: 'end' },
          color: {
            field: 'rung',
            type: 'nominal',
            title: null,
            scale: { domain: rungs, range: rungs.map((r) => RUNG_COLOUR.get(r)!) },
            legend: { orient: 'bottom', direction: 'horizontal', columns: 4, symbolSize: 40 },
          },
        },
      },
      {
        transform: [{ calculate: 'max(datum.start, datum.end)', as: 'right' }],
        mark: { type: 'text', align: 'left', baseline: 'middle', dx: 3, fontSize: TYPE.mark },
        encoding: { y, x: { field: 'right', type: 'quantitative' }, text: { field: 'text' } },
      },
    ],
  };
}

function ladderWaterfall(a: Analysis): ChartSpec {
  const { proposed, apart } = laddersOf(a);
  const main = proposed ? steps(proposed.removedBy) : [];
  const net = proposed ? netOf(proposed) : 0;
  main.push({
    step: `${proposed?.condition ?? 'none'}: total`,
    rung: 'total',
    start: 0,
    end: net,
    tokens: net,
    text: thousands(net),
  });
  const extra = apart.map((l) => {
    const known = new Set(proposed?.removedBy.map((e) => e.rule) ?? []);
    const added = steps(
      l.removedBy.filter((e) => !known.has(e.rule)),
      net,
    );
    const total = netOf(l);
    return {
      ladder: l,
      values: [
        {
          step: `${proposed?.condition ?? 'none'}: total`,
          rung: 'total',
          start: 0,
          end: net,
          tokens: net,
          text: thousands(net),
        },
        ...added,
        {
          step: `${l.condition}${UPPER_RISK_MARK}: total`,
          rung: 'total',
          start: 0,
          end: total,
          tokens: total,
          text: thousands(total),
        },
      ],
    };
  });
  const present = new Set([...main, ...extra.flatMap((e) => e.values)].map((v) => v.rung));
  const rungs = [...RUNG_COLOUR.keys()].filter((r) => present.has(r));
  const stepLabels = [...main, ...extra.flatMap((e) => e.values)].map((v) => v.step);
  const width = INNER - labelColumn(stepLabels);
  const raw = proposed?.row.tokens.raw ?? 0;
  const biggest =
    proposed && proposed.removedBy.length > 0
      ? proposed.removedBy.reduce((b, e) => (e.netTokensRemoved > b.netTokensRemoved ? e : b))
      : null;
  const takeaway = !proposed
    ? 'No ladder in these results.'
    : `${proposed.condition} removes ${thousands(net)} net tokens (${pct(raw > 0 ? net / raw : null)} of raw)${
        biggest && net > 0
          ? `, ${pct(biggest.netTokensRemoved / net, 0)} of it by ${biggest.rule} (rung ${biggest.rung ?? '–'})`
          : ''
      }${
        extra.length > 0
          ? `; drawn apart, ${extra[0]!.ladder.condition} would remove ${thousands(netOf(extra[0]!.ladder) - net)} more at ${pct(extra[0]!.ladder.row.harmRate.value)} harm (against ${pct(proposed.row.harmRate.value)})`
          : ''
      }.`;
  const panels: Record<string, unknown>[] = [
    {
      title: {
        text: `the proposed ladder, ${proposed?.condition ?? 'none'}: each rule in order`,
        fontSize: TYPE.axisTitle,
        fontWeight: 'normal',
        anchor: 'start',
      },
      ...waterfallPanel(main, width, rungs),
    },
    ...extra.map((e) => ({
      title: {
        text: `apart, on its own scale: ${e.ladder.condition}${UPPER_RISK_MARK} adds the upper-risk rung`,
        fontSize: TYPE.axisTitle,
        fontWeight: 'normal',
        anchor: 'start',
      },
      ...waterfallPanel(e.values, width, rungs),
    })),
  ];
  return frame(
    'ladder-waterfall',
    'The proposed ladder: net tokens removed rule by rule',
    takeaway,
    a,
    { vconcat: panels, resolve: { scale: { x: 'independent' } } },
    [`Tokens summed over prune points. ${UPPER_RISK_NOTE}`],
  );
}

export function buildCharts(a: Analysis): ChartSpec[] {
  return [harmAndReduction(a), coverageAbstention(a), frontier(a), tokenAccounting(a), ladderWaterfall(a)];
}
