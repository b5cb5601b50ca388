import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Manifest } from '../../src/artifacts/schema.js';
import { sha256 } from '../../src/fixture/canonical.js';
import { wordingPin } from '../../src/report/criteria.js';
import { CRITERIA, STUDY } from '../../experiments/ch10-ablation/study.js';
import { loadAnalysisPlan, planOf } from '../../src/report/plan.js';
import { loadPreregistration, type Preregistration } from '../../src/study/preregistration.js';
import { PREREGISTRATION_FILE } from '../support/study.js';
import { cli } from '../support/cli.js';
import { copyResults, RESULTS, thrown } from './support.js';

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const real = loadPreregistration('.', PREREGISTRATION_FILE);
const manifest = Manifest.parse(JSON.parse(readFileSync(join(RESULTS, 'manifest.json'), 'utf8')));
const exploratory: Manifest = {
  ...manifest,
  study: { exploratory: true, preregistration: null, fixtureManifest: null },
};

/** A package root holding only a preregistration with the given text. */
function rootWith(text: string): string {
  const root = mkdtempSync(join(tmpdir(), 'prunelab-plan-'));
  temps.push(root);
  mkdirSync(dirname(join(root, PREREGISTRATION_FILE)), { recursive: true });
  writeFileSync(join(root, PREREGISTRATION_FILE), text);
  return root;
}

const edited = (edit: (p: Preregistration) => Preregistration) =>
  planOf(edit(structuredClone(real.preregistration)), PREREGISTRATION_FILE, 'x', STUDY);

describe('the analysis plan is the preregistration', () => {
  it('loads the file the results name, with its hash, and every criterion has a machine form pinned to its wording', () => {
    const plan = loadAnalysisPlan('.', manifest, RESULTS, STUDY);
    expect(plan.file).toBe(manifest.study.preregistration!.file);
    expect(plan.sha256).toBe(sha256(real.text));
    expect(plan.criteria.map((c) => c.id)).toEqual(real.preregistration.acceptance.map((a) => a.id));
    for (const a of real.preregistration.acceptance)
      expect(CRITERIA.find((c) => c.id === a.id)!.wording).toBe(wordingPin(a.criterion));
  });

  it('refuses a preregistration that is not the one the results were run against', () => {
    const e = thrown(() =>
      loadAnalysisPlan(
        '.',
        {
          ...manifest,
          study: { ...manifest.study, preregistration: { file: PREREGISTRATION_FILE, sha256: 'ab'.repeat(32) } },
        },
        'res',
        STUDY,
      ),
    );
    expect(e.code).toBe('PL_REPORT_PREREG_CHANGED');
    expect(e.message).toContain(PREREGISTRATION_FILE);
    expect(e.message).toContain('ab'.repeat(32));
  });

  it('names the missing file', () => {
    const e = thrown(() =>
      loadAnalysisPlan(
        rootWith('{}'),
        {
          ...manifest,
          study: { ...manifest.study, preregistration: { file: 'nowhere/prereg.json', sha256: 'ab'.repeat(32) } },
        },
        'res',
        STUDY,
      ),
    );
    expect(e.code).toBe('PL_REPORT_PREREG_MISSING');
    expect(e.message).toContain('nowhere/prereg.json');
  });

  it('validates through the zod schema and names the file and field of an invalid one', () => {
    const broken = JSON.parse(real.text) as { analysis: { bootstrap: { iterations: unknown } } };
    broken.analysis.bootstrap.iterations = 'many';
    const e = thrown(() => loadAnalysisPlan(rootWith(JSON.stringify(broken)), exploratory, 'res', STUDY));
    expect(e.code).toBe('PL_PREREG_INVALID');
    expect(e.message).toContain(PREREGISTRATION_FILE);
    expect(e.message).toContain('analysis.bootstrap.iterations');
    expect(thrown(() => loadAnalysisPlan(rootWith('{ not json'), exploratory, 'res', STUDY)).message).toContain(
      'not valid JSON',
    );
  });

  it("refuses what the report cannot carry out: an edited criterion, an unknown point outcome, a criterion's comparison outside the family, other interval levels", () => {
    const wording = thrown(() =>
      edited((p) => ({
        ...p,
        acceptance: p.acceptance.map((a) => (a.id === 'A3' ? { ...a, criterion: `${a.criterion} Also rung 3.` } : a)),
      })),
    );
    expect(wording.code).toBe('PL_REPORT_PREREG_UNSUPPORTED');
    expect(wording.message).toContain('acceptance.2.criterion');
    const outcome = thrown(() =>
      edited((p) => ({ ...p, pointOutcomes: [...p.pointOutcomes, { id: 'anyDefer', definition: 'deferred once' }] })),
    );
    expect(outcome.message).toContain('"anyDefer"');
    const family = thrown(() =>
      edited((p) => ({
        ...p,
        analysis: {
          ...p.analysis,
          multiplicity: {
            ...p.analysis.multiplicity,
            family: p.analysis.multiplicity.family.filter((id) => id !== 'C7'),
          },
        },
      })),
    );
    expect(family.message).toMatch(/C7.*A7/);
    const level = thrown(() =>
      edited((p) => ({ ...p, analysis: { ...p.analysis, intervals: { ...p.analysis.intervals, level: 0.9 } } })),
    );
    expect(level.message).toContain('analysis.intervals.level');
    const missing = thrown(() => edited((p) => ({ ...p, acceptance: p.acceptance.filter((a) => a.id !== 'A6') })));
    expect(missing.message).toContain('A6');
  });

  it('npm run report refuses results run against another preregistration, and writes nothing', async () => {
    const dir = copyResults((m) => ({
      ...m,
      study: { ...m.study, preregistration: { file: PREREGISTRATION_FILE, sha256: 'cd'.repeat(32) } },
    }));
    temps.push(dir);
    const r = await cli(['report', '--results', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[PL_REPORT_PREREG_CHANGED]');
    expect(readdirSync(dir)).not.toContain('tables');
  });
});
