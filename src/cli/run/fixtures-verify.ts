// What `prunelab fixtures-verify` does, loaded only when that command runs (its definition is ../fixtures-verify.ts).
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PrunelabError, input } from '../../errors.js';
import { byCodeUnit, relativePath, sha256 } from '../../fixture/canonical.js';
import { isFixtureName, readJsonBytes } from '../../fixture/load.js';
import { loadFixture } from '../../load/fixtures.js';
import { forEachGenerated } from '../../corpus/corpus.js';
import { DEFAULT_REMOVABLE_SHARE } from '../../corpus/compose.js';
import { counterfactualProblems, problemText } from '../../oracle/counterfactual.js';
import {
  diffEntries,
  inputFiles,
  manifestScope,
  readFixtureManifest,
  type Entry,
  type EntryDiff,
} from '../../study/manifest.js';
import { messages, notices } from '../../messages.js';
import type { Values } from '../command.js';
import type { CliIO } from '../io.js';
import type { CommandContext } from '../command.js';
import { VERIFY_DEFAULTS, type FLAGS } from '../fixtures-verify.js';

export const run = ({ args, io }: CommandContext<typeof FLAGS>) => fixturesVerify(args, io);

async function fixturesVerify(flags: Values<typeof FLAGS>, io: CliIO): Promise<number> {
  const manifestPath = resolve(io.cwd, flags.manifest ?? VERIFY_DEFAULTS.manifest);
  const shown = relativePath(manifestPath, io.cwd);
  const manifest = readFixtureManifest(manifestPath, io.cwd);
  // The manifest's paths (and its generator's out) start at its folder's parent, wherever the command is run from.
  const { dir, root } = manifestScope(manifestPath);
  const onDisk = inputFiles(dir, root);
  const byFile = (a: Entry, b: Entry) => byCodeUnit(a.file, b.file);
  const problems = diffEntries(
    [...manifest.fixtures, ...manifest.oracles].sort(byFile),
    [...onDisk.fixtures, ...onDisk.oracles].sort(byFile),
  ).map(problemOf);
  for (const f of onDisk.fixtures) {
    try {
      const loaded = loadFixture(f.path, root);
      if (loaded.oracle)
        problems.push(
          ...counterfactualProblems(loaded.fixture, loaded.oracle).map((p) =>
            problemText(loaded.oracleFile ?? loaded.file, p),
          ),
        );
    } catch (err) {
      if (!(err instanceof PrunelabError)) throw err;
      problems.push(err.message);
    }
  }
  let generated = 0;
  if (manifest.generator) {
    const out = resolve(root, manifest.generator.out);
    const expected = new Set<string>();
    // Files under the manifest's folder were read and hashed above; only a generator out outside it is read here.
    const hashed = new Map([...onDisk.fixtures, ...onDisk.oracles].map((f) => [f.path, f.sha256]));
    const compare = (path: string, text: string) => {
      const file = relativePath(path, root);
      expected.add(file);
      const want = sha256(text);
      let have = hashed.get(path);
      if (have === undefined) {
        if (!existsSync(path)) return problems.push(messages.PL_VERIFY_MISSING(file, want));
        try {
          have = sha256(readJsonBytes(path, file));
        } catch (err) {
          if (!(err instanceof PrunelabError)) throw err;
          return problems.push(err.message);
        }
      }
      if (have !== want) problems.push(messages.PL_VERIFY_GROUND_TRUTH(file, want, have));
      return 0;
    };
    forEachGenerated(
      manifest.generator.seed,
      manifest.generator.count,
      manifest.generator.removableShare ?? DEFAULT_REMOVABLE_SHARE,
      (g) => {
        compare(join(out, g.fixtureName), g.fixtureText);
        compare(join(out, g.oracleName), g.oracleText);
        generated += 1;
      },
    );
    const present = existsSync(out)
      ? [
          ...readdirSync(out)
            .filter(isFixtureName)
            .map((n) => join(out, n)),
          ...(existsSync(join(out, 'oracles'))
            ? readdirSync(join(out, 'oracles')).map((n) => join(out, 'oracles', n))
            : []),
        ]
      : [];
    for (const path of present.map((p) => relativePath(p, root)).sort(byCodeUnit)) {
      if (!expected.has(path)) problems.push(messages.PL_VERIFY_NOT_GENERATED(path));
    }
  }
  if (problems.length > 0) throw input('PL_VERIFY_PROBLEMS', shown, problems);
  io.stdout(
    notices.fixturesVerified(
      shown,
      manifest.fixtures.length,
      manifest.oracles.length,
      manifest.generator ? { count: generated, seed: manifest.generator.seed } : null,
    ),
  );
  return 0;
}

function problemOf(d: EntryDiff): string {
  switch (d.change) {
    case 'missing':
      return messages.PL_VERIFY_MISSING(d.file, d.expected);
    case 'changed':
      return messages.PL_VERIFY_CHANGED(d.file, d.expected, d.actual);
    case 'extra':
      return messages.PL_VERIFY_EXTRA(d.file, d.actual);
  }
}
