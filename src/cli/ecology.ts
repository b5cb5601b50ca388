import { describeCommand } from './command.js';

export const REAL_TRACES_DIR = 'data/real-traces';
export const REAL_OUT_DIR = 'results/ecology';

export const FLAGS = {
  paths: {
    type: 'positional',
    valueHint: 'PATH',
    description: 'a folder of fixtures, a fixture file, or a recorded session file (imported in memory, redacted)',
  },
  out: {
    type: 'string',
    valueHint: 'DIR',
    description: 'also write ecology.md, ecology.csv, ecology.vl.json, ecology.svg and ecology.png there',
  },
  real: {
    type: 'boolean',
    description: `import ${REAL_TRACES_DIR}/ and rebuild ${REAL_OUT_DIR}/ (fixtures, every condition's figures, ecology)`,
  },
  check: {
    type: 'boolean',
    description: `with --real: regenerate in memory and compare with ${REAL_OUT_DIR}/ byte for byte`,
  },
} as const;

export const ecologyCommand = describeCommand({
  meta: {
    name: 'ecology',
    script: 'ecology',
    description: `candidate volumes per trace and in total, as a table and a chart; --real rebuilds (or --check checks) ${REAL_OUT_DIR}/ from ${REAL_TRACES_DIR}/ (npm run ecology:real)`,
    usage: ['PATH... [--out DIR]', '--real [--check]'],
    about: `Reports, per trace and in total, the share of active-context tokens each class of pruning candidate would touch
(candidate volumes: not safe removals, not labels). PATH is a folder of fixtures, a fixture file, or a recorded
session file (imported in memory, redacted).`,
  },
  args: FLAGS,
});
