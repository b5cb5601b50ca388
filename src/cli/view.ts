import { describeCommand } from './command.js';

/** The default site folder inside the results folder (git-ignored under results/). */
export const VIEW_DIR = 'view';

export const viewCommand = describeCommand({
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
});
