// Assembles the report's files from a results folder: every table as CSV and Markdown, every chart as its
// vega-lite spec, SVG and PNG. Pure in its inputs: the same results give the same bytes.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { commitSwap, discardStaging, recoverDebris, stagingFolder, type Recovery } from '../engine/atomic.js';
import { failure } from '../errors.js';
import { byCodeUnit } from '../fixture/canonical.js';
import { analyse, type Analysis } from './analysis.js';
import { buildCharts, type ChartSpec } from './charts.js';
import { economicsTables } from './economics.js';
import { hypothesesMarkdown, hypothesesTable, HYPOTHESES_TABLE } from './hypotheses.js';
import { loadResults, type StudyResults } from './load.js';
import { loadAnalysisPlan } from './plan.js';
import { BOOK_SCALE, renderChart } from './render-chart.js';
import type { StudyDefinition } from './study.js';
import { frameworkDefaultsTable } from './framework-defaults.js';
import { SHADOWS_TABLE, shadowPairs, shadowRows, shadowsCsv, shadowsMarkdown } from './shadows.js';
import { DEFINITIONS } from '../policy/registry.js';
import { buildTables, isPreregisteredTable, tableCsv, tableMarkdown, type ReportTable } from './tables.js';

export const TABLES_DIR = 'tables';
export const CHARTS_DIR = 'charts';

export interface Report {
  readonly analysis: Analysis;
  readonly tables: readonly ReportTable[];
  readonly charts: readonly ChartSpec[];
  /** Relative path to contents, in a stable order. */
  readonly files: ReadonlyMap<string, string | Buffer>;
}

/**
 * Loads and validates a results folder and the preregistration it was run against (read from under `root`, the
 * package root), and analyses the results by that plan. `accept` may refuse the loaded results (by throwing)
 * before the analysis is paid for.
 */
export function analyseFolder(
  resultsDir: string,
  label: string,
  root: string,
  study: StudyDefinition,
  accept?: (results: StudyResults) => void,
  onStep?: (done: number, total: number) => void,
): { results: StudyResults; analysis: Analysis } {
  const results = loadResults(resultsDir, label);
  accept?.(results);
  return { results, analysis: analyse(results, loadAnalysisPlan(root, results.manifest, label, study), onStep) };
}

export async function buildReport(
  resultsDir: string,
  label: string,
  root: string,
  study: StudyDefinition,
  onStep?: (done: number, total: number) => void,
): Promise<Report> {
  const report = await renderReport(analyseFolder(resultsDir, label, root, study, undefined, onStep).analysis);
  // A package and the reimplementation it shadows, when both ran: their disagreements, per fixture (read from the
  // decision logs, which the analysis does not keep).
  const shadows = shadowRows(resultsDir, shadowPairs(DEFINITIONS));
  if (shadows.length === 0) return report;
  const files = new Map(report.files);
  // Stamped exploratory in its first line, as every table the preregistration does not name.
  const stamped = !isPreregisteredTable(SHADOWS_TABLE, report.analysis);
  files.set(`${TABLES_DIR}/${SHADOWS_TABLE}.md`, shadowsMarkdown(shadows, stamped));
  files.set(`${TABLES_DIR}/${SHADOWS_TABLE}.csv`, shadowsCsv(shadows, stamped));
  return { ...report, files };
}

export async function renderReport(analysis: Analysis): Promise<Report> {
  const tables = [
    ...buildTables(analysis),
    frameworkDefaultsTable(analysis),
    hypothesesTable(analysis),
    ...economicsTables(analysis),
  ];
  const charts = buildCharts(analysis);
  const files = new Map<string, string | Buffer>();
  for (const t of tables) {
    files.set(`${TABLES_DIR}/${t.name}.csv`, tableCsv(t, analysis));
    files.set(
      `${TABLES_DIR}/${t.name}.md`,
      t.name === HYPOTHESES_TABLE ? hypothesesMarkdown(t, analysis) : tableMarkdown(t, analysis),
    );
  }
  for (const c of charts) {
    const { svg, png } = await renderChart(c.spec, BOOK_SCALE);
    files.set(`${CHARTS_DIR}/${c.name}.vl.json`, `${JSON.stringify(c.spec, null, 2)}\n`);
    files.set(`${CHARTS_DIR}/${c.name}.svg`, svg.endsWith('\n') ? svg : `${svg}\n`);
    files.set(`${CHARTS_DIR}/${c.name}.png`, png);
  }
  return { analysis, tables, charts, files };
}

/**
 * Writes `files` under `dir`, replacing each top-level folder they name (so stale files go) by building it in a
 * staging folder first and swapping everything in with one journaled swap: a failure or a kill leaves the previous
 * folders, or the new ones, whole. What dead writers left in `dir` is cleared first, and returned.
 */
export function writeFolders(dir: string, files: ReadonlyMap<string, string | Buffer>): Recovery {
  const recovered = recoverDebris(dir);
  const staging = stagingFolder(dir, 'report');
  try {
    rmSync(staging, { recursive: true, force: true });
    const tops = new Set<string>();
    for (const [file, data] of files) {
      const top = file.split('/')[0]!;
      if (file.includes('/')) tops.add(top);
      mkdirSync(dirname(join(staging, file)), { recursive: true });
      writeFileSync(join(staging, file), data);
    }
    // Top-level files (index.md, provenance.json) go last, so a folder that has them is complete.
    const loose = [...files.keys()].filter((f) => !f.includes('/')).sort(byCodeUnit);
    commitSwap(
      dir,
      staging,
      [...[...tops].sort(byCodeUnit), ...loose].map((move) => ({ move })),
    );
    return recovered;
  } catch (err) {
    throw failure('PL_IO', dir, (err as Error).message);
  } finally {
    discardStaging(staging);
  }
}
