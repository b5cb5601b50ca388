// What `prunelab fixtures-generate` does, loaded only when that command runs (its definition is ../fixtures-generate.ts).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { tokenCounter } from '../../accounting/tokens.js';
import { swapIn, writeAtomic } from '../../engine/write.js';
import { failure, input, usage } from '../../errors.js';
import { relativePath } from '../../fixture/canonical.js';
import { forEachGenerated, GENERATOR, gzipText } from '../../corpus/corpus.js';
import {
  buildFixtureManifest,
  FIXTURE_MANIFEST_FILE,
  MANIFEST_NAME,
  manifestScope,
  renderFixtureManifest,
} from '../../study/manifest.js';
import { corpusReadme, statsOf, type FixtureStats } from '../../corpus/readme.js';
import { fractionFlag, integerFlag } from '../args.js';
import type { Values } from '../command.js';
import { startProgress } from '../progress.js';
import { clearDebris, type CliIO } from '../io.js';
import { notices } from '../../messages.js';
import type { CommandContext } from '../command.js';
import { GENERATE_DEFAULTS, MAX_COUNT, README_MARKER, type FLAGS } from '../fixtures-generate.js';

export const run = ({ args, io }: CommandContext<typeof FLAGS>) => fixturesGenerate(args, io);

async function fixturesGenerate(flags: Values<typeof FLAGS>, io: CliIO): Promise<number> {
  const seed = integerFlag('--seed', flags.seed, GENERATE_DEFAULTS.seed);
  const count = integerFlag('--count', flags.count, GENERATE_DEFAULTS.count);
  const share = fractionFlag('--removable-share', flags['removable-share'], GENERATE_DEFAULTS.removableShare);
  if (count < 1 || count > MAX_COUNT)
    throw usage('PL_USAGE_BAD_VALUE', '--count', String(count), `an integer from 1 to ${MAX_COUNT}`);
  const outDir = resolve(io.cwd, flags.out ?? GENERATE_DEFAULTS.out);
  const shown = relativePath(outDir, io.cwd);
  if (existsSync(outDir)) {
    if (!statSync(outDir).isDirectory()) throw usage('PL_GEN_OUT_IS_FILE', shown);
    if (!isGeneratedCorpus(outDir)) throw input('PL_GEN_OUT_NOT_CORPUS', shown);
  }
  const parent = dirname(outDir);
  clearDebris(parent, io);
  const staging = join(parent, `.staging-${basename(outDir)}-${process.pid}`);
  const tokens = tokenCounter();
  const stats: FixtureStats[] = [];
  const bytes = { fixtures: 0, oracles: 0 };
  const progress = startProgress(io, {
    label: 'fixtures-generate',
    unit: 'fixtures',
    total: count,
    conditions: 0,
    quiet: false,
  });
  try {
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(join(staging, 'oracles'), { recursive: true });
    forEachGenerated(seed, count, share, (file) => {
      progress.update(stats.length + 1);
      const gz = gzipText(file.fixtureText);
      writeFileSync(join(staging, file.fixtureName), gz);
      writeFileSync(join(staging, file.oracleName), file.oracleText);
      bytes.fixtures += gz.length;
      bytes.oracles += Buffer.byteLength(file.oracleText);
      stats.push(statsOf(file, tokens));
    });
    writeFileSync(
      join(staging, 'README.md'),
      corpusReadme({ seed, count, share, out: shown }, GENERATOR.version, stats, bytes),
    );
    progress.stop();
    swapIn(staging, outDir);
  } catch (err) {
    progress.stop();
    rmSync(staging, { recursive: true, force: true });
    if (err instanceof Error && 'code' in err && typeof (err as NodeJS.ErrnoException).code === 'string')
      throw failure('PL_IO', shown, err.message);
    throw err;
  }
  const manifestPath = manifestPathFor(outDir, io.cwd);
  const scope = manifestScope(manifestPath);
  const manifest = buildFixtureManifest(scope.root, [scope.dir], {
    ...GENERATOR,
    seed,
    count,
    out: relativePath(outDir, scope.root),
    removableShare: share,
  });
  writeAtomic(manifestPath, renderFixtureManifest(manifest));
  io.stdout(
    notices.fixturesGenerated(
      count,
      shown,
      bytes.fixtures,
      bytes.oracles,
      relativePath(manifestPath, io.cwd),
      manifest.fixtures.length,
      manifest.oracles.length,
    ),
  );
  return 0;
}

/**
 * The study's corpus (the default --out below the package root) is recorded in the study manifest beside it, with
 * the canonical fixtures; any other corpus gets its own manifest inside --out, so nothing next to it is hashed.
 */
function manifestPathFor(outDir: string, root: string): string {
  return outDir === resolve(root, GENERATE_DEFAULTS.out)
    ? resolve(root, FIXTURE_MANIFEST_FILE)
    : join(outDir, MANIFEST_NAME);
}

/** An empty folder, or one whose README.md the generator wrote. */
function isGeneratedCorpus(dir: string): boolean {
  if (readdirSync(dir).length === 0) return true;
  const readme = join(dir, 'README.md');
  return existsSync(readme) && readFileSync(readme, 'utf8').startsWith(README_MARKER);
}
