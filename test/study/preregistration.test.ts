import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/fixture/canonical.js';
import { allConditions } from '../../src/policy/registry.js';
import { fixtureFiles } from '../../src/fixture/load.js';
import { readFixtureFile } from '../../src/load/fixtures.js';
import { checkLoaded, loadFrozenStudy, unnamedConditions } from '../../src/study/check.js';
import { freezePreregistration } from '../../src/study/freeze.js';
import { loadPreregistration, parsePreregistration, renderPreregistration } from '../../src/study/preregistration.js';
import { PREREGISTRATION_FILE, PREREGISTRATION_PROSE_FILE } from '../support/study.js';
import { renderPreregistrationMarkdown } from '../../src/study/prose.js';
import { STUDY } from '../../src/cli/study.js';
import { studyRoot } from '../support/study.js';

const { preregistration: p, text } = loadPreregistration(process.cwd(), PREREGISTRATION_FILE);

/** The sweeps the helpers agreed on; issue 4 registers them as conditions. */
const AGREED_SWEEPS = [
  ...[0.05, 0.1, 0.3, 0.4, 0.5].map((t) => `predictive-semantic@${t}`),
  ...[1, 2, 5, 20, 40].map((m) => `observation-masking@${m}`),
];

describe('the preregistration (experiments/ch10-ablation)', () => {
  it('is valid, written in its canonical rendering, and its prose is generated from it (npm run generate)', () => {
    expect(text).toBe(renderPreregistration(p));
    expect(readFileSync(PREREGISTRATION_PROSE_FILE, 'utf8')).toBe(renderPreregistrationMarkdown(p));
  });

  it('pins the fixture manifest on disk, and that manifest lists exactly the fixtures and oracles on disk', () => {
    expect(p.fixtureManifest.sha256).toBe(sha256(readFileSync(p.fixtureManifest.file)));
    const frozen = loadFrozenStudy(process.cwd(), STUDY.name);
    expect(frozen.preregistration).toEqual({ file: PREREGISTRATION_FILE, sha256: sha256(text) });
    // What a run reads of the fixtures folder, checked as the run checks it: nothing changed, missing or extra.
    expect(() =>
      checkLoaded(
        fixtureFiles('fixtures').map((f) => readFixtureFile(f, process.cwd())),
        frozen,
        resolve('fixtures'),
        process.cwd(),
      ),
    ).not.toThrow();
  });

  it('preregisters its conditions with their exact layer, rung, version and parameters; the rest run as exploratory', () => {
    const byName = new Map(p.conditions.map((c) => [c.name, c]));
    // A registered condition the preregistration does not name runs beside the study, stamped exploratory alone.
    const unnamed = new Set(
      unnamedConditions(p, {
        timing: p.run.timing,
        placeholders: p.run.placeholders,
        seed: p.run.seed,
        conditions: allConditions(),
        own: [],
      }),
    );
    for (const c of allConditions().filter((x) => !unnamed.has(x.name))) {
      const pre = byName.get(c.name);
      expect(pre, c.name).toBeDefined();
      expect(
        {
          layer: pre!.layer,
          rung: pre!.rung,
          version: pre!.version,
          upperRisk: pre!.upperRisk,
          parameters: pre!.parameters,
        },
        c.name,
      ).toEqual({ layer: c.layer, rung: c.rung, version: c.version, upperRisk: c.upperRisk, parameters: c.parameters });
    }
    for (const name of unnamed) expect(byName.has(name), name).toBe(false);
    // Every preregistered condition is registered: the study can always be rerun.
    for (const c of p.conditions)
      expect(
        allConditions().some((x) => x.name === c.name),
        c.name,
      ).toBe(true);
    expect(p.conditions.filter((c) => c.sweep === null).map((c) => c.name)).toEqual(
      allConditions()
        .map((c) => c.name)
        .filter((n) => !AGREED_SWEEPS.includes(n) && !unnamed.has(n)),
    );
    expect(p.conditions.filter((c) => c.sweep !== null).map((c) => c.name)).toEqual(AGREED_SWEEPS);
    for (const c of p.conditions.filter((x) => x.sweep !== null)) {
      const baseCondition = byName.get(c.sweep!.base)!;
      expect(c.parameters, c.name).toEqual({ ...baseCondition.parameters, [c.sweep!.parameter]: c.sweep!.value });
      expect(c.name).toBe(`${c.sweep!.base}@${c.sweep!.value}`);
    }
  });

  it('names its comparisons, and Holm corrects across exactly those', () => {
    expect(p.analysis.multiplicity.family).toEqual(p.analysis.comparisons.map((c) => c.id));
    expect(p.analysis.bootstrap).toMatchObject({ resample: 'fixture', seed: p.run.seed });
    expect(p.analysis.bootstrap.iterations).toBeGreaterThanOrEqual(1000);
  });

  it('was written before results: it names no result file and no measured value', () => {
    expect(text).not.toMatch(/results\//);
    // The only ratio it may write is the undefined one, 0/0, in the definition of a measure.
    expect(text.replace(/\(0\/0\)/g, '')).not.toMatch(/\d+\/\d+/);
  });

  it('rejects a reference to an undeclared name or a duplicate, naming the field', () => {
    const broken = {
      ...p,
      analysis: { ...p.analysis, comparisons: [{ ...p.analysis.comparisons[0]!, reference: 'ladder-9' }] },
    };
    expect(() => parsePreregistration(JSON.stringify(broken), 'x.json')).toThrow(
      /comparison C1, field "reference": names condition "ladder-9"/,
    );
    const twice = { ...p, conditions: [...p.conditions, p.conditions[0]!] };
    expect(() => parsePreregistration(JSON.stringify(twice), 'x.json')).toThrow(/"raw" is declared twice/);
    expect(() => parsePreregistration(JSON.stringify({ ...p, run: { ...p.run, seed: 'x' } }), 'x.json')).toThrow(
      /x\.json: field "run\.seed"/,
    );
  });
});

describe('the superseded versions kept beside it', () => {
  it('each still validates, names its own version, and matches its whole-file pin', () => {
    const folder = resolve(PREREGISTRATION_FILE, '..');
    const kept = readdirSync(folder, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(join(folder, e.name, 'preregistration.json')))
      .map((e) => e.name)
      // By version number: v10 comes after v9, not after v1.
      .sort((a, b) => Number(a.replace(/\D/g, '')) - Number(b.replace(/\D/g, '')) || a.localeCompare(b));
    expect(kept).toEqual(['pilot-v1', ...Array.from({ length: p.preregistrationVersion - 2 }, (_, i) => `v${i + 2}`)]);
    for (const name of kept) {
      const file = join(folder, name, 'preregistration.json');
      const text = readFileSync(file, 'utf8');
      const version = parsePreregistration(text, file).preregistrationVersion;
      expect(version, name).toBe(name === 'pilot-v1' ? 1 : Number(name.slice(1)));
      const pin = readFileSync(`${file}.sha256`, 'utf8');
      expect(pin, name).toBe(`${sha256(text)}  preregistration.json\n`);
    }
  });
});

describe('npm run prereg:freeze', () => {
  it('stamps the current manifest hash and re-renders the prose, touching nothing else', () => {
    const s = studyRoot();
    const before = loadPreregistration(s.root, PREREGISTRATION_FILE).preregistration;
    const manifest = readFileSync(s.path('fixtures/MANIFEST.json'), 'utf8');
    expect(before.fixtureManifest.sha256).toBe(sha256(manifest));
    const changed = manifest.replace('"seed": 1', '"seed": 2');
    writeFileSync(s.path('fixtures/MANIFEST.json'), changed);
    const r = freezePreregistration(s.root, STUDY.name);
    expect(r).toMatchObject({ file: PREREGISTRATION_FILE, previous: sha256(manifest), pinned: sha256(changed) });
    // The whole file is pinned again beside it, in the same step.
    expect(readFileSync(s.path(r.pin), 'utf8')).toBe(
      `${sha256(readFileSync(s.path(PREREGISTRATION_FILE)))}  preregistration.json\n`,
    );
    const after = loadPreregistration(s.root, PREREGISTRATION_FILE).preregistration;
    expect({ ...after, fixtureManifest: null }).toEqual({ ...before, fixtureManifest: null });
    expect(readFileSync(s.path(PREREGISTRATION_PROSE_FILE), 'utf8')).toContain(sha256(changed));
  });
});
