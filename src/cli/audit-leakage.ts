// `prunelab audit-leakage` (npm run audit:leakage): the leak audit of a scored fixtures folder (src/audit/). Writes
// <out>/audit/leakage.md and leakage.csv, each atomically, prints the table, and exits 1 when an illegitimate
// feature predicts the oracle's label above the bar. Read-only on the fixtures.
import { join, resolve } from 'node:path';
import { tokenCounter } from '../accounting/tokens.js';
import {
  auditLeakage,
  auditRows,
  DEFAULT_MAX_AUC,
  leakageCsv,
  leakageMarkdown,
  type AuditInput,
} from '../audit/leakage.js';
import { writeAtomic } from '../engine/write.js';
import { failure, input, usage } from '../errors.js';
import { relativePath } from '../fixture/canonical.js';
import { loadFixtures } from '../load/fixtures.js';
import { notices } from '../messages.js';
import { integerFlag } from './args.js';
import { defineCommand, type Values } from './command.js';
import type { CliIO } from './io.js';

export const AUDIT_DEFAULTS = {
  fixtures: 'fixtures/generated',
  out: 'results',
  seed: 20261202,
  maxAuc: DEFAULT_MAX_AUC,
} as const;
export const AUDIT_DIR = 'audit';

const FLAGS = {
  fixtures: {
    type: 'string',
    valueHint: 'PATH',
    default: AUDIT_DEFAULTS.fixtures,
    description: 'a scored fixtures folder or file',
  },
  out: { type: 'string', valueHint: 'DIR', default: AUDIT_DEFAULTS.out, description: `where ${AUDIT_DIR}/ is written` },
  seed: { type: 'string', valueHint: 'N', default: String(AUDIT_DEFAULTS.seed), description: 'the seed of the split' },
  'max-auc': {
    type: 'string',
    valueHint: 'X',
    default: String(AUDIT_DEFAULTS.maxAuc),
    description: 'the bar for illegitimate features, in [0.5, 1]',
  },
} as const;

export const auditLeakageCommand = defineCommand({
  meta: {
    name: 'audit-leakage',
    script: 'audit:leakage',
    description: "the leak audit: does an id, a tool name, a position or a phrase predict the oracle's label?",
    about: `Fits one simple classifier per visible item feature (id tokens, tool, turn, position, age, length, word n-grams,
kind, origin, call/result role, status, side-effect class, flags) on half of the fixtures (split by a seeded hash of
the fixture id) and scores it by ROC AUC for the oracle's label on the other half, both ways. Writes
<out>/${AUDIT_DIR}/leakage.md and leakage.csv. Exit 1 when a feature a policy must not rely on scores above --max-auc.`,
  },
  args: FLAGS,
  run: ({ args, io }) => audit(args, io),
});

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
