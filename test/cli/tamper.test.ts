// As a user meets them: a results folder edited by hand, a condition folder with a file no run wrote, and the
// leftovers of a run killed before and during its swap. report and publish refuse a folder that is not what its
// manifest pins; the next run, report or publish clears a dead run's leftovers; --check names them.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledTree } from '../../scripts/compiled.mjs';
import { recoverDebris } from '../../src/files/atomic.js';
import { cli } from '../support/cli.js';
import { writeFixture } from '../support/minimal.js';
import { copyResults } from '../report/support.js';
import { deadPid, tree } from '../support/debris.js';
import { PAUSE_DIR } from '../support/pause-writes.mjs';

const tmp = (what: string) => mkdtempSync(join(tmpdir(), `prunelab-${what}-`));

const noRunJson = (t: Record<string, string>) =>
  Object.fromEntries(Object.entries(t).filter(([f]) => f !== 'run.json'));

describe('report and publish verify a results folder against its manifest', () => {
  it('refuse a summary whose false prunes were edited to 0, naming the file, and write nothing', async () => {
    const dir = copyResults();
    const file = join(dir, 'ladder-0-4', 'summary.json');
    const text = readFileSync(file, 'utf8');
    const edited = text.replace(/("falsePruneRate": \{\s*"numerator": )\d+/, '$10');
    expect(edited).not.toBe(text);
    writeFileSync(file, edited);
    const r = await cli(['report', '--results', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[PL_RESULTS_UNVERIFIED]');
    expect(r.stderr).toMatch(
      /ladder-0-4\/summary\.json: changed: manifest\.json pins sha256 [0-9a-f]{64}, the file has [0-9a-f]{64}/,
    );
    expect(r.stderr).not.toContain('unexpected failure');
    expect(readdirSync(dir)).not.toContain('tables');
    const out = join(tmp('bundle'), 'bundle');
    const p = await cli(['publish', '--results', dir, '--out', out, '--allow-exploratory']);
    expect(p.code).toBe(2);
    expect(p.stderr).toContain('ladder-0-4/summary.json: changed');
    expect(existsSync(out)).toBe(false);
  });

  it('refuse a file in a condition folder that the manifest does not list, and a missing points.csv', async () => {
    const dir = copyResults();
    writeFileSync(join(dir, 'raw', 'notes.txt'), 'mine');
    rmSync(join(dir, 'ladder-0', 'points.csv'));
    const r = await cli(['report', '--results', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('raw/notes.txt: extra: in a condition folder but not in manifest.json');
    expect(r.stderr).toContain('ladder-0/points.csv: missing');
  });

  // The other side of the rule, that an untouched folder is accepted, is test/report/report.test.ts's "accepts the
  // untouched folder": its CLI report over a sample of the committed results is the one the determinism check runs.
});

describe('a run killed before or during its swap', () => {
  it('leaves debris that --check names and the next run removes, saying so', async () => {
    const { dir } = writeFixture();
    const out = tmp('out');
    expect((await cli(['experiment', '--fixtures', dir, '--out', out, '--condition', 'raw,ladder-0'])).code).toBe(0);
    const clean = tree(out);
    const pid = deadPid();
    // What a kill during the streaming leaves: a half-written staging folder, and a set-aside folder of a swap.
    mkdirSync(join(out, `.staging-${pid}`, 'raw'), { recursive: true });
    writeFileSync(join(out, `.staging-${pid}`, 'raw', 'decisions.jsonl'), '{"half": ');
    cpSync(join(out, 'ladder-0'), join(out, `ladder-0.old-${pid}`), { recursive: true });
    writeFileSync(join(out, 'raw', 'notes.md'), 'mine');
    const check = await cli(['experiment', '--check', '--fixtures', dir, '--out', out, '--condition', 'raw,ladder-0']);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`.staging-${pid}: left by a writer (process ${pid})`);
    expect(check.stderr).toContain(`ladder-0.old-${pid}: left by a writer`);
    expect(check.stderr).toContain('raw/notes.md: extra: in a condition folder but not in manifest.json');
    rmSync(join(out, 'raw', 'notes.md'));
    const again = await cli(['experiment', '--fixtures', dir, '--out', out, '--condition', 'raw,ladder-0']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`removed .staging-${pid}, ladder-0.old-${pid}`);
    expect(noRunJson(tree(out))).toEqual(noRunJson(clean));
    expect(
      (await cli(['experiment', '--check', '--fixtures', dir, '--out', out, '--condition', 'raw,ladder-0'])).code,
    ).toBe(0);
  });

  it('mid-swap: the folder contradicts its manifest until the next report finishes the committed swap', async () => {
    const { dir } = writeFixture();
    const [out, next] = [tmp('out'), tmp('next')];
    expect((await cli(['experiment', '--fixtures', dir, '--out', out, '--condition', 'raw,ladder-0'])).code).toBe(0);
    expect(
      (
        await cli([
          'experiment',
          '--fixtures',
          dir,
          '--out',
          next,
          '--condition',
          'raw,ladder-0',
          '--placeholders',
          'none',
        ])
      ).code,
    ).toBe(0);
    const pid = deadPid();
    // The second run, as its writer stood when killed: everything staged, the journal committed, one folder moved.
    const staging = join(out, `.staging-${pid}`);
    mkdirSync(staging);
    for (const f of ['raw', 'ladder-0', 'EXPLORATORY.md', 'manifest.json'])
      cpSync(join(next, f), join(staging, f), { recursive: true });
    const steps = [
      { move: 'ladder-0' },
      { move: 'raw' },
      { move: 'EXPLORATORY.md' },
      { remove: 'INCOMPLETE.md' },
      { move: 'manifest.json' },
    ];
    writeFileSync(join(staging, 'SWAP.json'), `${JSON.stringify({ pid, steps }, null, 2)}\n`);
    renameSync(join(out, 'ladder-0'), join(out, `ladder-0.old-${pid}`));
    renameSync(join(staging, 'ladder-0'), join(out, 'ladder-0'));
    const check = await cli(['experiment', '--check', '--fixtures', dir, '--out', out, '--condition', 'raw,ladder-0']);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('ladder-0/decisions.jsonl');
    expect(check.stderr).toContain(`.staging-${pid}`);
    const r = await cli(['report', '--results', out]);
    expect(r.stderr).toContain(`finished the committed swap in .staging-${pid}`);
    expect(r.code).toBe(0);
    const done = tree(out);
    for (const [f, text] of Object.entries(tree(next))) if (f !== 'run.json') expect(done[f], f).toBe(text);
    expect(Object.keys(done).filter((f) => f.includes(`${pid}`))).toEqual([]);
  });

  it('before the commit point: the old results stand and the staging folder goes', async () => {
    const { dir } = writeFixture();
    const out = tmp('out');
    expect((await cli(['experiment', '--fixtures', dir, '--out', out, '--condition', 'raw'])).code).toBe(0);
    const before = tree(out);
    const pid = deadPid();
    cpSync(join(out, 'raw'), join(out, `.staging-${pid}`, 'raw'), { recursive: true });
    writeFileSync(join(out, `.staging-${pid}`, 'raw', 'summary.json'), '{}');
    const r = await cli(['report', '--results', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`removed .staging-${pid}`);
    const after = tree(out);
    for (const [f, text] of Object.entries(before)) expect(after[f], f).toBe(text);
  });

  // One run, paused before each change it makes to its folder (test/support/pause-writes.mjs): while it waits, the
  // folder is what a kill -9 at that moment leaves, so a copy taken then is that kill's folder, and the run is killed
  // for real at the last moment. Five runs killed after fixed delays (0.4 to 3.6 s) cost five starts and mostly fell
  // before the run had written anything or after it had finished; these moments are each phase of the swap. The run
  // is the compiled copy's, as npm run experiment starts it (scripts/compiled.mjs): from the sources, tsx would load
  // them first, a second and a half more.
  it('a real kill -9 at every phase of the swap: after the next report the folder is the old run or the new one, whole', async () => {
    const { dir } = writeFixture();
    const [before, after] = [tmp('before'), tmp('after')];
    const conditions = ['--condition', 'raw,ladder-0,ladder-0-3'];
    expect((await cli(['experiment', '--fixtures', dir, '--out', before, ...conditions])).code).toBe(0);
    expect(
      (await cli(['experiment', '--fixtures', dir, '--out', after, ...conditions, '--placeholders', 'none'])).code,
    ).toBe(0);
    const results = (d: string) =>
      Object.fromEntries(Object.entries(tree(d)).filter(([f]) => !/^(run\.json|tables\/|charts\/)/.test(f)));
    const out = tmp('out');
    cpSync(before, out, { recursive: true });
    const compiled = await compiledTree(resolve(import.meta.dirname, '..', '..'));
    const child = spawn(
      process.execPath,
      [
        '--import',
        './test/support/pause-writes.mjs',
        join(compiled.dir, 'src', 'cli', 'bin.js'),
        'experiment',
        '--fixtures',
        dir,
        '--out',
        out,
        ...conditions,
        '--placeholders',
        'none',
      ],
      { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'], env: { ...process.env, [PAUSE_DIR]: out } },
    );
    const exited = once(child, 'exit');
    const [changes, resume] = [child.stdio[3] as Readable, child.stdio[4] as Writable];
    const staging = join(out, `.staging-${child.pid}`);
    // The phase a paused run stands in: not yet writing, staging, committed (the journal written, nothing moved
    // aside), swapping (an old entry moved aside); the kill comes at the second pause while swapping, with one
    // entry replaced and its old copy not yet removed.
    const phase = () =>
      !existsSync(staging)
        ? 'writing'
        : !existsSync(join(staging, 'SWAP.json'))
          ? 'staged'
          : readdirSync(out).some((f) => f.endsWith(`.old-${child.pid}`))
            ? 'swapping'
            : 'committed';
    const copies = new Map<string, string>();
    let swapping = 0;
    for await (const _ of createInterface({ input: changes })) {
      const now = phase();
      if (now === 'swapping' && (swapping += 1) === 2) {
        child.kill('SIGKILL');
        break;
      }
      // The last pause before the commit (staging complete, the journal not yet in place); the first of the others.
      if (now === 'staged' || !copies.has(now)) {
        const copy = copies.get(now) ?? tmp(now);
        rmSync(copy, { recursive: true, force: true });
        cpSync(out, copy, { recursive: true });
        copies.set(now, copy);
      }
      resume.write('x');
    }
    const [, signal] = await exited;
    compiled.release();
    expect(signal, 'the run was killed while swapping').toBe('SIGKILL');
    expect([...copies.keys()].sort()).toEqual(['committed', 'staged', 'swapping', 'writing']);
    // Before the commit point the old results stand; from it on, the next report finishes the swap. What a report
    // does with a dead run's debris is its first step, recoverDebris (src/cli/io.ts, clearDebris), so each folder is
    // recovered as a report would recover it and compared whole; then the report runs end to end over the last folder
    // on each side (the real kill's and the last before the commit point) and accepts what the recovery left. Its
    // tables and charts, which a report over each of the five folders drew, are no part of what is compared.
    const expected: [string, string, 'old' | 'new', boolean][] = [
      ['writing', copies.get('writing')!, 'old', false],
      ['staged', copies.get('staged')!, 'old', true],
      ['committed', copies.get('committed')!, 'new', false],
      ['swapping', copies.get('swapping')!, 'new', false],
      ['killed', out, 'new', true],
    ];
    for (const [moment, folder, side, reported] of expected) {
      if (reported) {
        const r = await cli(['report', '--results', folder]);
        expect(r.code, `killed ${moment}: ${r.stderr}`).toBe(0);
      } else recoverDebris(folder);
      expect(results(folder), `killed ${moment}: the ${side} run, whole`).toEqual(
        results(side === 'old' ? before : after),
      );
    }
  }, 120_000);
});
