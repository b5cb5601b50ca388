// `prunelab report`: rebuilds every table and chart from a results folder without running any condition.
import { resolve } from 'node:path';
import { relativePath } from '../fixture/canonical.js';
import { buildReport, CHARTS_DIR, TABLES_DIR, writeFolders } from '../report/report.js';
import { STUDY } from './study.js';
import { parseFlags } from './args.js';
import { clearDebris, type CliIO } from './io.js';
import { notices } from '../messages.js';

export const REPORT_USAGE = `usage: prunelab report [--results DIR]
  --results DIR   the results folder to read and write tables/ and charts/ into (default results)
`;

export async function report(argv: readonly string[], io: CliIO): Promise<number> {
  const flags = parseFlags(argv, { results: { type: 'string' }, help: { type: 'boolean' } });
  if (flags.help) {
    io.stdout(REPORT_USAGE);
    return 0;
  }
  const dir = resolve(io.cwd, flags.results ?? 'results');
  const label = relativePath(dir, io.cwd);
  clearDebris(dir, io);
  const built = await buildReport(dir, label, io.cwd, STUDY);
  writeFolders(dir, built.files);
  io.stdout(notices.reportWritten(built.tables.length, `${label}/${TABLES_DIR}`, built.charts.length, `${label}/${CHARTS_DIR}`, built.analysis.fixtures, built.analysis.rows.length));
  return 0;
}
