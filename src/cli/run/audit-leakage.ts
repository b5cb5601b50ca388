// What `prunelab audit-leakage` does, loaded only when that command runs (its definition is ../audit-leakage.ts).
import { join, resolve } from 'node:path';
import { tokenCounter } from '../../accounting/tokens.js';
import { auditLeakage, auditRows, leakageCsv, leakageMarkdown, type AuditInput } from '../../audit/leakage.js';
import { writeAtomic } from '../../engine/write.js';
import { failure, input, usage } from '../../errors.js';
import { relativePath } from '../../fixture/canonical.js';
import { loadFixtures } from '../../load/fixtures.js';
import { notices } from '../../messages.js';
import { integerFlag } from '../args.js';
import type { Values } from '../command.js';
import type { CliIO } from '../io.js';
import type { CommandContext } from '../command.js';
import { AUDIT_DEFAULTS, AUDIT_DIR, type FLAGS } from '../audit-leakage.js';

export const run = ({ args, io }: CommandContext<typeof FLAGS>) => audit(args, io);

async function audit(flags: Values<typeof FLAGS>, io: CliIO): Promise<number> {
  const seed = integerFlag('--seed', flags.seed, AUDIT_DEFAULTS.seed);
  const bar = flags['max-auc'];
  const maxAuc = bar === undefined ? AUDIT_DEFAULTS.maxAuc : Number(bar);
  if (bar !== undefined && (!/^\d*\.?\d+$/.test(bar) || maxAuc < 0.5 || maxAuc > 1))
    throw usage('PL_USAGE_BAD_VALUE', '--max-auc', bar, 'a number from 0.5 to 1');
  const shown = flags.fixtures ?? AUDIT_DEFAULTS.fixtures;
  const skipped = (file: string, why: string) => io.stderr(notices.inputSkipped(relativePath(file, io.cwd), why));
  const loaded = loadFixtures(resolve(io.cwd, shown), io.cwd, skipped);
  const inputs: AuditInput[] = loaded.flatMap((l) => (l.oracle ? [{ fixture: l.fixture, oracle: l.oracle }] : []));
  if (inputs.length === 0) throw input('PL_AUDIT_NO_ORACLES', shown);
  const report = auditLeakage(auditRows(inputs, tokenCounter()), { seed, maxAuc });
  const markdown = leakageMarkdown(report, relativePath(resolve(io.cwd, shown), io.cwd));
  const dir = resolve(io.cwd, flags.out ?? AUDIT_DEFAULTS.out, AUDIT_DIR);
  writeAtomic(join(dir, 'leakage.md'), markdown);
  writeAtomic(join(dir, 'leakage.csv'), leakageCsv(report));
  io.stdout(notices.leakageWritten(markdown, relativePath(dir, io.cwd), ['leakage.md', 'leakage.csv']));
  if (report.failed.length > 0) {
    const over = report.features
      .filter((f) => report.failed.includes(f.feature))
      .map((f) => `${f.feature} (AUC ${f.auc!.toFixed(3)})`);
    throw failure('PL_AUDIT_LEAKAGE', over, maxAuc);
  }
  return 0;
}
