// What `prunelab view` does, loaded only when that command runs (its definition is ../view.ts).
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { readManifest } from '../../engine/write.js';
import { usage } from '../../errors.js';
import { relativePath } from '../../fixture/canonical.js';
import { notices } from '../../messages.js';
import { writeFolders } from '../../report/report.js';
import { buildSite } from '../../view/build.js';
import { clearDebris, type CliIO } from '../io.js';
import { STUDY } from '../study.js';
import type { CommandContext } from '../command.js';
import { VIEW_DIR, type viewCommand } from '../view.js';

export const run = ({ args, io }: CommandContext<typeof viewCommand.args>) => view(args, io);

/** A folder the site may replace: new, empty, or a site this command wrote, and never the results themselves. */
function checkOut(out: string, resultsDir: string): void {
  const inside = (a: string, b: string) =>
    a === b || (!relative(b, a).startsWith('..') && !relative(b, a).startsWith(sep));
  if (inside(resultsDir, out)) throw usage('PL_USAGE_VIEW_OUT', out, 'which holds the results folder it would replace');
  // Inside a condition folder the site would be an unpinned file, and the results would no longer verify.
  const conditions = readManifest(resultsDir)?.conditions.map((c) => join(resultsDir, c.name)) ?? [];
  if (conditions.some((c) => inside(out, c)))
    throw usage('PL_USAGE_VIEW_OUT', out, 'which is inside a condition folder of the results');
  if (existsSync(out) && readdirSync(out).length > 0 && !existsSync(join(out, 'assets', 'app.js')))
    throw usage('PL_USAGE_VIEW_OUT', out, 'a folder that is not empty and is not a site this command wrote');
}

async function view(
  args: { results?: string; out?: string; fixture?: string[]; condition?: string[] },
  io: CliIO,
): Promise<number> {
  const dir = resolve(io.cwd, args.results ?? 'results');
  const label = relativePath(dir, io.cwd);
  const out = resolve(io.cwd, args.out ?? join(dir, VIEW_DIR));
  checkOut(out, dir);
  clearDebris(dir, io);
  const site = await buildSite({
    resultsDir: dir,
    label,
    root: io.cwd,
    study: STUDY,
    ...(args.fixture ? { fixtures: args.fixture } : {}),
    ...(args.condition ? { conditions: args.condition } : {}),
  });
  const name = basename(out);
  writeFolders(dirname(out), new Map([...site.files].map(([file, text]) => [`${name}/${file}`, text])));
  io.stdout(notices.viewWritten(relativePath(out, io.cwd), site.pages, site.conditions, site.leftOut));
  return 0;
}
