// The preregistered study's gate and the results layout, driven through the command line in a temporary root.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DecisionRecord, Manifest, POINT_ROW_COLUMNS, PointMeasures, Summary } from '../../src/artifacts/schema.js';
import { sha256 } from '../../src/fixture/canonical.js';
import { conditionNames } from '../../src/policy/registry.js';
import { PREREGISTRATION_FILE } from '../support/study.js';
import { cli } from '../support/cli.js';
import { minimalFixture } from '../support/minimal.js';
import { studyRoot, type StudyRoot } from '../support/study.js';

const outIn = (s: StudyRoot) => join(s.root, 'out');
const manifestOf = (dir: string) => Manifest.parse(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')));
const fileHash = (s: StudyRoot, f: string) => sha256(readFileSync(s.path(f)));

function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(dir, join(prefix, e.name)) : [join(prefix, e.name)]))
    .sort();
}

const lines = (text: string) => text.split('\n').filter(Boolean);
const preregisteredNames = (s: StudyRoot): string[] =>
  (JSON.parse(readFileSync(s.path(PREREGISTRATION_FILE), 'utf8')) as { conditions: { name: string }[] }).conditions.map(
    (c) => c.name,
  );

async function refused(s: StudyRoot, ...expected: string[]): Promise<string> {
  const r = await cli(['experiment', '--out', 'out', '--condition', 'raw'], s.root);
  expect(r.code).toBe(2);
  for (const e of expected) expect(r.stderr).toContain(e);
  expect(existsSync(outIn(s))).toBe(false);
  return r.stderr;
}

describe('the preregistered study (default fixtures)', () => {
  it('runs when every input is the frozen one, and records what it was checked against', async () => {
    const s = studyRoot();
    const r = await cli(['experiment', '--out', 'out'], s.root);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('EXPLORATORY');
    const m = manifestOf(outIn(s));
    expect(m.study).toEqual({
      exploratory: false,
      preregistration: { file: PREREGISTRATION_FILE, sha256: fileHash(s, PREREGISTRATION_FILE) },
      fixtureManifest: { file: 'fixtures/MANIFEST.json', sha256: fileHash(s, 'fixtures/MANIFEST.json') },
    });
    expect(existsSync(join(outIn(s), 'EXPLORATORY.md'))).toBe(false);
    // Conditions the preregistration does not name run beside it, each stamped exploratory alone.
    const named = new Set(preregisteredNames(s));
    const unnamed = conditionNames().filter((c) => !named.has(c));
    expect(unnamed).toContain('anthropic-clear-tool-uses');
    expect(r.stdout).toContain(`exploratory conditions (not named by the preregistration`);
    for (const c of conditionNames()) {
      const alone = !named.has(c);
      const dir = join(outIn(s), c);
      expect(Summary.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'))).exploratory, c).toBe(alone);
      expect(existsSync(join(dir, 'EXPLORATORY.md')), c).toBe(alone);
      expect(m.conditions.find((x) => x.name === c)?.exploratory, c).toBe(alone ? true : undefined);
      const rows = readFileSync(join(dir, 'points.csv'), 'utf8').trim().split('\n').slice(1);
      expect(rows.length, c).toBeGreaterThan(0);
      for (const row of rows) expect(row.startsWith(alone ? 'true,' : 'false,'), c).toBe(true);
      for (const line of lines(readFileSync(join(dir, 'decisions.jsonl'), 'utf8')).slice(0, 3))
        expect(JSON.parse(line).exploratory, c).toBe(alone ? true : undefined);
    }
  });

  it('lets only the preregistered study replace the default results/: an exploratory run there needs --out', async () => {
    const s = studyRoot();
    for (const args of [['--exploratory'], ['--timing', 'pressure:0.8'], ['--seed', '7']]) {
      const r = await cli(['experiment', '--condition', 'raw', ...args], s.root);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('[PL_USAGE_EXPLORATORY_NEEDS_OUT]');
      expect(existsSync(join(s.root, 'results'))).toBe(false);
    }
    const ok = await cli(['experiment', '--condition', 'raw'], s.root);
    expect(ok.code).toBe(0);
    expect(manifestOf(join(s.root, 'results')).study.exploratory).toBe(false);
  });

  it("writes the canonical logs plain, the generated corpus's compressed, and points.csv for every fixture", async () => {
    const s = studyRoot();
    const args = ['experiment', '--out', 'out', '--condition', 'exact-redundancy', '--decision-log', 'all'];
    expect((await cli(args, s.root)).code).toBe(0);
    const dir = join(outIn(s), 'exact-redundancy');
    const plain = lines(readFileSync(join(dir, 'decisions.jsonl'), 'utf8')).map((l) =>
      DecisionRecord.parse(JSON.parse(l)),
    );
    expect(new Set(plain.map((r) => r.fixture))).toEqual(new Set(['mini']));
    const bulkText = gunzipSync(readFileSync(join(dir, 'decisions.generated.jsonl.gz'))).toString('utf8');
    const bulk = lines(bulkText).map((l) => DecisionRecord.parse(JSON.parse(l)));
    expect(new Set(bulk.map((r) => r.fixture))).toEqual(new Set(['gen-0001']));
    const bulkPoints = lines(gunzipSync(readFileSync(join(dir, 'points.generated.jsonl.gz'))).toString('utf8')).map(
      (l) => PointMeasures.parse(JSON.parse(l)),
    );
    expect(bulkPoints.map((p) => p.fixture)).toEqual(['gen-0001']);
    // The pin is over the decompressed text, so it does not depend on what zlib wrote.
    const pinned = manifestOf(outIn(s)).outputs.find((o) => o.file === 'exact-redundancy/decisions.generated.jsonl.gz');
    expect(pinned?.sha256).toBe(sha256(bulkText));
    const [head, ...rows] = lines(readFileSync(join(dir, 'points.csv'), 'utf8'));
    expect(head).toBe(POINT_ROW_COLUMNS.join(','));
    expect(rows.map((r) => r.split(',').slice(0, 3).join(','))).toEqual(['false,mini,pp1', 'false,gen-0001,pp1']);
    const summary = Summary.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')));
    const row = Object.fromEntries(POINT_ROW_COLUMNS.map((c, i) => [c, rows[0]!.split(',')[i]]));
    const fx = summary.perFixture.find((f) => f.fixture === 'mini')!;
    expect([row['prune'], row['truePrunes'], row['coverageDenominator'], row['finalTokens']].map(Number)).toEqual([
      fx.precision.denominator,
      fx.precision.numerator,
      fx.coverage.denominator,
      fx.tokens.final,
    ]);
  });

  it("logs the generated corpus's decision records only with --decision-log all; every other file is the same bytes", async () => {
    const s = studyRoot();
    const args = ['experiment', '--condition', 'exact-redundancy,ladder-0-3'];
    expect((await cli([...args, '--out', 'committed'], s.root)).code).toBe(0);
    expect((await cli([...args, '--out', 'all', '--decision-log', 'all'], s.root)).code).toBe(0);
    const [committed, all] = [filesUnder(s.path('committed')), filesUnder(s.path('all'))];
    const bulk = ['exact-redundancy/decisions.generated.jsonl.gz', 'ladder-0-3/decisions.generated.jsonl.gz'];
    expect(committed.filter((f) => f.includes('decisions.generated'))).toEqual([]);
    expect(all.filter((f) => !committed.includes(f))).toEqual(bulk);
    expect(committed.every((f) => all.includes(f))).toBe(true);
    // The generated corpus's points are still written, and with every measure the same bytes as an `all` run's.
    expect(committed).toContain('ladder-0-3/points.generated.jsonl.gz');
    for (const f of committed.filter((x) => x !== 'run.json' && x !== 'manifest.json'))
      expect(readFileSync(join(s.path('committed'), f)).equals(readFileSync(join(s.path('all'), f))), f).toBe(true);
    const [mc, ma] = [manifestOf(s.path('committed')), manifestOf(s.path('all'))];
    expect([mc.decisionLog, ma.decisionLog]).toEqual(['committed', 'all']);
    expect({ ...mc, decisionLog: null, outputs: null }).toEqual({ ...ma, decisionLog: null, outputs: null });
    expect(ma.outputs.filter((o) => !bulk.includes(o.file))).toEqual(mc.outputs);
    // The manifest pins exactly the files there are.
    expect(mc.outputs.map((o) => o.file)).toEqual(committed.filter((f) => f !== 'manifest.json' && f !== 'run.json'));
    // --check compares in the mode asked for: the other mode's run is other inputs.
    expect((await cli([...args, '--out', 'committed', '--check'], s.root)).code).toBe(0);
    const other = await cli([...args, '--out', 'committed', '--check', '--decision-log', 'all'], s.root);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('manifest.json (inputs)');
  });

  it('stops on a changed, missing or extra fixture, naming the file and both hashes, and writes nothing', async () => {
    const s = studyRoot();
    const file = 'fixtures/canonical/mini.json';
    const before = fileHash(s, file);
    writeFileSync(s.path(file), readFileSync(s.path(file), 'utf8').replace('list the source files', 'list the files'));
    await refused(
      s,
      `${file} (fixture): changed: expected sha256 ${before}, actual ${fileHash(s, file)}`,
      '[PL_FROZEN_INPUTS_CHANGED]',
    );

    const t = studyRoot();
    const gen = 'fixtures/generated/gen-0001.json';
    const genHash = fileHash(t, gen);
    rmSync(t.path(gen));
    await refused(t, `${gen} (fixture): missing: expected sha256 ${genHash}, actual (no such file)`);

    const u = studyRoot();
    writeFileSync(u.path('fixtures/generated/gen-0002.json'), JSON.stringify({ ...minimalFixture(), id: 'gen-0002' }));
    await refused(
      u,
      `fixtures/generated/gen-0002.json (fixture): extra: expected (not in the manifest), actual sha256 ${fileHash(u, 'fixtures/generated/gen-0002.json')}`,
    );
  });

  it('stops on a changed, missing or extra oracle the same way', async () => {
    const s = studyRoot();
    const oracle = 'fixtures/canonical/oracles/mini.oracle.json';
    const before = fileHash(s, oracle);
    writeFileSync(s.path(oracle), readFileSync(s.path(oracle), 'utf8').replace('"keep": 1', '"keep": 2'));
    await refused(s, `${oracle} (oracle): changed: expected sha256 ${before}, actual ${fileHash(s, oracle)}`);

    const t = studyRoot();
    const genOracle = 'fixtures/generated/oracles/gen-0001.oracle.json';
    const genHash = fileHash(t, genOracle);
    rmSync(t.path(genOracle));
    await refused(t, `${genOracle} (oracle): missing: expected sha256 ${genHash}`);

    const u = studyRoot();
    writeFileSync(u.path('fixtures/canonical/oracles/stray.oracle.json'), '{}');
    await refused(
      u,
      `fixtures/canonical/oracles/stray.oracle.json (oracle): extra: expected (not in the manifest), actual sha256 ${sha256('{}')}`,
    );
  });

  it('stops when fixtures/MANIFEST.json is not the one the preregistration pinned, or is missing', async () => {
    const s = studyRoot();
    const pinned = fileHash(s, 'fixtures/MANIFEST.json');
    writeFileSync(
      s.path('fixtures/MANIFEST.json'),
      readFileSync(s.path('fixtures/MANIFEST.json'), 'utf8').replace('"seed": 1', '"seed": 2'),
    );
    await refused(
      s,
      `fixtures/MANIFEST.json is not the manifest ${PREREGISTRATION_FILE} was frozen against: expected sha256 ${pinned}, actual ${fileHash(s, 'fixtures/MANIFEST.json')}`,
      '[PL_FROZEN_MANIFEST_CHANGED]',
    );
    rmSync(s.path('fixtures/MANIFEST.json'));
    await refused(s, 'no fixture manifest at fixtures/MANIFEST.json', '[PL_FROZEN_MANIFEST_MISSING]');
  });

  it('stops on a missing or malformed preregistration, naming the field', async () => {
    const s = studyRoot();
    const text = readFileSync(s.path(PREREGISTRATION_FILE), 'utf8');
    writeFileSync(s.path(PREREGISTRATION_FILE), text.replace('"seed": 20261202', '"seed": "soon"'));
    await refused(s, `${PREREGISTRATION_FILE}: field "run.seed"`, '[PL_PREREG_INVALID]');
    rmSync(s.path(PREREGISTRATION_FILE));
    await refused(s, `no preregistration at ${PREREGISTRATION_FILE}`, '--exploratory');
  });

  it('on the frozen inputs, options that depart from the design are run but stamped exploratory', async () => {
    const s = studyRoot();
    const r = await cli(['experiment', '--out', 'out', '--condition', 'raw', '--timing', 'task-boundary'], s.root);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('EXPLORATORY (timing task-boundary (preregistered: immediate))');
    const m = manifestOf(outIn(s));
    expect(m.study.exploratory).toBe(true);
    expect(m.study.preregistration?.file).toBe(PREREGISTRATION_FILE);
    expect(existsSync(join(outIn(s), 'raw', 'EXPLORATORY.md'))).toBe(true);
  });
});

describe('--exploratory', () => {
  it('runs on changed inputs and stamps every output, so it can never pass for the preregistered study', async () => {
    const s = studyRoot();
    writeFileSync(s.path('fixtures/canonical/oracles/stray.oracle.json'), '{}');
    const r = await cli(['experiment', '--out', 'out', '--exploratory', '--decision-log', 'all'], s.root);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('EXPLORATORY (requested with --exploratory)');
    const out = outIn(s);
    const m = manifestOf(out);
    expect(m.study).toEqual({ exploratory: true, preregistration: null, fixtureManifest: null });
    expect(readFileSync(join(out, 'EXPLORATORY.md'), 'utf8')).toContain('can never stand for the preregistered study');
    for (const c of conditionNames()) {
      const dir = join(out, c);
      expect(Summary.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'))).exploratory, c).toBe(true);
      expect(existsSync(join(dir, 'EXPLORATORY.md')), c).toBe(true);
      const texts = [
        readFileSync(join(dir, 'decisions.jsonl'), 'utf8'),
        readFileSync(join(dir, 'points.jsonl'), 'utf8'),
        gunzipSync(readFileSync(join(dir, 'decisions.generated.jsonl.gz'))).toString('utf8'),
        gunzipSync(readFileSync(join(dir, 'points.generated.jsonl.gz'))).toString('utf8'),
      ];
      for (const text of texts) {
        expect(lines(text).length).toBeGreaterThan(0);
        for (const line of lines(text)) expect(JSON.parse(line), c).toMatchObject({ exploratory: true });
      }
      for (const row of lines(readFileSync(join(dir, 'points.csv'), 'utf8')).slice(1))
        expect(row.startsWith('true,'), c).toBe(true);
    }
    // Every file the run wrote is pinned, marker files included.
    expect(m.outputs.map((o) => o.file).sort()).toEqual(
      filesUnder(out).filter((f) => f !== 'manifest.json' && f !== 'run.json'),
    );
  });

  it('still refuses a malformed fixture, naming file, item and field, and writes nothing', async () => {
    const s = studyRoot();
    const f = minimalFixture();
    f.items[1]!['turn'] = -3;
    writeFileSync(s.path('fixtures/generated/gen-0001.json'), JSON.stringify({ ...f, id: 'gen-0001' }));
    const r = await cli(['experiment', '--out', 'out', '--exploratory'], s.root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/fixtures\/generated\/gen-0001\.json: item "c1" \(items\[1\]\), field "turn"/);
    expect(existsSync(outIn(s))).toBe(false);
  });
});

describe('streamed results', () => {
  it('are byte-identical run after run, and the canonical logs are the committed ones', async () => {
    const s = studyRoot('real');
    expect((await cli(['experiment', '--out', 'a'], s.root)).code).toBe(0);
    expect((await cli(['experiment', '--out', 'b'], s.root)).code).toBe(0);
    const files = filesUnder(s.path('a'));
    expect(files).toEqual(filesUnder(s.path('b')));
    // The manifest too: only run.json holds what differs between two runs.
    for (const f of files.filter((x) => x !== 'run.json'))
      expect(readFileSync(join(s.path('a'), f)).equals(readFileSync(join(s.path('b'), f))), f).toBe(true);
    expect({ ...manifestOf(s.path('a')), run: null }).toEqual({ ...manifestOf(s.path('b')), run: null });
    // The canonical fixtures' decision logs and point measures are those the committed results/ holds.
    for (const c of conditionNames()) {
      for (const f of ['decisions.jsonl', 'points.jsonl']) {
        expect(
          readFileSync(join(s.path('a'), c, f), 'utf8') === readFileSync(join('results', c, f), 'utf8'),
          `${c}/${f}`,
        ).toBe(true);
      }
    }
  });

  it('--check verifies compressed logs through their pins: a tampered one fails, an absent one passes', async () => {
    const s = studyRoot();
    const all = ['--decision-log', 'all'];
    expect((await cli(['experiment', '--out', 'out', ...all], s.root)).code).toBe(0);
    // Without --decision-log, --check verifies the run in the mode its manifest records.
    const ok = await cli(['experiment', '--out', 'out', '--check'], s.root);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const gz = join(outIn(s), 'ladder-0-3', 'decisions.generated.jsonl.gz');
    const text = gunzipSync(readFileSync(gz)).toString('utf8');
    const tampered = text.replace('"fixture":"gen-0001"', '"fixture":"gen-0009"');
    expect(tampered).not.toBe(text);
    writeFileSync(gz, gzipSync(tampered));
    const bad = await cli(['experiment', '--out', 'out', '--check', ...all], s.root);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('ladder-0-3/decisions.generated.jsonl.gz');
    writeFileSync(gz, 'not gzip');
    expect((await cli(['experiment', '--out', 'out', '--check', ...all], s.root)).stderr).toContain(
      'ladder-0-3/decisions.generated.jsonl.gz',
    );
    // A fresh clone lacks the git-ignored logs: --check then relies on the manifest's pins.
    for (const c of conditionNames())
      for (const f of ['decisions.generated.jsonl.gz', 'points.generated.jsonl.gz']) rmSync(join(outIn(s), c, f));
    const clone = await cli(['experiment', '--out', 'out', '--check', ...all], s.root);
    expect(clone.code).toBe(0);
    expect(clone.stdout).toContain(
      `${conditionNames().length * 2} compressed logs not present here, verified against their pinned sha256`,
    );
    // ...and a pin that does not match the regeneration fails even with the file absent.
    const m = JSON.parse(readFileSync(join(outIn(s), 'manifest.json'), 'utf8')) as {
      outputs: { file: string; sha256: string }[];
    };
    m.outputs.find((o) => o.file === 'raw/decisions.generated.jsonl.gz')!.sha256 = '0'.repeat(64);
    writeFileSync(join(outIn(s), 'manifest.json'), JSON.stringify(m, null, 2));
    const pin = await cli(['experiment', '--out', 'out', '--check', ...all], s.root);
    expect(pin.code).toBe(1);
    expect(pin.stderr).toContain(`raw/decisions.generated.jsonl.gz (manifest.json pins ${'0'.repeat(64)}`);
  });
});

describe('a failed run', () => {
  it('leaves no output folder behind when a condition breaks its contract mid-stream', async () => {
    const s = studyRoot();
    const policy = join(mkdtempSync(join(tmpdir(), 'prunelab-policy-')), 'bad.ts');
    writeFileSync(
      policy,
      `export default { name: 'bad', layer: 'A', rung: 0, version: '1', description: 'd', upperRisk: false,
      consultsObligations: false, parameters: {},
      decide: (view) => { if (view.fixtureId === 'gen-0001') throw new Error('boom'); return view.items.map((i) => ({ itemId: i.id, verdict: 'keep', rule: 'r', rung: 0, reason: 'k', obligationsConsulted: [] })); } };\n`,
    );
    const r = await cli(['experiment', '--out', 'out', '--policy', policy], s.root);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('boom');
    expect(existsSync(outIn(s))).toBe(false);
  });
});
