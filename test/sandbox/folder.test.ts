// What a sandboxed policy's folder may hold, and why a refused path is refused: the rules, both sides, including
// the properties `inside` must keep for any path (a sibling that shares a name prefix is never inside).
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FOLDER_ENTRY_LIMIT, inside, isOracle, LIBRARY, refusalOf, vetFolder } from '../../src/sandbox/folder.js';

const segment = fc.stringMatching(/^[a-z][a-z0-9._-]{0,8}$/).filter((s) => s !== '..' && s !== '.');
const NONE = { fixtures: [], results: [] };

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'prunelab-vet-'));
  writeFileSync(join(dir, 'policy.ts'), 'export default {};');
  return dir;
}

describe('inside', () => {
  it('holds for the folder itself and anything below it, never for a sibling sharing its prefix or a parent', () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.array(segment, { maxLength: 4 }),
        segment,
        (base, below, suffix) => {
          const root = sep + base.join(sep);
          expect(inside(join(root, ...below), root)).toBe(true);
          expect(inside(root + suffix, root)).toBe(false);
          // Up and back down into a different name (the same name would be the folder itself again).
          if (suffix !== base.at(-1)) expect(inside(join(root, '..', suffix), root)).toBe(false);
          if (base.length > 1) expect(inside(sep + base.slice(0, -1).join(sep), root)).toBe(false);
        },
      ),
    );
  });
});

describe('isOracle and refusalOf', () => {
  it('call any *.oracle.json or anything under an oracles folder an oracle, and nothing else', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 3 }), segment, (dirs, name) => {
        expect(isOracle(join(sep, ...dirs, 'oracles', name))).toBe(true);
        expect(isOracle(join(sep, ...dirs, `${name}.oracle.json`))).toBe(true);
        const plain = join(sep, ...dirs.filter((d) => d !== 'oracles'), `${name.replace(/oracle/g, 'x')}.json`);
        expect(isOracle(plain)).toBe(false);
      }),
    );
  });

  it('names the reason: oracle before fixtures, fixtures, results, else outside', () => {
    const off = { fixtures: ['/p/fixtures'], results: ['/p/results', '/tmp/out'] };
    expect(refusalOf('/p/fixtures/canonical/oracles/a.oracle.json', off)).toBe('oracle');
    expect(refusalOf('/p/fixtures/canonical/a.json', off)).toBe('fixtures');
    expect(refusalOf('/tmp/out/raw/decisions.jsonl', off)).toBe('results');
    expect(refusalOf('/p/fixtures-notes.md', off)).toBe('outside');
    expect(refusalOf(join(LIBRARY, 'corpus', 'families', 'x.ts'), off)).toBe('labelCode');
    expect(refusalOf(join(LIBRARY, 'oracle', 'judge.ts'), off)).toBe('labelCode');
    expect(refusalOf(join(LIBRARY, 'fixture', 'view.ts'), off)).toBe('outside');
  });
});

describe('vetFolder', () => {
  it('accepts a folder of helpers and data, with a link that stays inside it', () => {
    const dir = folder();
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib', 'helper.ts'), 'export const x = 1;');
    symlinkSync(join(dir, 'lib', 'helper.ts'), join(dir, 'alias.ts'));
    expect(() => vetFolder('policy.ts', dir, NONE)).not.toThrow();
  });

  it('refuses a link out of the folder, a dangling link, an oracle inside, and a folder holding or inside off-limits places', () => {
    const out = folder();
    symlinkSync(tmpdir(), join(out, 'up'));
    expect(() => vetFolder('policy.ts', out, NONE)).toThrow(/up: a symbolic link out of the folder/);
    const dangling = folder();
    symlinkSync(join(dangling, 'nothing'), join(dangling, 'gone'));
    expect(() => vetFolder('policy.ts', dangling, NONE)).toThrow(/gone: a symbolic link that leads nowhere/);
    const oracle = folder();
    writeFileSync(join(oracle, 'x.oracle.json'), '{}');
    expect(() => vetFolder('policy.ts', oracle, NONE)).toThrow(/x\.oracle\.json: it is an oracle/);
    const holder = folder();
    mkdirSync(join(holder, 'results'));
    expect(() => vetFolder('policy.ts', holder, { fixtures: [], results: [join(holder, 'results')] })).toThrow(
      /results: it holds results/,
    );
    const within = folder();
    expect(() => vetFolder('policy.ts', within, { fixtures: [join(within, '..')], results: [] })).toThrow(
      /it is a fixture file/,
    );
  });

  it('refuses a folder too large to vet', () => {
    const dir = folder();
    for (let i = 0; i < 10; i += 1) writeFileSync(join(dir, `f${i}`), '');
    expect(() => vetFolder('policy.ts', dir, NONE, 11)).not.toThrow();
    expect(() => vetFolder('policy.ts', dir, NONE, 10)).toThrow(/holds more than 10 files and folders/);
    expect(FOLDER_ENTRY_LIMIT).toBe(5000);
  });
});
