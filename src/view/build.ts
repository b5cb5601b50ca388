// Builds the viewer's files from a results folder: the report's verification and analysis first (nothing unpinned
// is read), then each selected fixture's inputs checked against the manifest's hashes, its logs read per condition,
// and the pages assembled. Returns the files; writing them is the command's.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { input, usage } from '../errors.js';
import { loadFixture } from '../load/fixtures.js';
import { buildCharts } from '../report/charts.js';
import { analyseFolder } from '../report/report.js';
import { renderChart } from '../report/render-chart.js';
import type { StudyDefinition } from '../report/study.js';
import { buildTables } from '../report/tables.js';
import { LAYOUT } from '../engine/write.js';
import { conditionLogs, fixturesIn, pinnedLog, type FixtureLogs } from './logs.js';
import { fixturePage, type ConditionLogs, type FixturePage } from './model.js';
import { sceneOf } from './scene.js';
import { siteFiles, type HeadlineTable, type SiteChart } from './site.js';

/** The report's tables an index shows: the two layers' measures and the token accounting. */
export const HEADLINE_TABLES = ['layer-a', 'ladder', 'tokens'] as const;

/** Fixtures a site gets when none are named and the results hold no plain-text logs (only the compressed tier). */
export const FALLBACK_FIXTURES = 20;

export interface ViewRequest {
  readonly resultsDir: string;
  /** The results folder as the user named it, for messages and the index. */
  readonly label: string;
  /** The package root: fixture files are named relative to it in the manifest. */
  readonly root: string;
  readonly study: StudyDefinition;
  /** Fixture id globs (`*`, `?`); none: every fixture whose logs are in the plain, committed tier. */
  readonly fixtures?: readonly string[];
  /** Condition names; none: every condition of the results. */
  readonly conditions?: readonly string[];
}

export interface BuiltSite {
  readonly files: ReadonlyMap<string, string>;
  readonly pages: number;
  readonly conditions: number;
  readonly leftOut: number;
}

/** A glob over fixture ids: `*` any run of characters, `?` one; everything else literal. */
export function globMatcher(patterns: readonly string[]): (id: string) => boolean {
  const res = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '.*')
          .replace(/\?/g, '.')}$`,
      ),
  );
  return (id) => res.some((re) => re.test(id));
}

const listOf = (values: readonly string[] | undefined): string[] | undefined => {
  const list = values
    ?.flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  return list && list.length > 0 ? list : undefined;
};

export async function buildSite(req: ViewRequest): Promise<BuiltSite> {
  const { results, analysis } = analyseFolder(req.resultsDir, req.label, req.root, req.study);
  const { manifest, label } = results;
  const all = results.conditions.map((c) => c.summary);
  const wantedConditions = listOf(req.conditions);
  for (const name of wantedConditions ?? [])
    if (!all.some((s) => s.condition === name))
      throw usage(
        'PL_USAGE_UNKNOWN_CONDITION',
        name,
        all.map((s) => s.condition),
      );
  const summaries = wantedConditions ? all.filter((s) => wantedConditions.includes(s.condition)) : all;

  // The plain tier: fixtures whose logs are committed text, the default selection (the compressed tier is the
  // generated corpus, whose every page would make a site of hundreds of megabytes).
  const plain = new Set(
    summaries.flatMap((s) =>
      fixturesIn(pinnedLog(req.resultsDir, label, manifest, `${s.condition}/${LAYOUT.decisions}`) ?? ''),
    ),
  );
  const patterns = listOf(req.fixtures);
  const match = patterns ? globMatcher(patterns) : undefined;
  let selected = manifest.fixtures.filter((f) => (match ? match(f.id) : plain.has(f.id)));
  if (match && selected.length === 0) throw input('PL_VIEW_NO_FIXTURES', patterns!, label);
  if (!match && selected.length === 0) selected = manifest.fixtures.slice(0, FALLBACK_FIXTURES);
  const wanted = new Set(selected.map((f) => f.id));

  const logs = new Map<string, ConditionLogs[]>(selected.map((f) => [f.id, []]));
  for (const s of summaries) {
    const read = conditionLogs(req.resultsDir, label, manifest, s.condition, wanted);
    for (const f of selected) {
      const found: FixtureLogs | undefined = read.get(f.id);
      if (!found) throw input('PL_VIEW_NO_DECISIONS', `${label}/${s.condition}/${LAYOUT.decisions}`, f.id);
      logs.get(f.id)!.push({
        name: s.condition,
        layer: s.layer,
        rung: s.rung,
        records: found.records,
        points: found.points,
        logged: found.logged,
        file: `${label}/${s.condition}`,
      });
    }
  }

  const pages: FixturePage[] = selected.map((entry) => {
    const path = resolve(req.root, entry.file);
    if (!existsSync(path)) throw input('PL_VIEW_FIXTURE_MISSING', entry.file, label);
    const loaded = loadFixture(path, req.root);
    if (loaded.sha256 !== entry.sha256) throw input('PL_VIEW_FIXTURE_CHANGED', entry.file, entry.sha256, loaded.sha256);
    if (entry.oracleFile && loaded.oracleSha256 !== entry.oracleSha256)
      throw input(
        'PL_VIEW_FIXTURE_CHANGED',
        entry.oracleFile,
        entry.oracleSha256 ?? '(none)',
        loaded.oracleSha256 ?? '(none)',
      );
    return fixturePage(loaded.fixture, loaded.oracle, logs.get(entry.id)!);
  });

  const names = summaries.map((s) => s.condition);
  const tables: HeadlineTable[] = buildTables(analysis)
    .filter((t) => (HEADLINE_TABLES as readonly string[]).includes(t.name))
    .map((t) => ({
      name: t.name,
      title: t.title,
      notes: t.notes,
      columns: t.view.columnNames(),
      rows: t.view
        .objects()
        .map((row) => t.view.columnNames().map((c) => String((row as Record<string, unknown>)[c] ?? ''))),
    }));
  const charts: SiteChart[] = [];
  for (const c of buildCharts(analysis))
    charts.push({ name: c.name, title: c.title, caption: c.caption, svg: (await renderChart(c.spec)).svg });

  const proposed = analysis.proposed && names.includes(analysis.proposed) ? analysis.proposed : null;
  const files = siteFiles({
    label,
    exploratory: manifest.study.exploratory,
    summaries,
    tables,
    charts,
    pages,
    leftOut:
      manifest.fixtures.length > pages.length
        ? {
            count: manifest.fixtures.length - pages.length,
            why: patterns
              ? `they do not match --fixture ${patterns.join(',')}`
              : `pages are made by default only for fixtures whose logs are plain text (the generated corpus's compressed logs would make a site of hundreds of megabytes); name others with --fixture, e.g. --fixture 'gen-000*'`,
          }
        : null,
    scene: sceneOf(pages, proposed),
    defaultCondition: proposed ?? names[0]!,
  });
  return { files, pages: pages.length, conditions: names.length, leftOut: manifest.fixtures.length - pages.length };
}
