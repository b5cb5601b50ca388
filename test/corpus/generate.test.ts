// fixtures:generate end to end in a temporary package root: deterministic bytes, a manifest covering every fixture
// and oracle under the fixture root, schema-valid fixtures whose oracles pass checkOracle, and refusal of bad flags.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { FixtureManifest } from '../../src/artifacts/schema.js';
import { composeFixture, composeSession, DEFAULT_REMOVABLE_SHARE } from '../../src/corpus/compose.js';
import { compactIdLists, generatedFile } from '../../src/corpus/corpus.js';
import { sha256 } from '../../src/fixture/canonical.js';
import { loadFixtures } from '../../src/load/fixtures.js';
import { cli } from '../support/cli.js';

const roots: string[] = [];
function tempRoot(withCanonical = false): string {
  const root = mkdtempSync(join(tmpdir(), 'prunelab-corpus-'));
  roots.push(root);
  mkdirSync(join(root, 'fixtures'), { recursive: true });
  if (withCanonical) cpSync('fixtures/canonical', join(root, 'fixtures', 'canonical'), { recursive: true });
  return root;
}
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** Every file below a folder, relative, with its bytes. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name), `${rel}${e.name}/`);
      else out.set(`${rel}${e.name}`, sha256(readFileSync(join(d, e.name))));
    }
  };
  walk(dir, '');
  return out;
}

const gen = (root: string, ...flags: string[]) =>
  cli(['fixtures-generate', '--out', 'fixtures/generated', ...flags], root);

describe('fixtures:generate', () => {
  it('writes byte-identical files for the same seed and count, and different ones for another seed', async () => {
    const [a, b, c] = [tempRoot(), tempRoot(), tempRoot()];
    for (const root of [a, b]) expect((await gen(root, '--seed', '11', '--count', '4')).code).toBe(0);
    expect((await gen(c, '--seed', '12', '--count', '4')).code).toBe(0);
    const sa = snapshot(join(a, 'fixtures'));
    expect(sa.size).toBe(4 + 4 + 1 + 1);
    expect(snapshot(join(b, 'fixtures'))).toEqual(sa);
    const sc = snapshot(join(c, 'fixtures'));
    for (const name of ['generated/gen-0000.json.gz', 'generated/oracles/gen-0000.oracle.json'])
      expect(sc.get(name)).not.toBe(sa.get(name));
  });

  it('composes a session once and finishes it at any share as composeFixture composes that share, in any order', () => {
    const finish = composeSession(11, 5);
    const shares = [0.6, 0.15, DEFAULT_REMOVABLE_SHARE, 0.6];
    const finished = shares.map((share) => JSON.stringify(finish(share)));
    expect(finished).toEqual(shares.map((share) => JSON.stringify(composeFixture(11, 5, share))));
    // The share decides the roles: the finishes differ.
    expect(new Set(finished).size).toBe(3);
  });

  it('gives fixture k the same content whatever the count, since each fixture has its own sub-seed', () => {
    expect(generatedFile(11, 3).fixtureText).toBe(JSON.stringify(composeFixture(11, 3).fixture, null, 2) + '\n');
    expect(JSON.stringify(composeFixture(11, 3).fixture)).not.toBe(JSON.stringify(composeFixture(11, 4).fixture));
  });

  it('writes schema-valid fixtures whose oracles pass checkOracle, and a manifest over canonical and generated files', async () => {
    const root = tempRoot(true);
    const r = await gen(root, '--seed', '5', '--count', '12');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // loadFixtures validates each fixture against the schema and each oracle with checkOracle, and throws otherwise.
    const loaded = loadFixtures(join(root, 'fixtures'), root);
    expect(loaded.filter((l) => l.file.startsWith('fixtures/generated/'))).toHaveLength(12);
    const manifest = FixtureManifest.parse(JSON.parse(readFileSync(join(root, 'fixtures', 'MANIFEST.json'), 'utf8')));
    expect(manifest.generator).toEqual({
      name: 'prunelab-corpus',
      version: expect.any(String),
      seed: 5,
      count: 12,
      out: 'fixtures/generated',
      removableShare: DEFAULT_REMOVABLE_SHARE,
    });
    expect(manifest.fixtures.map((f) => f.file)).toEqual(loaded.map((l) => l.file));
    for (const l of loaded) {
      expect(manifest.fixtures.find((f) => f.file === l.file)!.sha256).toBe(l.sha256);
      expect(manifest.oracles.find((o) => o.file === l.oracleFile)!.sha256).toBe(l.oracleSha256);
    }
    const gz = join(root, 'fixtures/generated/gen-0000.json.gz');
    expect(loaded.find((l) => l.fixture.id === 'gen-0000')!.sha256).toBe(sha256(gunzipSync(readFileSync(gz))));
    const readme = readFileSync(join(root, 'fixtures/generated/README.md'), 'utf8');
    expect(readme).toContain('designed, not measured');
    for (const l of loaded.filter((x) => x.file.startsWith('fixtures/generated/'))) {
      expect(l.fixture.families.length).toBeGreaterThan(0);
      for (const f of l.fixture.families) expect(readme).toContain(`\`${f}\``);
    }
  });

  it('writes oracles with id lists on one line, parsing to exactly the oracle composed', () => {
    const file = generatedFile(11, 2);
    expect(JSON.parse(file.oracleText)).toEqual(file.composed.oracle);
    expect(file.oracleText).toMatch(/"removable": \["/);
    const tricky = { a: ['x, y', 'z'], b: [1, 2], c: ['q'] };
    expect(JSON.parse(compactIdLists(JSON.stringify(tricky, null, 2)))).toEqual(tricky);
  });

  it('replaces a corpus it generated earlier, leaving no staging folder behind', async () => {
    const root = tempRoot();
    expect((await gen(root, '--count', '3')).code).toBe(0);
    expect((await gen(root, '--count', '2')).code).toBe(0);
    expect(readdirSync(join(root, 'fixtures/generated')).filter((n) => n.endsWith('.gz'))).toEqual([
      'gen-0000.json.gz',
      'gen-0001.json.gz',
    ]);
    expect(readdirSync(join(root, 'fixtures')).sort()).toEqual(['MANIFEST.json', 'generated']);
  });

  it('writes the manifest of any other --out inside --out, over --out only, with relative paths that fixtures:verify reads', async () => {
    const root = tempRoot(true);
    const studyManifest = join(root, 'fixtures', 'MANIFEST.json');
    writeFileSync(studyManifest, 'untouched');
    const elsewhere = tempRoot();
    mkdirSync(join(elsewhere, 'x'));
    writeFileSync(join(elsewhere, 'x', 'junk.json'), '{"id": "junk"}');
    writeFileSync(join(elsewhere, 'loose.json'), '{"id": "loose"}');
    const r = await cli(['fixtures-generate', '--seed', '7', '--count', '3', '--out', join(elsewhere, 'gen')], root);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readdirSync(elsewhere).sort()).toEqual(['fixtures', 'gen', 'loose.json', 'x']);
    expect(readFileSync(studyManifest, 'utf8')).toBe('untouched');
    const manifest = FixtureManifest.parse(JSON.parse(readFileSync(join(elsewhere, 'gen', 'MANIFEST.json'), 'utf8')));
    expect(manifest.generator).toMatchObject({ seed: 7, count: 3, out: 'gen' });
    expect(manifest.fixtures.map((f) => f.file)).toEqual([
      'gen/gen-0000.json.gz',
      'gen/gen-0001.json.gz',
      'gen/gen-0002.json.gz',
    ]);
    expect(manifest.oracles.map((o) => o.file)).toEqual([
      'gen/oracles/gen-0000.oracle.json',
      'gen/oracles/gen-0001.oracle.json',
      'gen/oracles/gen-0002.oracle.json',
    ]);
    const v = await cli(['fixtures-verify', '--manifest', join(elsewhere, 'gen', 'MANIFEST.json')], root);
    expect(v.stderr).toBe('');
    expect(v.stdout).toContain('3 fixtures and 3 oracles match');
    expect(v.code).toBe(0);
  });

  it('generates at the requested removable share, records it in the manifest and README, and verifies at it', async () => {
    const root = tempRoot();
    const r = await cli(
      ['fixtures-generate', '--seed', '7', '--count', '3', '--removable-share', '0.6', '--out', 'fixtures/share'],
      root,
    );
    expect(r.code).toBe(0);
    const manifest = FixtureManifest.parse(
      JSON.parse(readFileSync(join(root, 'fixtures', 'share', 'MANIFEST.json'), 'utf8')),
    );
    expect(manifest.generator).toMatchObject({ seed: 7, count: 3, removableShare: 0.6 });
    const readme = readFileSync(join(root, 'fixtures', 'share', 'README.md'), 'utf8');
    expect(readme).toMatch(/Removable share: requested 0\.6, reached 0\.\d{3}/);
    const oracle = readFileSync(join(root, 'fixtures', 'share', 'oracles', 'gen-0000.oracle.json'), 'utf8');
    expect(oracle).toBe(generatedFile(7, 0, 0.6).oracleText);
    expect(oracle).not.toBe(generatedFile(7, 0, 0.15).oracleText);
    const v = await cli(['fixtures-verify', '--manifest', join(root, 'fixtures', 'share', 'MANIFEST.json')], root);
    expect(v.stderr).toBe('');
    expect(v.code).toBe(0);
  });

  it('keeps a corpus at another folder of the package out of fixtures/MANIFEST.json', async () => {
    const root = tempRoot(true);
    expect((await gen(root, '--count', '2')).code).toBe(0);
    const before = readFileSync(join(root, 'fixtures', 'MANIFEST.json'));
    const r = await cli(['fixtures-generate', '--count', '2', '--out', 'fixtures/extra'], root);
    expect(r.code).toBe(0);
    expect(readFileSync(join(root, 'fixtures', 'MANIFEST.json'))).toEqual(before);
    const own = FixtureManifest.parse(JSON.parse(readFileSync(join(root, 'fixtures/extra/MANIFEST.json'), 'utf8')));
    expect(own.fixtures.map((f) => f.file)).toEqual(['extra/gen-0000.json.gz', 'extra/gen-0001.json.gz']);
  });

  const bad: [string, string[], RegExp][] = [
    ['a non-integer count', ['--count', 'many'], /--count does not take "many"/],
    ['a zero count', ['--count', '0'], /--count does not take "0": expected an integer from 1/],
    ['a fractional seed', ['--seed', '1.5'], /--seed does not take "1.5"/],
    ['a removable share above 1', ['--removable-share', '1.5'], /--removable-share does not take "1.5"/],
    ['a removable share that is not a number', ['--removable-share', 'most'], /--removable-share does not take "most"/],
    ['an unknown flag', ['--sed', '3'], /unknown option --sed/],
    ['a missing value', ['--count'], /option --count needs a value/],
  ];
  for (const [what, flags, message] of bad) {
    it(`refuses ${what} with exit 2 and writes nothing`, async () => {
      const root = tempRoot();
      const r = await gen(root, ...flags);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(readdirSync(join(root, 'fixtures'))).toEqual([]);
    });
  }

  it('refuses an --out folder that is not a generated corpus, leaving it untouched', async () => {
    const root = tempRoot();
    mkdirSync(join(root, 'fixtures/generated'));
    writeFileSync(join(root, 'fixtures/generated/notes.txt'), 'mine');
    const r = await gen(root, '--count', '2');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/fixtures\/generated, which exists and is not a generated corpus/);
    expect(readdirSync(join(root, 'fixtures/generated'))).toEqual(['notes.txt']);
    expect(existsSync(join(root, 'fixtures/MANIFEST.json'))).toBe(false);
  });
});
