import { describeCommand } from './command.js';

export const FLAGS = {
  out: {
    type: 'string',
    valueHint: 'DIR',
    required: true,
    missing: 'PL_PUBLISH_NEEDS_OUT',
    description: 'where the bundle is written (charts/, tables/, index.md, provenance.json)',
  },
  results: { type: 'string', valueHint: 'DIR', default: 'results', description: 'the results folder to publish' },
  'allow-exploratory': {
    type: 'boolean',
    description:
      'publish results not checked against a preregistration; every caption then says so (without it they are refused, exit 2)',
  },
} as const;

export const publishCommand = describeCommand({
  meta: {
    name: 'publish',
    script: 'publish',
    description: "the self-contained bundle for the book's repository",
    about: "Writes the self-contained bundle for the book's repository: charts, tables, index.md and provenance.json.",
  },
  args: FLAGS,
});
