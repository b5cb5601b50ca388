import { FORMATS } from '../traces/build.js';
import { describeCommand } from './command.js';

export const FLAGS = {
  files: {
    type: 'positional',
    valueHint: 'FILE',
    required: true,
    missing: 'PL_USAGE_IMPORT_FILES',
    description: 'recorded session files',
  },
  format: {
    type: 'enum',
    valueHint: 'F',
    options: FORMATS,
    description: "the sessions' format; the format is also detected, and must match",
  },
  out: {
    type: 'string',
    valueHint: 'DIR',
    required: true,
    missing: 'PL_USAGE_IMPORT_OUT',
    description: 'where the fixtures go, one <format>.<name>.json per session',
  },
  'no-redact': {
    type: 'boolean',
    description: 'keep credential-looking strings (a warning is printed); by default they are replaced',
  },
  json: { type: 'boolean', description: 'print the import report as JSON' },
} as const;

export const importCommand = describeCommand({
  meta: {
    name: 'import',
    script: 'import',
    description: `recorded sessions (${FORMATS.join(', ')}) to fixtures`,
    usage: ['[--format F] FILE... --out DIR'],
    about:
      'Turns recorded agent sessions into prunelab fixtures (no oracle: they run through every condition, unscored).',
  },
  args: FLAGS,
});
