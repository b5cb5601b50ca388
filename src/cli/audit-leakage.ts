import { DEFAULT_MAX_AUC } from '../audit/leakage.js';
import { describeCommand } from './command.js';

export const AUDIT_DEFAULTS = {
  fixtures: 'fixtures/generated',
  out: 'results',
  seed: 20261202,
  maxAuc: DEFAULT_MAX_AUC,
} as const;
export const AUDIT_DIR = 'audit';

export const FLAGS = {
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

export const auditLeakageCommand = describeCommand({
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
});
