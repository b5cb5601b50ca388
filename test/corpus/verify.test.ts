// fixtures:verify detects a changed, a missing and an extra file (naming the file and both hashes), a fixture the
// schema rejects, and a file that matches the manifest but not the generator's ground truth.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipText } from '../../src/corpus/corpus.js';
import { buildFixtureManifest, renderFixtureManifest } from '../../src/study/manifest.js';
import { sha256 } from '../../src/fixture/canonical.js';
import { cli } from '../support/cli.js';

let pristine = '';
const roots: string[] = [];
beforeAll(async () => {
  pristine = mkdtempSync(join(tmpdir(), 'prunelab-verify-'));
  mkdirSync(join(pristine, 'fixtures'));
  cpSync('fixtures/canonical', join(pristine, 'fixtures/canonical'), { recursive: true });
  const r = await cli(['fixtures-generate', '--seed', '3', '--count', '3', '--out', 'fixtures/generated'], pristine);
  if (r.code !== 0) throw new Error(r.stderr);
});
afterAll(() => {
  for (const r of [pristine, ...roots]) rmSync(r, { recursive: true, force: true });
});

function copy(): string {
  const root = mkdtempSync(join(tmpdir(), 'prunelab-verify-'));
  roots.push(root);
  cpSync(pristine, root, { recursive: true });
  return root;
}
const verify = (root: string) => cli(['fixtures-verify'], root);
const manifestHash = (root: string, file: string) => {
  const m = JSON.parse(readFileSync(join(root, 'fixtures/MANIFEST.json'), 'utf8')) as {
    fixtures: { file: string; sha256: string }[];
    oracles: { file: string; sha256: string }[];
  };
  return [...m.fixtures, ...m.oracles].find((f) => f.file === file)!.sha256;
};

describe('fixtures:verify', () => {
  it('passes on what fixtures:generate wrote', async () => {
    const r = await verify(copy());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // The canonical fixtures on disk plus the 3 generated ones.
    const total = readdirSync('fixtures/canonical').filter((f) => f.endsWith('.json')).length + 3;
    expect(r.stdout).toContain(`${total} fixtures and ${total} oracles match`);
    expect(r.stdout).toContain('the 3 generated fixtures equal a regeneration from seed 3');
  });

  it('names a changed oracle with the recorded and the actual hash, and exits 2', async () => {
    const root = copy();
    const file = 'fixtures/canonical/oracles/exit-code-137.oracle.json';
    const recorded = manifestHash(root, file);
    const text = readFileSync(join(root, file), 'utf8').replace('"removable": [', '"removable": [\n        "u-task",');
    writeFileSync(join(root, file), text);
    const r = await verify(root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${file} changed: the manifest records sha256 ${recorded}, the file has ${sha256(text)}`,
    );
  });

  it('refuses an oracle that contradicts its obligations, naming file, prune point, item and field, and exits 2', async () => {
    const root = copy();
    const file = 'fixtures/canonical/oracles/failed-call-input-explains.oracle.json';
    const o = JSON.parse(readFileSync(join(root, file), 'utf8')) as {
      points: { prunePoint: string; removable: string[]; redundantGroups: { items: string[] }[] }[];
    };
    const pr = o.points.find((p) => p.prunePoint === 'pp-pr')!;
    // The earlier git status outputs removable and the last necessary: one copy of the branch line labelled necessary.
    pr.redundantGroups = pr.redundantGroups.filter((g) => !g.items.includes('r-gs3'));
    pr.removable.push('r-gs1', 'r-gs2', 'r-ta');
    writeFileSync(join(root, file), `${JSON.stringify(o, null, 2)}\n`);
    const r = await verify(root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${file}: oracle point "pp-pr" (points[1]), item "r-gs3", field "removable": labelled necessary`,
    );
    expect(r.stderr).toMatch(
      /item "r-ta", field "removable\[\d+\]": labelled removable, but removing it alone loses downstream obligation ob-pr-tests \(missing Tests {2}48 passed \(48\)\)/,
    );
  });

  it('names a missing generated fixture and the hash the manifest recorded for it', async () => {
    const root = copy();
    const file = 'fixtures/generated/gen-0001.json.gz';
    const recorded = manifestHash(root, file);
    unlinkSync(join(root, file));
    const r = await verify(root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file} is missing: the manifest records sha256 ${recorded}`);
  });

  it('names an extra fixture the manifest does not list, with its hash', async () => {
    const root = copy();
    const src = readFileSync(join(root, 'fixtures/canonical/exit-code-137.json'), 'utf8').replace(
      '"id": "exit-code-137"',
      '"id": "exit-code-137-copy"',
    );
    writeFileSync(join(root, 'fixtures/canonical/exit-code-137-copy.json'), src);
    cpSync(
      join(root, 'fixtures/canonical/oracles/exit-code-137.oracle.json'),
      join(root, 'fixtures/canonical/oracles/exit-code-137-copy.oracle.json'),
    );
    const r = await verify(root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `fixtures/canonical/exit-code-137-copy.json is not in the manifest (sha256 ${sha256(src)})`,
    );
    // The copied oracle names the original fixture id, which schema validation reports too.
    expect(r.stderr).toMatch(/exit-code-137-copy\.oracle\.json: oracle, field "fixtureId"/);
  });

  it('catches a generated file that matches a rewritten manifest but not the generator ground truth', async () => {
    const root = copy();
    const file = 'fixtures/generated/oracles/gen-0002.oracle.json';
    const truth = sha256(readFileSync(join(root, file)));
    const oracle = JSON.parse(readFileSync(join(root, file), 'utf8')) as { points: { removable: string[] }[] };
    oracle.points[0]!.removable.pop();
    const tampered = `${JSON.stringify(oracle, null, 2)}\n`;
    writeFileSync(join(root, file), tampered);
    const m = JSON.parse(readFileSync(join(root, 'fixtures/MANIFEST.json'), 'utf8')) as { generator: never };
    writeFileSync(
      join(root, 'fixtures/MANIFEST.json'),
      renderFixtureManifest(buildFixtureManifest(root, ['fixtures'], m.generator)),
    );
    const r = await verify(root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${file} differs from the generator's ground truth: regenerating gives sha256 ${truth}, the file has ${sha256(tampered)}`,
    );
    expect(r.stderr).not.toContain('changed: the manifest records');
  });

  it('reports a generated fixture the schema rejects, naming file, item and field', async () => {
    const root = copy();
    const file = 'fixtures/generated/gen-0000.json.gz';
    const doc = JSON.parse(gunzipSync(readFileSync(join(root, file))).toString('utf8')) as {
      items: { origin: string }[];
    };
    doc.items[0]!.origin = 'robot';
    writeFileSync(join(root, file), gzipText(JSON.stringify(doc)));
    const r = await verify(root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /fixtures\/generated\/gen-0000\.json\.gz: item "i[0-9a-f]{8}" \(items\[0\]\), field "origin"/,
    );
  });

  it('exits 2 naming a generated fixture that is not valid gzip', async () => {
    const root = copy();
    writeFileSync(join(root, 'fixtures/generated/gen-0001.json.gz'), '{"not": "gzip"}');
    const r = await verify(root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('prunelab: fixtures/generated/gen-0001.json.gz: not a readable gzip file');
  });

  it('exits 2 with a clear message when there is no manifest', async () => {
    const root = copy();
    rmSync(join(root, 'fixtures/MANIFEST.json'));
    const r = await verify(root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no fixture manifest at fixtures/MANIFEST.json');
  });
});
