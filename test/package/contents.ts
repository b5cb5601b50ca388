// What the package must hold and never hold, by name: checked on the real tarball's file list (install.test.ts, in
// npm run test:package) and on npm's reading of `files` over the built layout (files.test.ts, in npm test).

/** The bin, the library and its declarations, a table a module reads beside itself, a canonical fixture. */
export const HELD = [
  'dist/src/cli/bin.js',
  'dist/src/index.js',
  'dist/src/index.d.ts',
  'dist/src/policy/public.d.ts',
  'dist/src/providers/pricing.json',
  'fixtures/canonical/config-reread-drift.json',
];

/** Trees of the repository that are never the package's. */
export const NEVER_UNDER = ['test/', 'results/', 'notebooks/', 'fixtures/generated/', 'data/', 'examples/', 'scripts/'];
