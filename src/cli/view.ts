// `prunelab view`: the Context Viewer, a static site drawn from a results folder (checked against its manifest
// first), written as one swap so a failure leaves the previous site, or none, whole.
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { readManifest } from '../engine/write.js';
import { usage } from '../errors.js';
import { relativePath } from '../fixture/canonical.js';
import { notices } from '../messages.js';
import { writeFolders } from '../report/report.js';
import { buildSite } from '../view/build.js';
import { defineCommand } from './command.js';
import { clearDebris, type CliIO } from './io.js';
import { STUDY } from './study.js';

/** The default site folder inside the results folder (git-ignored under results/). */
export const VIEW_DIR = 'view';

export const viewCommand = defineCommand({
  meta: {
    name: 'view',
    script: 'view',
    description: 'the Context Viewer: an HTML site of every decision, item by item, from a results folder',
    about:
      "Writes a static site that opens from disk (no server, no network): an index of conditions with the headline\ntables and charts, per fixture and prune point the context as a column of items (retained, removed, residue,\nprotected, deferred, abstained), a toggle that reveals the hidden oracle, a side-by-side of two conditions, and\nthe chapter's three-snapshot scene. Every file read is first checked against the results' manifest.json.",
  },
  args: {
    results: {
      type: 'string',
      valueHint: 'DIR',
      default: 'results',
      description: 'the results folder to read',
    },
    out: {
      type: 'string',
      valueHint: 'DIR',
      description: 'where to write the site (default: view/ inside the results folder); replaced whole',
    },
    fixture: {
      type: 'string',
      valueHint: 'GLOB',
      multiple: true,
      description:
        "fixture ids to make pages for, as comma-separated globs (* and ?) or one per flag; default: every fixture whose logs are plain text (the generated corpus's compressed logs are left out unless named)",
    },
    condition: {
      type: 'string',
      valueHint: 'NAME',
      multiple: true,
      description: 'conditions to show, comma-separated or one per flag; default: every condition of the results',
    },
  },
  run: ({ args, io }) => view(args, io),
});

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
