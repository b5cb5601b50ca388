// What npm run report builds, over a sample of the committed results (every tenth fixture, copyResultsSample): an
// analysis of the whole costs seconds, and that the committed tables and charts equal a rebuild of the whole (and a
// second, independent analysis of it through the CLI) is test/reproduce/report.test.ts, in npm run test:reproduce.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUDY } from '../../experiments/ch10-ablation/study.js';
import { COST_UNKNOWN } from '../../src/report/cost.js';
import { BOOK_COLUMN_PT, BOOK_SCALE } from '../../src/report/render-chart.js';
import { buildReport, type Report } from '../../src/report/report.js';
import { loadPreregistration } from '../../src/study/preregistration.js';
import { PREREGISTRATION_FILE } from '../support/study.js';
import { cli } from '../support/cli.js';
import { copyResults, copyResultsSample, decodePng, listing, repin, RESULTS, SHADOW_TABLES } from './support.js';

const temps: string[] = [];
const temp = (copy: typeof copyResults = copyResults) => {
  const d = copy();
  temps.push(d);
  return d;
};
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

let report: Report;
let sample: string;
const steps: [number, number][] = [];
beforeAll(async () => {
  sample = temp(copyResultsSample);
  report = await buildReport(sample, RESULTS, '.', STUDY, (done, total) => steps.push([done, total]));
});

const text = (file: string) => String(report.files.get(file));

/**
 * The report run through the CLI over an untouched copy of the sample, once for the two tests that read it: the
 * determinism check and the accepting side of the manifest check (test/cli/tamper.test.ts has the refusing side).
 */
let cliRun: Promise<{ dir: string; first: Awaited<ReturnType<typeof cli>> }> | undefined;
const throughCli = () => {
  cliRun ??= (async () => {
    const dir = temp(copyResultsSample);
    return { dir, first: await cli(['report', '--results', dir]) };
  })();
  return cliRun;
};

describe('npm run report', () => {
  it('builds every table and chart committed under results/, but the shadows table the sample has no decision logs for', () => {
    const committed = [...listing(RESULTS, 'tables'), ...listing(RESULTS, 'charts')].sort();
    expect([...report.files.keys()].sort()).toEqual(committed.filter((f) => !SHADOW_TABLES.includes(f)));
  });

  // Two analyses of the sample from scratch: this CLI run and the one in beforeAll.
  it('is byte-deterministic: a second analysis of the sample through the CLI writes the same files', async () => {
    const { dir, first } = await throughCli();
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect([...listing(dir, 'tables'), ...listing(dir, 'charts')].sort()).toEqual([...report.files.keys()].sort());
    for (const f of report.files.keys())
      expect(readFileSync(join(dir, f)).equals(Buffer.from(report.files.get(f)!)), f).toBe(true);
  });

  // Moved from test/cli/tamper.test.ts, whose other tests refuse edited folders: the accepting side of that rule is
  // the CLI run above, and a second analysis of the sample only for it cost seconds.
  it('accepts the untouched folder (both sides of the rule): a sample re-pinned as a run pins it', async () => {
    const { first } = await throughCli();
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
  });

  it('prints 0/0 as "undefined", never 0 or 1, in Markdown and CSV', () => {
    const rawRow = text('tables/layer-a.md')
      .split('\n')
      .find((l) => l.startsWith('|raw|'))!;
    expect(rawRow).toContain('|0/0 = undefined|0/0 = undefined|');
    const csv = text('tables/layer-a.csv').split('\n');
    const header = csv[0]!.split(',');
    const raw = csv.find((l) => l.startsWith('raw,'))!.split(',');
    for (const col of ['precision', 'precision_lo', 'precision_hi', 'false_prune_rate'])
      expect(raw[header.indexOf(col)]).toBe('undefined');
    expect(raw[header.indexOf('precision_den')]).toBe('0');
  });

  it('records the preregistered bootstrap seed and iterations, says where cost is unknown, and names the study in every table', () => {
    const manifest = JSON.parse(readFileSync(join(sample, 'manifest.json'), 'utf8')) as {
      seed: number;
      fixtures: unknown[];
      study: { exploratory: boolean };
    };
    const { bootstrap } = loadPreregistration('.', PREREGISTRATION_FILE).preregistration.analysis;
    expect([report.analysis.seed, report.analysis.iterations]).toEqual([bootstrap.seed, bootstrap.iterations]);
    expect(text('tables/layer-a.md')).toContain(`seed ${bootstrap.seed}, ${bootstrap.iterations} iterations`);
    expect(text('tables/tokens.md')).toContain(COST_UNKNOWN);
    for (const t of report.tables) {
      const md = text(`tables/${t.name}.md`);
      expect(md).toContain(`${manifest.fixtures.length} fixtures`);
      if (manifest.study.exploratory) expect(md).toContain('exploratory — not preregistered');
    }
  });

  it('tests exactly the preregistered comparisons on their outcomes, Holm-corrected across that family alone', () => {
    const { analysis: plan } = loadPreregistration('.', PREREGISTRATION_FILE).preregistration;
    expect(report.analysis.comparisons.map((c) => [c.id, c.candidate, c.reference, c.outcome])).toEqual(
      plan.comparisons.map((c) => [c.id, c.condition, c.reference, c.outcome]),
    );
    expect(report.analysis.alpha).toBe(plan.multiplicity.alpha);
    const ps = report.analysis.comparisons.map((c) => c.test!.p);
    const m = plan.multiplicity.family.length;
    for (const c of report.analysis.comparisons) {
      expect(c.pairedPoints).toBe(report.analysis.prunePoints);
      expect(c.pHolm).toBeGreaterThanOrEqual(c.test!.p);
      // Holm never exceeds Bonferroni over the preregistered family, and the smallest p is multiplied by exactly m.
      expect(c.pHolm).toBeLessThanOrEqual(Math.min(1, m * c.test!.p));
      expect(c.significant).toBe(c.pHolm! <= plan.multiplicity.alpha);
    }
    const smallest = ps.indexOf(Math.min(...ps));
    expect(report.analysis.comparisons[smallest]!.pHolm).toBe(Math.min(1, m * ps[smallest]!));
    // The secondary pairings are reported apart, unadjusted, and never feed the family.
    expect(report.analysis.secondary.map((c) => c.id)).toEqual(STUDY.secondary.map((c) => c.id));
    expect(text('tables/comparisons-secondary.md')).toContain('not in the Holm family');
  });

  it('counts each preregistered per-fixture outcome from the points.csv rows (version 2 pairs fixtures)', () => {
    const c7 = report.analysis.comparisons.find((c) => c.outcome === 'anyAbstain')!;
    expect(c7.test!.unit).toBe('fixture');
    const rows = (name: string) =>
      readFileSync(join(sample, name, 'points.csv'), 'utf8')
        .trim()
        .split('\n');
    // Per fixture: how many of its prune points have an abstention.
    const abstaining = (name: string) => {
      const [header, ...lines] = rows(name);
      const col = header!.split(',').indexOf('abstain');
      const counts = new Map<string, number>();
      for (const l of lines) {
        const cells = l.split(',');
        counts.set(cells[1]!, (counts.get(cells[1]!) ?? 0) + (Number(cells[col]) > 0 ? 1 : 0));
      }
      return counts;
    };
    const a = abstaining(c7.candidate);
    const b = abstaining(c7.reference);
    const more = [...a].filter(([k, v]) => v > (b.get(k) ?? 0)).length;
    const fewer = [...a].filter(([k, v]) => v < (b.get(k) ?? 0)).length;
    expect([c7.test!.b, c7.test!.c]).toEqual([more, fewer]);
  });

  it('tables/hypotheses.{md,csv} evaluate every preregistered criterion and outcome row', () => {
    const p = loadPreregistration('.', PREREGISTRATION_FILE).preregistration;
    expect(report.analysis.acceptance.map((c) => c.id)).toEqual(p.acceptance.map((a) => a.id));
    expect(report.analysis.outcomes.map((o) => o.id)).toEqual(p.outcomes.map((o) => o.id));
    const md = text('tables/hypotheses.md');
    for (const a of p.acceptance) expect(md).toContain(`> ${a.criterion}`);
    for (const o of p.outcomes) expect(md).toContain(o.meaning);
    // One CSV row per check, each carrying its criterion's verdict, which is the conjunction of its parts.
    const [header, ...lines] = text('tables/hypotheses.csv').trim().split('\n');
    const checks = report.analysis.acceptance.flatMap((c) => c.parts.flatMap((part) => part.checks));
    expect(lines).toHaveLength(checks.length);
    expect(header).toContain('criterion_verdict');
    for (const c of report.analysis.acceptance) {
      const parts = c.parts.map((x) => x.truth);
      expect(c.truth).toBe(parts.includes(false) ? false : parts.includes(null) ? null : true);
    }
  });

  it('bootstraps the differences the criteria need on the pooled rates of the two conditions', () => {
    const harm = report.analysis.differences.find((d) => d.measure === 'harmRate')!;
    const rate = (name: string) => report.analysis.rows.find((r) => r.condition === name)!.harmRate.value!;
    expect(harm.interval.estimate).toBeCloseTo(rate(harm.condition) - rate(harm.reference), 12);
    expect(harm.interval.iterations).toBe(report.analysis.iterations);
    expect(harm.interval.lo!).toBeLessThanOrEqual(harm.interval.estimate!);
    expect(harm.interval.hi!).toBeGreaterThanOrEqual(harm.interval.estimate!);
  });

  it('draws the sweeps as curves and reads the reduction at each safety threshold', () => {
    const frontier = text('tables/frontier.csv');
    for (const name of [
      'predictive-semantic@0.05',
      'predictive-semantic@0.5',
      'observation-masking@1',
      'observation-masking@40',
    ])
      expect(frontier).toContain(`${name},`);
    const curve = report.analysis.thresholds.filter((t) => t.curve === 'predictive-semantic');
    expect(curve.map((t) => t.threshold)).toEqual([0, 0.01, 0.05]);
    expect(curve.every((t) => t.variants === 6)).toBe(true);
    for (const t of report.analysis.thresholds) {
      // The safety threshold is on the harm rate (version 2), never on false prunes among removals.
      if (t.best) expect(t.best.harmRate.numerator).toBeLessThanOrEqual(t.threshold * t.best.harmRate.denominator);
    }
  });

  it('attributes the ladder removals to rules with their rungs and marginal steps', () => {
    const [first, ...rest] = report.analysis.ladder;
    expect(first?.marginal).toBeNull();
    for (const l of rest) {
      expect(l.marginal).not.toBeNull();
      expect(l.removedBy.every((e) => e.rung !== null)).toBe(true);
    }
    expect(text('tables/ladder-rules.md')).toContain('exact-redundancy');
  });
});

describe('progress of the analysis', () => {
  it('reports each condition row and each pooled breakdown, counting up to a fixed total', () => {
    const total = report.analysis.rows.length + 3;
    expect(steps.map(([d]) => d)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(new Set(steps.map(([, t]) => t))).toEqual(new Set([total]));
  });
});

describe('charts', () => {
  it.each(['harm-reduction', 'coverage-abstention', 'frontier', 'tokens', 'ladder-waterfall'])(
    '%s: spec, SVG with its titles, PNG of the expected size and not blank',
    (name) => {
      const chart = report.charts.find((c) => c.name === name)!;
      const spec = text(`charts/${name}.vl.json`);
      expect(spec).not.toMatch(/"extent"|errorbar|errorband|"aggregate"/);
      const svg = text(`charts/${name}.svg`);
      const titleLines = (chart.spec.title as { text: string[] }).text;
      expect(titleLines.join(' ')).toBe(chart.title);
      for (const line of titleLines) expect(svg).toContain(line.replace(/&/g, '&amp;').replace(/'/g, '&#39;'));
      // The takeaway is wrapped into lines that fit the column; every line is in the SVG.
      const subtitle = (chart.spec.title as { subtitle: string[] }).subtitle;
      expect(subtitle.join(' ')).toContain(chart.caption);
      for (const line of subtitle) expect(svg).toContain(line.replace(/&/g, '&amp;'));
      const axisTitles = [...spec.matchAll(/"title": "([^"]+)"/g)]
        .map((m) => m[1]!)
        .filter((t) => t !== chart.title && !titleLines.includes(t));
      for (const t of axisTitles) expect(svg).toContain(t.replace(/&/g, '&amp;'));
      const w = Number(/<svg[^>]* width="(\d+(?:\.\d+)?)"/.exec(svg)![1]);
      const h = Number(/<svg[^>]* height="(\d+(?:\.\d+)?)"/.exec(svg)![1]);
      const image = decodePng(report.files.get(`charts/${name}.png`) as Buffer);
      // A book column: at most 4.5 in (324 pt) wide, drawn at 300 dpi.
      expect(w).toBeLessThanOrEqual(BOOK_COLUMN_PT);
      expect(image.width).toBe(Math.round(w * BOOK_SCALE));
      expect(image.height).toBe(Math.round(h * BOOK_SCALE));
      let ink = 0;
      const colours = new Set<number>();
      for (let i = 0; i < image.pixels.length; i += 4) {
        const [r, g, b] = [image.pixels[i]!, image.pixels[i + 1]!, image.pixels[i + 2]!];
        if (r < 200 || g < 200 || b < 200) ink += 1;
        colours.add((r << 16) | (g << 8) | b);
      }
      expect(ink / (image.width * image.height)).toBeGreaterThan(0.01);
      expect(colours.size).toBeGreaterThan(16);
    },
  );
});

describe('families and bad results', () => {
  it('breaks measures down by the episode that produced each item, not by the families a fixture lists', () => {
    const rows = report.analysis.families;
    const raw = rows.filter((f) => f.condition === 'raw');
    const all = rows.filter((f) => f.condition === 'prune-all');
    // The generated corpus's episodes name their families (generic work included); canonical items fall to (none)
    // or their fixture's first family, so there are more families here than any one fixture lists.
    expect(raw.map((f) => f.family)).toContain('generic-work');
    expect(raw.map((f) => f.family)).toEqual(all.map((f) => f.family));
    // Removing nothing harms no family; removing everything harms every necessary unit of every family.
    for (const f of raw) expect(f.harmRate.numerator).toBe(0);
    for (const f of all) expect(f.harmRate.numerator).toBe(f.harmRate.denominator);
    expect(text('tables/families.md')).toContain('|generic-work|');
  });

  it('names the file, line and field of a results file that does not validate, and writes nothing', async () => {
    const dir = temp();
    const file = join(dir, 'exact-redundancy', 'points.csv');
    const lines = readFileSync(file, 'utf8').split('\n');
    const column = lines[0]!.split(',').indexOf('refetchAlerts');
    lines[1] = lines[1]!
      .split(',')
      .map((cell, i) => (i === column ? 'none' : cell))
      .join(',');
    writeFileSync(file, lines.join('\n'));
    repin(dir);
    const r = await cli(['report', '--results', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/exact-redundancy\/points\.csv: line 2, field "refetchAlerts"/);
    expect(r.stderr).toContain('[PL_RESULTS_FIELD]');
    expect(readdirSync(dir)).not.toContain('tables');
  });

  it('refuses results of imported traces, whose oracle measures are unscored, and points to the ecology', async () => {
    const dir = temp();
    const file = join(dir, 'raw', 'summary.json');
    const summary = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    summary.precision = { numerator: null, denominator: 0, value: null, reason: 'imported trace: no oracle' };
    writeFileSync(file, JSON.stringify(summary));
    repin(dir);
    const r = await cli(['report', '--results', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[PL_RESULTS_UNSCORED]');
    expect(r.stderr).toContain('npm run ecology');
    expect(readdirSync(dir)).not.toContain('tables');
  });

  it('says where to look when there are no results', async () => {
    const r = await cli(['report', '--results', join(temp(), 'nowhere')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[PL_RESULTS_MISSING]');
  });
});
