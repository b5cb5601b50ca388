// The controls: prune-all prunes everything; id-only and position-only, trained on one corpus and run on another,
// prune with no false prune where the corpus leaks through their feature and cannot beat the base rate where it
// does not. Their tables are frozen (hash-checked) and trained by npm run controls:train on another seed than the study's.
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removableAlone } from '../../src/audit/labels.js';
import { trainRateTable } from '../../src/audit/train-controls.js';
import { PrunelabError } from '../../src/errors.js';
import { buildView, type PolicyView } from '../../src/fixture/view.js';
import { Fixture, type Oracle } from '../../src/fixture/schema.js';
import { obligationsAt } from '../../src/oracle/obligations.js';
import { idKey, idOnly, ID_ONLY_THRESHOLD } from '../../src/policy/controls/id-only.js';
import { positionKey, positionOnly } from '../../src/policy/controls/position-only.js';
import { pruneAll } from '../../src/policy/controls/prune-all.js';
import { rateControl } from '../../src/policy/controls/rate-control.js';
import { RateTable, rateTableText, readRateTable } from '../../src/policy/controls/rate-table.js';
import { controlTableFile, readControlTable } from '../../src/policy/controls/tables.js';
import { getCondition } from '../../src/policy/registry.js';
import type { Condition } from '../../src/policy/types.js';
import { readFixtureManifestIfValid } from '../../src/study/manifest.js';
import { cli } from '../support/cli.js';
import { syntheticCorpus, type Leak } from '../support/synthetic.js';
import { fixtureObject, makeView } from './build-view.js';

const chars = (t: string) => t.length;
type Corpus = { fixture: Fixture; oracle: Oracle }[];

function train(corpus: Corpus, keyOf: (v: PolicyView, i: number) => string, control: string) {
  const table = trainRateTable(
    corpus,
    keyOf,
    { control, key: control, generator: { name: 'synthetic', version: '0' }, seed: 1 },
    chars,
  );
  return RateTable.parse(JSON.parse(rateTableText(table)));
}

/** Prunes, false prunes (a necessary item pruned) and the share of removable rows of a condition over a corpus. */
function score(condition: Condition, corpus: Corpus) {
  let pruned = 0;
  let falsePrunes = 0;
  let rows = 0;
  let removable = 0;
  for (const { fixture, oracle } of corpus) {
    for (const point of oracle.points) {
      const labels = removableAlone(point);
      const view = buildView(fixture, point.prunePoint, chars);
      for (const e of condition.decide(view)) {
        rows += 1;
        if (labels.has(e.itemId)) removable += 1;
        if (e.verdict !== 'eligible') continue;
        pruned += 1;
        if (!labels.has(e.itemId)) falsePrunes += 1;
      }
    }
  }
  return {
    pruned,
    falsePrunes,
    rows,
    baseRate: removable / rows,
    precision: pruned === 0 ? null : (pruned - falsePrunes) / pruned,
  };
}

const corpus = (leak: Leak, seed: string, removableShare = 0.7, fixtures = 30) =>
  syntheticCorpus({ leak, fixtures, items: 30, seed, removableShare });

/** The most a precision over `n` prunes drawn at the base rate reaches by chance: three standard errors above it. */
const withinNoise = (base: number, n: number) => base + 3 * Math.sqrt((base * (1 - base)) / n);

describe('prune-all', () => {
  it('makes every item eligible, pinned, protected or named by an obligation alike, on no rung', () => {
    const view = makeView({
      items: [
        { id: 'u1', turn: 0, kind: 'constraint', content: 'never touch prod', flags: { soleConstraintRecord: true } },
        { id: 'n1', turn: 1, content: 'x' },
      ],
      visible: { pinned: ['u1'] },
    });
    const verdicts = pruneAll().decide(view);
    expect(verdicts.map((v) => [v.itemId, v.verdict, v.rung])).toEqual([
      ['u1', 'eligible', null],
      ['n1', 'eligible', null],
    ]);
    expect(getCondition('prune-all')?.layer).toBe('control');
  });
});

describe('id-only', () => {
  it('on a corpus whose ids leak the label, prunes removable items with no false prune', () => {
    const control = idOnly(train(corpus('id', 'train-a'), idKey, 'id-only'));
    const s = score(control, corpus('id', 'test-b'));
    expect(s.falsePrunes).toBe(0);
    expect(s.pruned).toBeGreaterThan(0.9 * s.baseRate * s.rows);
  });

  it('on a corpus whose labels do not depend on ids, cannot beat the base rate', () => {
    const table = train(corpus('none', 'train-a', 0.97), idKey, 'id-only');
    const strict = score(idOnly(table), corpus('none', 'test-b', 0.97));
    if (strict.precision !== null)
      expect(strict.precision).toBeLessThanOrEqual(withinNoise(strict.baseRate, strict.pruned));
    // Even with a bar it can reach (any key at least as removable as average), its precision is the base rate's.
    const loose = score(
      rateControl({ name: 'id-only', description: 'test', table, threshold: 0.5, keyOf: idKey }),
      corpus('none', 'test-b', 0.97),
    );
    expect(loose.pruned).toBeGreaterThan(0);
    expect(Math.abs(loose.precision! - loose.baseRate)).toBeLessThan(0.02);
  });
});

describe('position-only', () => {
  it('on a corpus whose older half is removable, prunes old items with no false prune', () => {
    const control = positionOnly(train(corpus('position', 'train-a', 0.5, 80), positionKey, 'position-only'));
    const s = score(control, corpus('position', 'test-b', 0.5, 80));
    expect(s.falsePrunes).toBe(0);
    expect(s.pruned).toBeGreaterThan(0.8 * s.baseRate * s.rows);
  });

  it('on a corpus whose labels do not depend on position, cannot beat the base rate', () => {
    const table = train(corpus('none', 'train-a', 0.97), positionKey, 'position-only');
    const strict = score(positionOnly(table), corpus('none', 'test-b', 0.97));
    if (strict.precision !== null)
      expect(strict.precision).toBeLessThanOrEqual(withinNoise(strict.baseRate, strict.pruned));
    const loose = score(
      rateControl({ name: 'position-only', description: 'test', table, threshold: 0.5, keyOf: positionKey }),
      corpus('none', 'test-b', 0.97),
    );
    expect(loose.pruned).toBeGreaterThan(0);
    expect(Math.abs(loose.precision! - loose.baseRate)).toBeLessThan(0.03);
  });
});

describe('the frozen tables', () => {
  it('are committed, hash-checked, and trained on another seed than the study corpus', () => {
    const studySeed = readFixtureManifestIfValid('fixtures/MANIFEST.json')?.generator?.seed;
    for (const control of ['id-only', 'position-only']) {
      const table = readControlTable(control);
      expect(table.control).toBe(control);
      expect(table.training.seed).not.toBe(studySeed);
      expect(getCondition(control)?.parameters).toMatchObject({
        threshold: ID_ONLY_THRESHOLD,
        trainingSeed: table.training.seed,
        table: table.sha256.slice(0, 12),
      });
    }
  });

  it('refuse a table edited by hand', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prunelab-table-'));
    const file = join(dir, 't.json');
    const edited = JSON.parse(readFileSync(controlTableFile('id-only'), 'utf8')) as { training: { rows: number } };
    edited.training.rows += 1;
    writeFileSync(file, JSON.stringify(edited));
    expect(() => readRateTable(file, 't.json')).toThrow(PrunelabError);
    expect(() => readRateTable(file, 't.json')).toThrow(/PL_CONTROL_TABLE|hashes to/);
  });

  it('controls:train refuses the study seed and writes the same tables twice for one seed', async () => {
    const refused = await cli(
      ['controls-train', '--seed', '20261202', '--count', '2'],
      mkdtempSync(join(tmpdir(), 'prunelab-train-')),
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('[PL_USAGE_TRAIN_SEED]');
    const [a, b] = [mkdtempSync(join(tmpdir(), 'prunelab-train-')), mkdtempSync(join(tmpdir(), 'prunelab-train-'))];
    for (const cwd of [a, b]) expect((await cli(['controls-train', '--seed', '5', '--count', '2'], cwd)).code).toBe(0);
    for (const control of ['id-only', 'position-only']) {
      const text = readFileSync(join(a, controlTableFile(control)), 'utf8');
      expect(text).toBe(readFileSync(join(b, controlTableFile(control)), 'utf8'));
      const table = readRateTable(join(a, controlTableFile(control)), control);
      expect(table.training).toMatchObject({ seed: 5, count: 2 });
      expect(table.training.rows).toBeGreaterThan(0);
    }
  }, 60_000);
});

describe('the controls act on their feature alone, right or wrong', () => {
  // A hand-set table: one key the training corpus found always removable, one it found mostly needed. The control
  // prunes every item under the first key, even the one a downstream obligation needs, and keeps the others.
  const table = (control: string, always: string, rarely: string) =>
    RateTable.parse(
      JSON.parse(
        rateTableText({
          control,
          key: control,
          training: { generator: { name: 'hand', version: '0' }, seed: 7, count: 1, rows: 1000, removable: 500 },
          smoothing: 1,
          entries: { [always]: { rows: 400, removable: 400 }, [rarely]: { rows: 400, removable: 40 } },
        }),
      ),
    );
  const items = [
    { id: 'x1', turn: 0, kind: 'constraint', content: 'deploy only to eu-west-1' },
    { id: 'note2', turn: 9, kind: 'reasoning', origin: 'model', content: 'checked the logs' },
    { id: 'step3', turn: 10, kind: 'reasoning', origin: 'model', content: 'next: run the tests' },
  ];
  const spec = {
    items,
    turn: 10,
    downstream: [
      {
        id: 'region',
        description: 'the deploy region',
        neededAtTurn: 12,
        needs: { strings: ['eu-west-1'] },
        probe: { question: 'which region?', expectedAnswer: 'eu-west-1' },
      },
    ],
  };
  const view = makeView(spec);
  const verdicts = (c: Condition) => Object.fromEntries(c.decide(view).map((e) => [e.itemId, e.verdict]));
  const lost = () => {
    const f = Fixture.parse(fixtureObject(spec));
    return obligationsAt({
      fixture: f,
      point: f.prunePoints[0]!,
      view,
      removals: [{ itemId: 'x1', leftBehind: '' }],
    })[0]!;
  };

  it('id-only prunes the needed item its id key calls removable, and keeps items under other keys or unseen ones', () => {
    expect(idKey(view, 0)).toBe('x');
    expect(verdicts(idOnly(table('id-only', 'x', 'note')))).toEqual({ x1: 'eligible', note2: 'keep', step3: 'keep' });
    expect(lost()).toMatchObject({ preserved: false, missing: ['eu-west-1'] });
  });

  it('position-only prunes the needed item in the cell it calls removable, and keeps the other cells', () => {
    expect([0, 1, 2].map((i) => positionKey(view, i))).toEqual(['pos0|age8', 'pos5|age1', 'pos9|age0']);
    expect(verdicts(positionOnly(table('position-only', 'pos0|age8', 'pos9|age0')))).toEqual({
      x1: 'eligible',
      note2: 'keep',
      step3: 'keep',
    });
    expect(lost()).toMatchObject({ preserved: false });
  });

  it('with the feature pointing the other way, neither control prunes the needed item', () => {
    expect(verdicts(idOnly(table('id-only', 'note', 'x')))).toEqual({ x1: 'keep', note2: 'eligible', step3: 'keep' });
    expect(verdicts(positionOnly(table('position-only', 'pos5|age1', 'pos0|age8')))).toEqual({
      x1: 'keep',
      note2: 'eligible',
      step3: 'keep',
    });
  });
});
