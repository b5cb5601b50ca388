// Worker threads must not change a byte: the same fixtures through streamStudyParallel and through streamStudy on
// one thread give the same lines, in the same order, and the same summaries. And they must actually run in
// parallel: both workers are handed fixtures.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledTree } from '../../scripts/compiled.mjs';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { type ParallelOptions, WORKER_HEAP_MB } from '../../src/engine/parallel.js';
import { streamStudy } from '../../src/engine/run.js';
import { encodeChunk, renderChunk, type EncodedChunk, type EncodedText } from '../../src/engine/write.js';
import { fixtureFiles } from '../../src/fixture/load.js';
import { parseFixtureBytes, readFixtureFile } from '../../src/load/fixtures.js';
import { allConditions } from '../../src/policy/registry.js';
import { parseTiming } from '../../src/timing/timing.js';

// The workers are handed each fixture's bytes as read and hashed; the one-thread run parses the same bytes here.
const read = fixtureFiles('fixtures/canonical')
  .slice(0, 4)
  .map((f) => readFixtureFile(f, process.cwd()));
const fixtures = read.map((r) => parseFixtureBytes(r));
const conditions = allConditions();
// Half the fixtures go to compressed files, so the workers' gzip members are compared with this thread's too.
const bulk = (file: string) => fixtures.findIndex((f) => f.file === file) % 2 === 1;

const piece = (p: EncodedText) =>
  `${Buffer.from(p.text).toString('utf8')}|${p.member ? Buffer.from(p.member).toString('base64') : '-'}`;
const line = (condition: string, file: string, c: EncodedChunk) =>
  `${condition}|${file}|${piece(c.decisions)}|${piece(c.points)}|${piece(c.rows)}`;

// The worker runs are the compiled copy's (scripts/compiled.mjs, as npm run experiment runs them), compared with the
// sources' one-thread run: a worker started from the sources loads them through tsx, about 0.9 s against 0.45 s, and
// each run here starts its own. Workers started from the sources run in test/cli/bad-inputs.test.ts's two-thread
// cases and in test/scripts/launch.test.ts's comparison.
type Parallel = typeof import('../../src/engine/parallel.js');
let streamStudyParallel: Parallel['streamStudyParallel'];
let startStudyWorkers: Parallel['startStudyWorkers'];
let workerSetup: Parallel['workerSetup'];
let release = () => {};
beforeAll(async () => {
  const tree = await compiledTree(resolve(import.meta.dirname, '..', '..'));
  release = tree.release;
  const url = pathToFileURL(join(tree.dir, 'src', 'engine', 'parallel.js')).href;
  ({ streamStudyParallel, startStudyWorkers, workerSetup } = (await import(/* @vite-ignore */ url)) as Parallel);
});
afterAll(() => release());

/** A run's worker setup, as the command line builds it to start its workers ahead. */
const setup = (exploratory: boolean) =>
  workerSetup({ conditions, timing: parseTiming('immediate'), placeholders: 'marker', exploratory });

const serialRuns = new Map<boolean, ReturnType<typeof runSerial>>();
/** The one-thread run the worker runs are compared with, made once per flag for the whole file. */
function serial(exploratory: boolean) {
  if (!serialRuns.has(exploratory)) serialRuns.set(exploratory, runSerial(exploratory));
  return serialRuns.get(exploratory)!;
}

function runSerial(exploratory: boolean) {
  const lines: string[] = [];
  const summaries = streamStudy(
    {
      conditions,
      fixtures,
      timing: parseTiming('immediate'),
      placeholders: 'marker',
      tokens: tokenCounter(),
      exploratory,
    },
    {
      fixture: (chunk) => {
        const t = encodeChunk(renderChunk(chunk, exploratory), bulk(chunk.loaded.file));
        lines.push(line(chunk.condition.name, chunk.loaded.file, t));
      },
    },
  );
  return { lines, summaries };
}

async function parallel(
  workers: number,
  exploratory: boolean,
  of = read,
  more: Pick<ParallelOptions, 'workerHeapMb' | 'takeBack' | 'started'> = {},
) {
  const lines: string[] = [];
  const ran: [number, 'main' | 'worker'][] = [];
  const replaced: (number | null)[] = [];
  const progress: number[] = [];
  const facts: [number, string, readonly string[]][] = [];
  const summaries = await streamStudyParallel(
    {
      conditions,
      fixtures: of,
      timing: parseTiming('immediate'),
      placeholders: 'marker',
      tokens: tokenCounter(),
      exploratory,
      workers,
      ...more,
      onRun: (index, thread) => ran.push([index, thread]),
      onWorkerReplaced: (mb) => replaced.push(mb),
      onFixture: (index, f) => facts.push([index, f.id, f.families]),
      onProgress: (done, total) => {
        expect(total).toBe(of.length);
        progress.push(done);
      },
    },
    { bulk, encoded: (condition: string, file: string, t: EncodedChunk) => lines.push(line(condition, file, t)) },
  );
  return { lines, summaries, progress, replaced, facts, ran };
}

describe('the study over worker threads', () => {
  it('writes the same lines in the same order and gives the same summaries as one thread', async () => {
    for (const exploratory of [false, true]) {
      const one = serial(exploratory);
      // The worker is started ahead, as a run of the command line starts it, and adopted by the run.
      const ahead = startStudyWorkers(setup(exploratory), 1);
      // Each fixture stays on the thread it was handed to: all four fit in the worker's queue, so the worker runs
      // them all and its bytes are the ones compared.
      const two = await parallel(2, exploratory, read, { takeBack: false, started: ahead });
      expect(two.ran).toEqual(fixtures.map((_, i) => [i, 'worker']));
      // Adopted, so none is left to adopt again; the run stopped it when it ended.
      expect(ahead.adopt(setup(exploratory), WORKER_HEAP_MB)).toEqual([]);
      expect(two.lines.length).toBe(conditions.length * fixtures.length);
      expect(two.lines).toEqual(one.lines);
      expect(JSON.stringify(two.summaries)).toBe(JSON.stringify(one.summaries));
      // Progress is reported once per fixture, in order, after it is written.
      expect(two.progress).toEqual(fixtures.map((_, i) => i + 1));
      // The default heap limit holds these fixtures: no worker was replaced.
      expect(two.replaced).toEqual([]);
      // Each fixture's id and families, as its worker parsed them, are told in fixture order (the manifest lists them).
      expect(two.facts).toEqual(fixtures.map((f, i) => [i, f.fixture.id, f.fixture.families]));
    }
  });

  it('takes back what a worker has not started instead of waiting, and runs each fixture once', async () => {
    // All four fixtures fit in the worker's queue, so this thread is handed none: whatever it runs, it took back.
    const run = await parallel(2, false);
    expect(run.ran.map(([index]) => index).sort()).toEqual(fixtures.map((_, i) => i));
    expect(run.ran.some(([, thread]) => thread === 'main')).toBe(true);
    expect(run.lines).toEqual(serial(false).lines);
    expect(run.progress).toEqual(fixtures.map((_, i) => i + 1));
  });

  it('gives the same bytes with more workers than fixtures, and with one', async () => {
    const one = serial(false);
    // Two fixtures and three workers asked for: each worker started loads the sources again (a second or two of CPU),
    // so the clamp to one worker per fixture is checked on two fixtures rather than on all four.
    const two = read.slice(0, 2);
    const ofTwo = one.lines.filter((l) => two.some((f) => l.split('|')[1] === f.file));
    expect(ofTwo.length).toBe(conditions.length * two.length);
    expect((await parallel(two.length + 1, false, two)).lines).toEqual(ofTwo);
    expect((await parallel(1, false)).lines).toEqual(one.lines);
  });

  it('gives workers started ahead only to a run of their setup and heap limit, once, and closes the rest', async () => {
    const ahead = startStudyWorkers(setup(true), 1);
    // Not this run's: another exploratory flag, another limit. A run given them starts its own.
    expect(ahead.adopt(setup(false), WORKER_HEAP_MB)).toEqual([]);
    expect(ahead.adopt(setup(true), WORKER_HEAP_MB / 2)).toEqual([]);
    // Their own setup and limit: handed over, once.
    const adopted = ahead.adopt(setup(true), WORKER_HEAP_MB);
    expect(adopted.length).toBe(1);
    expect(ahead.adopt(setup(true), WORKER_HEAP_MB)).toEqual([]);
    await Promise.all(adopted.map(({ worker }) => worker.terminate()));
    // Closed before any run asked: none is left for a run to adopt.
    const unused = startStudyWorkers(setup(true), 1);
    await unused.close();
    expect(unused.adopt(setup(true), WORKER_HEAP_MB)).toEqual([]);
  });

  it('replaces a worker that outgrows its heap limit by one with twice the limit, and gives the same bytes', async () => {
    // 16 MB of old space cannot hold the engine and a fixture's work, so the workers run out and are replaced. The
    // fixtures stay on the workers: taken back, all four could be run here before any worker ran out.
    const small = await parallel(2, false, read, { workerHeapMb: 16, takeBack: false });
    expect(small.replaced.length).toBeGreaterThan(0);
    // Each successor doubles its predecessor's limit: 32, 64, ... MB, or none once that reaches V8's default.
    for (const mb of small.replaced)
      expect(mb === null || (mb > 16 && Number.isInteger(Math.log2(mb / 16)))).toBe(true);
    expect(small.lines).toEqual(serial(false).lines);
    expect(small.progress).toEqual(fixtures.map((_, i) => i + 1));
  });

  it('leaves what this thread took back out of the jobs a worker that ran out of memory hands back', async () => {
    // 4 MB cannot even load the engine: the worker runs out before it claims a fixture, and again at 8 MB and so on.
    // This thread has taken back the job a worker would reach last before any worker can fail (its first turn comes
    // before any worker's message), so each failure hands back jobs this thread has already claimed, and must not
    // hand those out again.
    const run = await parallel(2, false, read, { workerHeapMb: 4 });
    expect(run.replaced.length).toBeGreaterThan(0);
    const byMain = run.ran.filter(([, thread]) => thread === 'main').map(([index]) => index);
    expect(byMain).toContain(fixtures.length - 1);
    // Once per fixture on this thread, and never again on a worker.
    expect(new Set(byMain).size).toBe(byMain.length);
    for (const [index, thread] of run.ran) if (thread === 'worker') expect(byMain).not.toContain(index);
    expect(new Set(run.ran.map(([index]) => index)).size).toBe(fixtures.length);
    expect(run.lines).toEqual(serial(false).lines);
    expect(run.progress).toEqual(fixtures.map((_, i) => i + 1));
  });

  it('fails with the error of a worker started ahead that failed while loading, once a run adopts it', async () => {
    // A condition this thread has and a worker's registry does not: the worker fails on loading, before any run.
    const stranger = { ...conditions[0]!, name: 'not-in-the-registry' };
    const strangers = workerSetup({
      conditions: [stranger],
      timing: parseTiming('immediate'),
      placeholders: 'marker',
      exploratory: false,
    });
    const [early] = startStudyWorkers(strangers, 1).adopt(strangers, WORKER_HEAP_MB);
    await new Promise((done) => early!.worker.once('exit', done));
    expect(early!.error?.message).toMatch(/not-in-the-registry is not in this thread's registry/);
    // Handed to a run as it failed: the run fails with that error rather than wait for a worker that is gone.
    await expect(
      streamStudyParallel(
        {
          conditions: [stranger],
          fixtures: read.slice(0, 2),
          timing: parseTiming('immediate'),
          placeholders: 'marker',
          tokens: tokenCounter(),
          workers: 2,
          started: { adopt: () => [early!], close: async () => {} },
        },
        { bulk, encoded: () => {} },
      ),
    ).rejects.toThrow(/not-in-the-registry is not in this thread's registry/);
  });

  it("fails with the worker's error instead of hanging, having written only the fixtures before it", async () => {
    // A fixture with no item list fails its checks inside the worker; the error, typed and naming the file and
    // field, must reach the caller.
    const json = JSON.parse(Buffer.from(read[2]!.raw).toString('utf8'));
    const raw = Buffer.from(JSON.stringify({ ...json, items: null }));
    const broken = read.map((f, i) => (i === 2 ? { ...f, raw } : f));
    const written: string[] = [];
    await expect(
      streamStudyParallel(
        {
          conditions,
          fixtures: broken,
          timing: parseTiming('immediate'),
          placeholders: 'marker',
          tokens: tokenCounter(),
          workers: 2,
          // The worker runs what it was handed, the broken fixture included, so its error is the one that must arrive.
          takeBack: false,
        },
        { bulk, encoded: (_c: string, file: string) => written.push(file) },
      ),
    ).rejects.toMatchObject({
      code: 'PL_FIXTURE_FIELD',
      message: expect.stringContaining(`${read[2]!.file}: fixture, field "items"`),
    });
    // What came before the broken fixture was written in order; nothing after it.
    expect([...new Set(written)]).toEqual(fixtures.slice(0, 2).map((f) => f.file));
  });
});
