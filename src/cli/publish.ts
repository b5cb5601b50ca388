// `prunelab publish --out DIR`: writes the self-contained bundle for the book's repository.
import { resolve } from 'node:path';
import { usage } from '../errors.js';
import { relativePath } from '../fixture/canonical.js';
import { buildBundle } from '../report/publish.js';
import { STUDY } from './study.js';
import { writeFolders } from '../report/report.js';
import { parseFlags } from './args.js';
import { clearDebris, type CliIO } from './io.js';
import { notices } from '../messages.js';

export const PUBLISH_USAGE = `usage: prunelab publish --out DIR [--results DIR] [--allow-exploratory]
  --out DIR              where the bundle is written (charts/, tables/, index.md, provenance.json)
  --results DIR          the results folder to publish (default results)
  --allow-exploratory    publish results not checked against a preregistration; every caption then says so
`;

export async function publish(argv: readonly string[], io: CliIO): Promise<number> {
  const flags = parseFlags(argv, {
    out: { type: 'string' }, results: { type: 'string' }, 'allow-exploratory': { type: 'boolean' }, help: { type: 'boolean' },
  });
  if (flags.help) {
    io.stdout(PUBLISH_USAGE);
    return 0;
  }
  if (flags.out === undefined) throw usage('PL_PUBLISH_NEEDS_OUT');
  const dir = resolve(io.cwd, flags.results ?? 'results');
  const out = resolve(io.cwd, flags.out);
  clearDebris(dir, io);
  clearDebris(out, io);
  const files = await buildBundle(dir, relativePath(dir, io.cwd), io.cwd, { allowExploratory: flags['allow-exploratory'] === true, study: STUDY });
  writeFolders(out, files);
  io.stdout(notices.bundleWritten(relativePath(out, io.cwd), files.size));
  return 0;
}
