// What `prunelab controls-train` does, loaded only when that command runs (its definition is ../controls-train.ts).
import { DEFAULT_REMOVABLE_SHARE } from '../../corpus/compose.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { tokenCounter } from '../../accounting/tokens.js';
import { trainRateTable } from '../../audit/train-controls.js';
import { forEachGenerated, GENERATOR, gzipText } from '../../corpus/corpus.js';
import { writeAtomic } from '../../engine/write.js';
import { usage } from '../../errors.js';
import { loadFixtures } from '../../load/fixtures.js';
import { notices } from '../../messages.js';
import { ID_ONLY, idKey } from '../../policy/controls/id-only.js';
import { POSITION_ONLY, positionKey } from '../../policy/controls/position-only.js';
import { rateTableText } from '../../policy/controls/rate-table.js';
import { controlTableFile } from '../../policy/controls/tables.js';
import { FIXTURE_MANIFEST_FILE, readFixtureManifestIfValid } from '../../study/manifest.js';
import { integerFlag } from '../args.js';
import type { Values } from '../command.js';
import { GENERATE_DEFAULTS, MAX_COUNT } from '../fixtures-generate.js';
import type { CliIO } from '../io.js';
import type { CommandContext } from '../command.js';
import { TRAIN_DEFAULTS, type FLAGS } from '../controls-train.js';

export const run = ({ args, io }: CommandContext<typeof FLAGS>) => controlsTrain(args, io);

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
