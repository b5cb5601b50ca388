import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FixtureManifest } from '../../src/artifacts/schema.js';
import { sha256 } from '../../src/fixture/canonical.js';
import {
  buildFixtureManifest,
  diffEntries,
  generatedDir,
  readFixtureManifest,
  renderFixtureManifest,
} from '../../src/study/manifest.js';
import { compareEntries } from '../../src/study/check.js';
import { minimalFixture, minimalOracle } from '../support/minimal.js';

function corpus(): string {
  const root = mkdtempSync(join(tmpdir(), 'prunelab-manifest-'));
  mkdirSync(join(root, 'fx/b/oracles'), { recursive: true });
  mkdirSync(join(root, 'fx/a/oracles'), { recursive: true });
  writeFileSync(join(root, 'fx/b/zeta.json'), JSON.stringify({ ...minimalFixture(), id: 'zeta' }));
  writeFileSync(join(root, 'fx/b/oracles/zeta.oracle.json'), JSON.stringify({ ...minimalOracle(), fixtureId: 'zeta' }));
  writeFileSync(join(root, 'fx/a/alpha.json'), JSON.stringify({ ...minimalFixture(), id: 'alpha' }));
  // A compressed oracle is hashed over its JSON text, not over the compressor's bytes.
  writeFileSync(
    join(root, 'fx/a/oracles/alpha.oracle.json.gz'),
    gzipSync(JSON.stringify({ ...minimalOracle(), fixtureId: 'alpha' })),
  );
  return root;
}

describe('buildFixtureManifest', () => {
  it('lists every fixture and oracle with the sha256 of its JSON text, sorted by path, relative to the root', () => {
    const root = corpus();
    const m = buildFixtureManifest(root, ['fx'], null);
    expect(FixtureManifest.parse(m)).toEqual(m);
    expect(m.fixtures.map((f) => `${f.file}:${f.id}`)).toEqual(['fx/a/alpha.json:alpha', 'fx/b/zeta.json:zeta']);
    expect(m.oracles.map((o) => `${o.file}:${o.fixtureId}`)).toEqual([
      'fx/a/oracles/alpha.oracle.json.gz:alpha',
      'fx/b/oracles/zeta.oracle.json:zeta',
    ]);
    expect(m.fixtures[1]!.sha256).toBe(sha256(readFileSync(join(root, 'fx/b/zeta.json'))));
    expect(m.oracles[0]!.sha256).toBe(sha256(JSON.stringify({ ...minimalOracle(), fixtureId: 'alpha' })));
    expect(buildFixtureManifest(root, ['fx'], null)).toEqual(m);
  });

  it('records the generator, which also names the folder whose logs are compressed', () => {
    const root = corpus();
    const generator = { name: 'g', version: '1', seed: 7, count: 2, out: 'fx/b' };
    const m = buildFixtureManifest(root, ['fx'], generator);
    expect(m.generator).toEqual(generator);
    expect(generatedDir(root, m)).toBe('fx/b');
    expect(generatedDir(root)).toBeNull();
  });

  it('names a fixture file that is not JSON', () => {
    const root = corpus();
    writeFileSync(join(root, 'fx/a/broken.json'), '{ nope');
    expect(() => buildFixtureManifest(root, ['fx'], null)).toThrow(/fx\/a\/broken\.json: not valid JSON/);
  });
});

describe('compareEntries', () => {
  it('names each changed, missing and extra file with both hashes', () => {
    const problems = compareEntries(
      'oracle',
      [
        { file: 'a', sha256: '1'.repeat(64) },
        { file: 'b', sha256: '2'.repeat(64) },
      ],
      [
        { file: 'a', sha256: '3'.repeat(64) },
        { file: 'c', sha256: '4'.repeat(64) },
      ],
    );
    expect(problems).toEqual([
      `a (oracle): changed: expected sha256 ${'1'.repeat(64)}, actual ${'3'.repeat(64)}`,
      `b (oracle): missing: expected sha256 ${'2'.repeat(64)}, actual (no such file)`,
      `c (oracle): extra: expected (not in the manifest), actual sha256 ${'4'.repeat(64)}`,
    ]);
    expect(compareEntries('fixture', [{ file: 'a', sha256: 'x' }], [{ file: 'a', sha256: 'x' }])).toEqual([]);
  });
});

describe('diffEntries', () => {
  it('lists missing and changed files in manifest order, then extra files in disk order', () => {
    const h = (c: string) => c.repeat(64);
    expect(
      diffEntries(
        [
          { file: 'b', sha256: h('1') },
          { file: 'a', sha256: h('2') },
          { file: 'c', sha256: h('3') },
        ],
        [
          { file: 'z', sha256: h('4') },
          { file: 'a', sha256: h('5') },
          { file: 'c', sha256: h('3') },
          { file: 'y', sha256: h('6') },
        ],
      ),
    ).toEqual([
      { change: 'missing', file: 'b', expected: h('1') },
      { change: 'changed', file: 'a', expected: h('2'), actual: h('5') },
      { change: 'extra', file: 'z', actual: h('4') },
      { change: 'extra', file: 'y', actual: h('6') },
    ]);
  });
});

describe('readFixtureManifest', () => {
  it('reads back what buildFixtureManifest rendered, and names the file and field of a bad one', () => {
    const root = corpus();
    const path = join(root, 'fx/MANIFEST.json');
    expect(() => readFixtureManifest(path, root)).toThrow(/no fixture manifest at fx\/MANIFEST\.json/);
    const m = buildFixtureManifest(root, ['fx'], null);
    writeFileSync(path, renderFixtureManifest(m));
    expect(readFixtureManifest(path, root)).toEqual(m);
    writeFileSync(
      path,
      renderFixtureManifest({ ...m, fixtures: [{ ...m.fixtures[0]!, sha256: 7 as unknown as string }] }),
    );
    expect(() => readFixtureManifest(path, root)).toThrow(
      /fx\/MANIFEST\.json: not a valid fixture manifest \(fixtures\.0\.sha256: /,
    );
    writeFileSync(path, '{ nope');
    expect(() => readFixtureManifest(path, root)).toThrow(
      /fx\/MANIFEST\.json: not a valid fixture manifest \(\(the whole file\): not valid JSON/,
    );
  });
});
