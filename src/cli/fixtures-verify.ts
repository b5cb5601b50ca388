import { FIXTURE_MANIFEST_FILE } from '../study/manifest.js';
import { describeCommand } from './command.js';

export const VERIFY_DEFAULTS = { manifest: FIXTURE_MANIFEST_FILE } as const;
export const FLAGS = {
  manifest: { type: 'string', valueHint: 'FILE', default: VERIFY_DEFAULTS.manifest, description: 'the manifest' },
} as const;

export const fixturesVerifyCommand = describeCommand({
  meta: {
    name: 'fixtures-verify',
    script: 'fixtures:verify',
    description:
      'manifest hashes, schema, the counterfactual rule on every oracle, and a regeneration of the generated corpus from its seed',
    about: `Checks every fixture and oracle under the manifest's folder against the manifest's sha256s (a manifest names
files from its folder's parent: fixtures/MANIFEST.json from the package root), validates each one, checks
each oracle against its obligations (an item labelled necessary must lose an obligation when removed alone,
unless something declared protects it; an item labelled removable, partial or a redundant copy must lose none),
and regenerates the generated corpus from the manifest's seed and count to compare with the files. Exit 2 on any
problem, each named with its file and both hashes.`,
  },
  args: FLAGS,
});
