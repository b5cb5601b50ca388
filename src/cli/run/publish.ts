// What `prunelab publish` does, loaded only when that command runs (its definition is ../publish.ts).
import { resolve } from 'node:path';
import { relativePath } from '../../fixture/canonical.js';
import { buildBundle } from '../../report/publish.js';
import { STUDY } from '../study.js';
import { writeFolders } from '../../report/report.js';
import type { Values } from '../command.js';
import { clearDebris, type CliIO } from '../io.js';
import { notices } from '../../messages.js';
import type { CommandContext } from '../command.js';
import type { FLAGS } from '../publish.js';

export const run = ({ args, io }: CommandContext<typeof FLAGS>) => publish(args, io);

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
