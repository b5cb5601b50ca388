// `prunelab controls-train` (npm run controls:train -- --seed N): generates a training corpus with the current
// generator and another seed than the study's, in a temporary folder, loads it as any corpus is loaded, fits the
// id-only and position-only tables on it and writes them to the study's controls/ folder (controls/tables.ts).
// The study's fixtures and oracles are never read.
import { DEFAULT_REMOVABLE_SHARE } from '../corpus/compose.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { tokenCounter } from '../accounting/tokens.js';
import { trainRateTable } from '../audit/train-controls.js';
import { forEachGenerated, GENERATOR, gzipText } from '../corpus/corpus.js';
import { writeAtomic } from '../engine/write.js';
import { usage } from '../errors.js';
import { loadFixtures } from '../load/fixtures.js';
import { notices } from '../messages.js';
import { ID_ONLY, idKey } from '../policy/controls/id-only.js';
import { POSITION_ONLY, positionKey } from '../policy/controls/position-only.js';
import { rateTableText } from '../policy/controls/rate-table.js';
import { controlTableFile } from '../policy/controls/tables.js';
import { FIXTURE_MANIFEST_FILE, readFixtureManifestIfValid } from '../study/manifest.js';
import { integerFlag } from './args.js';
import { defineCommand, type Values } from './command.js';
import { GENERATE_DEFAULTS, MAX_COUNT } from './fixtures-generate.js';
import type { CliIO } from './io.js';

export const TRAIN_DEFAULTS = { count: 400 } as const;
const FLAGS = {
  seed: { type: 'string', valueHint: 'N', required: true, description: "the training corpus's seed" },
  count: {
    type: 'string',
    valueHint: 'N',
    default: String(TRAIN_DEFAULTS.count),
    description: `how many fixtures, 1 to ${MAX_COUNT}`,
  },
} as const;

export const controlsTrainCommand = defineCommand({
  meta: {
    name: 'controls-train',
    script: 'controls:train',
    description: "refit the id-only and position-only controls' tables on a training corpus of another seed",
    about: `Generates a training corpus (the current generator, seed N, which must differ from the study corpus's) in a
temporary folder and fits the id-only and position-only controls' tables on it: ${controlTableFile(ID_ONLY)} and
${controlTableFile(POSITION_ONLY)}.`,
  },
  args: FLAGS,
  run: ({ args, io }) => controlsTrain(args, io),
});

const KEYS = [
  { control: ID_ONLY, key: 'id tokens', keyOf: idKey },
  { control: POSITION_ONLY, key: 'relative position decile and age bin', keyOf: positionKey },
] as const;

async function controlsTrain(flags: Values<typeof FLAGS>, io: CliIO): Promise<number> {
  const seed = integerFlag('--seed', flags.seed, 0);
  const count = integerFlag('--count', flags.count, TRAIN_DEFAULTS.count);
  if (count < 1 || count > MAX_COUNT)
    throw usage('PL_USAGE_BAD_VALUE', '--count', String(count), `an integer from 1 to ${MAX_COUNT}`);
  const studySeed =
    readFixtureManifestIfValid(resolve(io.cwd, FIXTURE_MANIFEST_FILE))?.generator?.seed ?? GENERATE_DEFAULTS.seed;
  if (seed === studySeed || seed === GENERATE_DEFAULTS.seed) throw usage('PL_USAGE_TRAIN_SEED', seed);
  const dir = mkdtempSync(join(tmpdir(), 'prunelab-training-'));
  try {
    mkdirSync(join(dir, 'oracles'));
    // Trained at the study corpus's removable share, so the tables see the base rate the controls are run at.
    const share =
      readFixtureManifestIfValid(resolve(io.cwd, FIXTURE_MANIFEST_FILE))?.generator?.removableShare ??
      DEFAULT_REMOVABLE_SHARE;
    forEachGenerated(seed, count, share, (g) => {
      writeFileSync(join(dir, g.fixtureName), gzipText(g.fixtureText));
      writeFileSync(join(dir, g.oracleName), g.oracleText);
    });
    const corpus = loadFixtures(dir, dir).flatMap((l) => (l.oracle ? [{ fixture: l.fixture, oracle: l.oracle }] : []));
    const tokens = tokenCounter();
    const written: string[] = [];
    for (const k of KEYS) {
      const table = trainRateTable(
        corpus,
        k.keyOf,
        { control: k.control, key: k.key, generator: GENERATOR, seed },
        tokens,
      );
      const file = controlTableFile(k.control);
      writeAtomic(resolve(io.cwd, file), rateTableText(table));
      written.push(file);
    }
    io.stdout(notices.controlsTrained(written, seed, corpus.length));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return 0;
}
