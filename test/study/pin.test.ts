// The whole preregistration is pinned by one sha256 in the file beside it: any edit after freezing is a departure
// (refused for results/, stamped exploratory elsewhere), and `npm run prereg:freeze` re-freezes in one step.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Manifest } from '../../src/artifacts/schema.js';
import { sha256 } from '../../src/fixture/canonical.js';
import { freezePreregistration } from '../../src/study/freeze.js';
import { parsePin, pinFileOf } from '../../src/study/preregistration.js';
import { PREREGISTRATION_FILE } from '../support/study.js';
import { cli } from '../support/cli.js';
import { STUDY } from '../../src/cli/study.js';
import { studyRoot, type StudyRoot } from '../support/study.js';

const PIN = pinFileOf(PREREGISTRATION_FILE);
const manifestOf = (dir: string) => Manifest.parse(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')));

function edit(s: StudyRoot, change: (text: string) => string): void {
  const path = s.path(PREREGISTRATION_FILE);
  const text = readFileSync(path, 'utf8');
  const next = change(text);
  expect(next).not.toBe(text);
  writeFileSync(path, next);
}

describe('the preregistration pin', () => {
  it("the committed pin is the committed preregistration's sha256, in sha256sum's format", () => {
    const pin = readFileSync(PIN, 'utf8');
    expect(pin).toBe(`${sha256(readFileSync(PREREGISTRATION_FILE))}  preregistration.json\n`);
    expect(parsePin(pin, PREREGISTRATION_FILE)).toBe(sha256(readFileSync(PREREGISTRATION_FILE)));
  });

  it("an edit to a hypothesis's text is a departure: refused for results/, stamped exploratory with --out", async () => {
    const s = studyRoot();
    edit(s, (t) =>
      t.replace('"claim": "Mechanical redundancy is safe', '"claim": "Mechanical redundancy is always safe'),
    );
    const refused = await cli(['experiment', '--condition', 'raw'], s.root);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('[PL_USAGE_EXPLORATORY_NEEDS_OUT]');
    expect(refused.stderr).toContain(`${PREREGISTRATION_FILE} was edited after it was frozen (${PIN} pins sha256`);
    expect(existsSync(s.path('results'))).toBe(false);
    const r = await cli(['experiment', '--condition', 'raw', '--out', 'out'], s.root);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'EXPLORATORY (experiments/ch10-ablation/preregistration.json was edited after it was frozen',
    );
    const m = manifestOf(s.path('out'));
    expect(m.study.exploratory).toBe(true);
    expect(m.study.preregistration).toEqual({
      file: PREREGISTRATION_FILE,
      sha256: sha256(readFileSync(s.path(PREREGISTRATION_FILE))),
    });
  });

  it('any edit counts, a trailing space too; one freeze makes the amended file the preregistered one', async () => {
    const s = studyRoot();
    edit(s, (t) => `${t} `);
    expect((await cli(['experiment', '--condition', 'raw'], s.root)).code).toBe(2);
    edit(s, (t) =>
      t.replace('"claim": "Mechanical redundancy is safe', '"claim": "Mechanical redundancy is always safe'),
    );
    const frozen = freezePreregistration(s.root, STUDY.name);
    expect(frozen.preregistration.pinned).toBe(sha256(readFileSync(s.path(PREREGISTRATION_FILE))));
    expect(frozen.preregistration.previous).not.toBe(frozen.preregistration.pinned);
    const r = await cli(['experiment', '--condition', 'raw'], s.root);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(manifestOf(s.path('results')).study.exploratory).toBe(false);
    // Freezing again changes nothing.
    expect(freezePreregistration(s.root, STUDY.name).preregistration.previous).toBe(frozen.preregistration.pinned);
  });

  it('a missing or malformed pin stops the run, naming the pin file', async () => {
    const s = studyRoot();
    writeFileSync(s.path(PIN), 'not a pin\n');
    const bad = await cli(['experiment', '--condition', 'raw', '--out', 'out'], s.root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${PIN} is not a pin of ${PREREGISTRATION_FILE}`);
    rmSync(s.path(PIN));
    const missing = await cli(['experiment', '--condition', 'raw', '--out', 'out'], s.root);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`[PL_PREREG_PIN_MISSING]`);
    expect(existsSync(s.path('out'))).toBe(false);
    // --exploratory runs without any check, as before.
    expect((await cli(['experiment', '--condition', 'raw', '--out', 'out', '--exploratory'], s.root)).code).toBe(0);
  });
});
