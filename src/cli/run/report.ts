// What `prunelab report` does, loaded only when that command runs (its definition is ../report.ts).
import { resolve } from 'node:path';
import { relativePath } from '../../fixture/canonical.js';
import { buildReport, CHARTS_DIR, TABLES_DIR, writeFolders } from '../../report/report.js';
import { STUDY } from '../study.js';
import { progressCallback } from '../progress.js';
import { clearDebris, type CliIO } from '../io.js';
import { notices } from '../../messages.js';
import type { CommandContext } from '../command.js';
import type { reportCommand } from '../report.js';

export const run = ({ args, io }: CommandContext<typeof reportCommand.args>) => report(args.results ?? 'results', io);

async function report(results: string, io: CliIO): Promise<number> {
  const dir = resolve(io.cwd, results);
  const label = relativePath(dir, io.cwd);
  clearDebris(dir, io);
  const progress = progressCallback(io, { label: 'report', unit: 'analysis steps', conditions: 0, quiet: false });
  let built: Awaited<ReturnType<typeof buildReport>>;
  try {
    built = await buildReport(dir, label, io.cwd, STUDY, progress.onProgress);
  } finally {
    progress.stop();
  }
  writeFolders(dir, built.files);
  io.stdout(
    notices.reportWritten(
      built.tables.length,
      `${label}/${TABLES_DIR}`,
      built.charts.length,
      `${label}/${CHARTS_DIR}`,
      built.analysis.fixtures,
      built.analysis.rows.length,
    ),
  );
  return 0;
}
