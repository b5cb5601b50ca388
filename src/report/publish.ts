// The bundle for the book's repository: charts in all three forms, tables, an index.md listing every figure with
// its caption, and provenance.json naming what the figures rest on. Results stamped exploratory are refused
// unless the caller allows them, and then every caption says so (the caption is built from the manifest's stamp).
import { usage } from '../errors.js';
import { caption } from './analysis.js';
import { verdict } from './criteria.js';
import { HYPOTHESES_TABLE } from './hypotheses.js';
import type { StudyResults } from './load.js';
import type { StudyDefinition } from './study.js';
import { analyseFolder, CHARTS_DIR, renderReport, TABLES_DIR, type Report } from './report.js';

export const PROVENANCE_FILE = 'provenance.json';
export const INDEX_FILE = 'index.md';

export interface PublishOptions {
  /** The study whose machine forms the report evaluates (loaded by the CLI). */
  readonly study: StudyDefinition;
  readonly allowExploratory: boolean;
}

export function provenance(results: StudyResults, report: Report): Record<string, unknown> {
  const m = results.manifest;
  return {
    package: m.package,
    gitCommit: results.run?.gitCommit ?? null,
    gitDirty: results.run?.gitDirty ?? null,
    exploratory: m.study.exploratory,
    preregistration: m.study.preregistration,
    fixtureManifest: m.study.fixtureManifest,
    resultsManifestSha256: results.manifestSha256,
    tokenizer: m.tokenizer,
    models: m.models,
    seed: m.seed,
    analysisPlan: report.analysis.plan,
    bootstrap: { seed: report.analysis.seed, iterations: report.analysis.iterations },
    alpha: report.analysis.alpha,
    fixtures: m.fixtures.length,
    prunePoints: report.analysis.prunePoints,
    conditions: m.conditions.map((c) => c.name),
    comparisons: report.analysis.comparisons.map((c) => c.id),
    secondaryComparisons: report.analysis.secondary.map((c) => c.id),
    acceptance: report.analysis.acceptance.map((c) => ({ id: c.id, verdict: verdict(c.truth) })),
  };
}

export function indexMarkdown(results: StudyResults, report: Report): string {
  const m = results.manifest;
  const lines = [
    '# prunelab results',
    '',
    `${caption(report.analysis)}.`,
    '',
    m.study.exploratory
      ? '**Exploratory.** These results were not checked against a preregistration; read them as exploration, not as a test.'
      : `Preregistration: \`${m.study.preregistration?.file ?? 'unknown'}\` (sha256 \`${m.study.preregistration?.sha256 ?? 'unknown'}\`).`,
    '',
    `Git commit ${results.run ? `\`${results.run.gitCommit}\`` : 'unknown (no run.json for this manifest)'}; tokenizer ${m.tokenizer.package} ${m.tokenizer.version} (${m.tokenizer.encoding}); models: ${m.models.map((x) => `${x.role} ${x.provider}${x.model ? ` ${x.model}` : ''}`).join(', ')}. Full provenance in [${PROVENANCE_FILE}](${PROVENANCE_FILE}).`,
    '',
    '## Figures',
    '',
  ];
  report.charts.forEach((c, i) => {
    lines.push(
      `### Figure ${i + 1}. ${c.title}`,
      '',
      `![${c.title}](${CHARTS_DIR}/${c.name}.svg)`,
      '',
      `*${c.caption}* ${caption(report.analysis)}. Files: [vega-lite spec](${CHARTS_DIR}/${c.name}.vl.json), [SVG](${CHARTS_DIR}/${c.name}.svg), [PNG](${CHARTS_DIR}/${c.name}.png).`,
      '',
    );
  });
  lines.push(
    '## Acceptance criteria',
    '',
    `Evaluated mechanically against the preregistration's criteria; figures and the outcome table in [${HYPOTHESES_TABLE}.md](${TABLES_DIR}/${HYPOTHESES_TABLE}.md).`,
    '',
    ...report.analysis.acceptance.map((c) => `- **${c.id}** (${c.hypothesis}): ${verdict(c.truth)}`),
    '',
  );
  lines.push('## Tables', '');
  for (const t of report.tables)
    lines.push(`- ${t.title}: [Markdown](${TABLES_DIR}/${t.name}.md), [CSV](${TABLES_DIR}/${t.name}.csv)`);
  return `${lines.join('\n')}\n`;
}

/** The bundle's files, or a usage error when the results are exploratory and that was not allowed. */
export async function buildBundle(
  resultsDir: string,
  label: string,
  root: string,
  options: PublishOptions,
): Promise<ReadonlyMap<string, string | Buffer>> {
  // Refused once loaded, before the analysis, whose bootstraps are most of the work.
  const { results, analysis } = analyseFolder(resultsDir, label, root, options.study, (loaded) => {
    if (loaded.manifest.study.exploratory && !options.allowExploratory) throw usage('PL_PUBLISH_EXPLORATORY', label);
  });
  const report = await renderReport(analysis);
  const files = new Map(report.files);
  files.set(INDEX_FILE, indexMarkdown(results, report));
  files.set(PROVENANCE_FILE, `${JSON.stringify(provenance(results, report), null, 2)}\n`);
  return files;
}
