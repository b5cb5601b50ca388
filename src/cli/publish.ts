// `prunelab publish --out DIR`: writes the self-contained bundle for the book's repository.
import { resolve } from 'node:path';
import { relativePath } from '../fixture/canonical.js';
import { buildBundle } from '../report/publish.js';
import { STUDY } from './study.js';
import { writeFolders } from '../report/report.js';
import { defineCommand, type Values } from './command.js';
import { clearDebris, type CliIO } from './io.js';
import { notices } from '../messages.js';

const FLAGS = {
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

export const publishCommand = defineCommand({
  meta: {
    name: 'publish',
    script: 'publish',
    description: "the self-contained bundle for the book's repository",
    about: "Writes the self-contained bundle for the book's repository: charts, tables, index.md and provenance.json.",
  },
  args: FLAGS,
  run: ({ args, io }) => publish(args, io),
});

async function publish(flags: Values<typeof FLAGS>, io: CliIO): Promise<number> {
  const dir = resolve(io.cwd, flags.results ?? 'results');
  const out = resolve(io.cwd, flags.out);
  clearDebris(dir, io);
  clearDebris(out, io);
  const files = await buildBundle(dir, relativePath(dir, io.cwd), io.cwd, {
    allowExploratory: flags['allow-exploratory'] === true,
    study: STUDY,
  });
  writeFolders(out, files);
  io.stdout(notices.bundleWritten(relativePath(out, io.cwd), files.size));
  return 0;
}
