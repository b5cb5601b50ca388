// Runs the study over several threads, fixture by fixture, and writes in fixture order on this thread: the output is
// byte for byte that of streamStudy on one thread. N threads are this one and N - 1 worker threads (./worker.ts); each
// runs whole fixtures (./fixture-job.ts): it parses and checks the fixture from the bytes this thread read and hashed
// (../load/fixtures.ts, FixtureBytes), runs every condition, and renders, encodes and compresses the lines; this
// thread hashes and writes the bytes in order between its own fixtures. The parsed corpus is never held whole, and a
// fixture that fails its checks fails the run when the writer reaches it. Only built-in conditions and the embedded
// (call-free) models run here: a worker rebuilds each condition from the registry by name, and a model-backed or
// sandboxed condition runs with streamStudy on this thread alone.
import { availableParallelism } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { Summary } from '../artifacts/schema.js';
import { EMBEDDED_STUDY } from '../behaviour/study.js';
import { InputError, PrunelabError, RunError, UsageError } from '../errors.js';
import type { FixtureBytes } from '../load/fixtures.js';
import {
  CLAIM,
  claimJob,
  runFixtureJob,
  type FixtureDone,
  type FixtureFacts,
  type FixtureJob,
  type Skipped,
  type WorkerSetup,
  type WorkerStart,
} from './fixture-job.js';
import { shareLines } from '../pruners/blocking.js';
import type { MessageCode } from '../messages.js';
import { getCondition } from '../policy/registry.js';
import type { Condition } from '../policy/types.js';
import { siblingModule } from '../files/sibling-module.js';
import { addTotals, emptyTotals, summarise, type RunTotals, type StudyOptions } from './run.js';
import type { EncodedChunk } from './write.js';

export type { FixtureDone, FixtureFacts, FixtureJob, WorkerSetup, WorkerStart } from './fixture-job.js';

/**
 * Worker threads a run uses by default: one per core, at most this many, since each holds its own copy of the
 * engine and of the fixtures it is running (a few tens of MB) and the writer on the main thread becomes the bound.
 */
export const MAX_DEFAULT_WORKERS = 8;

/**
 * Starting a worker (its own engine, loaded and compiled) costs about what running a few small fixtures does, so by
 * default a run uses workers only when each would get at least this many fixtures.
 */
export const MIN_FIXTURES_PER_WORKER = 16;

/** The worker threads a run of `fixtures` fixtures uses: the number asked for, else one per core when that pays. */
export function workersFor(requested: number | undefined, fixtures: number): number {
  if (requested !== undefined) return requested;
  const cores = Math.max(1, Math.min(availableParallelism(), MAX_DEFAULT_WORKERS));
  return fixtures >= cores * MIN_FIXTURES_PER_WORKER ? cores : 1;
}

/** Where a parallel run's lines go, fixture by fixture in fixture order (a RunWriter). */
export interface EncodedSink {
  bulk(fixtureFile: string): boolean;
  encoded(condition: string, fixtureFile: string, chunk: EncodedChunk): void;
}

export interface ParallelOptions extends Omit<StudyOptions, 'models' | 'fixtures' | 'decisionRecords'> {
  /** The fixtures as read and hashed, in run order; each is parsed and checked by the worker that runs it. */
  readonly fixtures: readonly FixtureBytes[];
  /** Whether a fixture's decision records are built (see StudyOptions); every fixture's when absent. */
  readonly decisionRecords?: (fixture: { readonly file: string }) => boolean;
  /** Told on this thread, in fixture order, what each fixture is once its worker parsed it. */
  readonly onFixture?: (index: number, facts: FixtureFacts) => void;
  readonly workers: number;
  /** Each worker's starting old-space limit in MB (WORKER_HEAP_MB when absent), null for none. */
  readonly workerHeapMb?: number | null;
  /** Told when a worker ran out of memory and was replaced, with its successor's limit (null: none). */
  readonly onWorkerReplaced?: (heapMb: number | null) => void;
  /** Called on this thread after each fixture is written: how many of how many are done. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Workers started ahead of the run (`startStudyWorkers`); adopted when their setup and limit are the run's. */
  readonly started?: StartedWorkers;
  /**
   * Whether this thread takes back, when it has nothing of its own to run, the jobs a worker has not started (true
   * unless told otherwise). The bytes are the same either way; false keeps each fixture on the thread it was handed to.
   */
  readonly takeBack?: boolean;
  /** Told which thread ran each fixture, as its answer arrives. */
  readonly onRun?: (index: number, thread: 'main' | 'worker') => void;
}

/** Whether these conditions can run in worker threads: every one is the registry's own definition. */
export function parallelizable(conditions: readonly Condition[]): boolean {
  return conditions.every((c) => getCondition(c.name) === c);
}

/**
 * The old-space limit (MB) a worker starts with. A worker holds one fixture's work at a time, but V8 left to itself
 * lets each heap grow to several hundred MB of garbage before collecting; this limit makes it collect sooner. It is
 * not a limit on what a fixture may need: a worker that runs out is replaced by one with twice the limit.
 */
export const WORKER_HEAP_MB = 256;

/** A worker thread, the old-space limit it was started with (null: V8's default), and the fixtures it was handed. */
interface Slot {
  worker: Worker;
  limit: number | null;
  readonly jobs: number[];
}

/** V8's default heap limit on this machine (MB): a worker limit at or past it is no limit. */
function defaultHeapMb(): number {
  return getHeapStatistics().heap_size_limit / 2 ** 20;
}

/**
 * Fixtures a thread may be ahead of the writer by: bounds what waits in memory for an earlier, slower fixture (about
 * 1 MB each, encoded). It is wide because this thread cannot hand out work while it runs a fixture itself: with 3, a
 * slow fixture here (the study's take up to 0.8 s) left the worker idle about 5 s of a 23 s run.
 */
const WINDOW_PER_THREAD = 16;

/**
 * Fixtures a worker holds at once, the one it runs included: enough queued to last while this thread runs one of its
 * own (a fixture takes about 85 ms on average, the study's slowest up to 0.8 s). With 6 a worker ran dry for 0.3 to
 * 0.6 s two or three times a run, behind one slow fixture here; a deep queue no longer keeps the last fixtures from
 * spreading over every thread, since this thread takes back at the end what a worker has not started (`takeBack`).
 */
const QUEUE_PER_WORKER = 14;

/**
 * The study over `options.workers` threads (at most one per fixture); summaries in the conditions' order, as
 * streamStudy gives them. Fixtures are handed out in order as workers free up, and written in order as they arrive.
 */
export async function streamStudyParallel(
  options: ParallelOptions,
  sink: EncodedSink,
  onTotals?: (totals: readonly RunTotals[]) => void,
): Promise<Summary[]> {
  const { fixtures, conditions } = options;
  // N threads are this one and N - 1 workers: this thread runs fixtures too, between its writes, which saves a
  // worker's start-up and memory (its own engine, heap and loaders) and keeps both cores busy.
  const threads = Math.max(1, Math.min(options.workers, fixtures.length));
  const setup = workerSetup(options);
  const totals = conditions.map(emptyTotals);
  const firstLimit = startingLimit(options.workerHeapMb);
  const early = options.started?.adopt(setup, firstLimit) ?? [];
  const slots: Slot[] = [];
  let pending: NodeJS.Immediate | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const waiting = new Map<number, FixtureDone>();
      const claims = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * fixtures.length));
      // Fixtures handed out again after their worker ran out of memory, lowest first.
      const retry: number[] = [];
      let sent = 0;
      let written = 0;
      let failed = false;
      const fail = (err: Error) => {
        if (failed) return;
        failed = true;
        reject(err);
      };
      const job = (index: number): FixtureJob => {
        const read = fixtures[index] as FixtureBytes;
        return {
          index,
          read,
          bulk: sink.bulk(read.file),
          records: options.decisionRecords?.(read) ?? true,
          claims,
        };
      };
      // The next fixture to hand out: one handed back first, else the next in order within the window ahead of the
      // writer.
      const next = (): number | undefined =>
        retry.shift() ?? (sent < fixtures.length && sent - written < WINDOW_PER_THREAD * threads ? sent++ : undefined);
      // With nothing of its own to run (every fixture handed out, or the window full behind a slow fixture), this
      // thread takes back the job a worker would reach last (the highest one queued and unclaimed) rather than wait:
      // a worker's queue, deep enough to last while this thread runs a fixture, otherwise left this thread idle for
      // the run's last second or so, and behind each slow fixture of a worker, while the worker worked through it.
      const takeBack = (): number | undefined => {
        if (options.takeBack === false) return undefined;
        let last: number | undefined;
        for (const slot of slots)
          for (const i of slot.jobs)
            if (Atomics.load(claims, i) === CLAIM.none && (last === undefined || i > last)) last = i;
        return last;
      };
      const post = (slot: Slot, index: number) => {
        // The bytes are copied, not handed over: a worker that runs out of memory leaves its fixtures to another.
        slot.worker.postMessage(job(index) satisfies FixtureJob);
        slot.jobs.push(index);
      };
      // Workers are filled a level at a time, so that each gets work before any gets a deep queue.
      const feed = () => {
        for (let depth = 1; depth <= QUEUE_PER_WORKER; depth += 1)
          for (const slot of slots) {
            if (slot.jobs.length >= depth) continue;
            const index = next();
            if (index !== undefined) post(slot, index);
          }
      };
      const drain = () => {
        for (let done = waiting.get(written); done; done = waiting.get(written)) {
          waiting.delete(written);
          if ('error' in done) throw rebuilt(done.error);
          options.onFixture?.(written, done.fixture);
          const file = fixtures[written]!.file;
          done.encoded.forEach((chunk, i) => sink.encoded(conditions[i]!.name, file, chunk));
          done.totals.forEach((t, i) => addTotals(totals[i]!, t));
          written += 1;
          options.onProgress?.(written, fixtures.length);
        }
      };
      const accept = (done: FixtureDone) => {
        waiting.set(done.index, done);
        drain();
        feed();
        if (written === fixtures.length) resolve();
        else here();
      };
      // This thread's share: one fixture per turn of the event loop, so the workers' answers are written between.
      const here = () => {
        if (pending || failed) return;
        pending = setImmediate(() => {
          pending = undefined;
          if (failed) return;
          // A job never sent, or handed back for retry, is unclaimed; one taken back may have been started meanwhile.
          let mine: FixtureJob | undefined;
          for (let index = next() ?? takeBack(); index !== undefined && !mine; index = takeBack()) {
            const candidate = job(index);
            if (claimJob(candidate, CLAIM.main)) mine = candidate;
          }
          if (!mine) return;
          try {
            options.onRun?.(mine.index, 'main');
            accept(runFixtureJob(mine, setup, conditions));
          } catch (err) {
            fail(err as Error);
          }
        });
      };
      const start = (slot: Slot) => {
        const adopted = slot.limit === firstLimit ? early.shift() : undefined;
        const w = adopted?.worker ?? startWorker(setup, slot.limit);
        slot.worker = w;
        w.on('message', (done: FixtureDone | Skipped) => {
          if (failed) return;
          try {
            slot.jobs.splice(slot.jobs.indexOf(done.index), 1);
            // This thread took the job back and answers for it itself.
            if ('skipped' in done) return;
            options.onRun?.(done.index, 'worker');
            accept(done);
          } catch (err) {
            fail(err as Error);
          }
        });
        w.on('error', (err: Error & { code?: string }) => {
          if (failed) return;
          // A worker whose heap outgrew its limit is replaced by one with twice the limit (none past V8's own
          // default), which runs that worker's fixtures again: the limit bounds memory, and never fails a run.
          if (err.code !== 'ERR_WORKER_OUT_OF_MEMORY' || slot.limit === null) return fail(err);
          // Its jobs go to the next thread free, except those this thread took back and runs itself.
          const lost = slot.jobs.splice(0).filter((i) => Atomics.load(claims, i) !== CLAIM.main);
          for (const i of lost) Atomics.store(claims, i, CLAIM.none);
          retry.push(...lost);
          retry.sort((a, b) => a - b);
          slot.limit = bounded(slot.limit * 2);
          options.onWorkerReplaced?.(slot.limit);
          start(slot);
          feed();
          here();
        });
        w.on('exit', (code) => {
          if (slot.worker === w && written < fixtures.length)
            fail(new Error(`internal: a study worker exited (code ${code}) before the end`));
        });
        // A worker started ahead that failed while loading fails (or is replaced) now, as if it had just failed.
        if (adopted?.error) w.emit('error', adopted.error);
      };
      for (let i = 1; i < threads; i += 1) {
        const slot: Slot = { worker: undefined as unknown as Worker, limit: firstLimit, jobs: [] };
        slots.push(slot);
        start(slot);
      }
      feed();
      here();
    });
  } finally {
    if (pending) clearImmediate(pending);
    await Promise.all([...slots.map((s) => s.worker.terminate()), ...early.map((e) => e.worker.terminate())]);
  }
  onTotals?.(totals);
  return conditions.map((c, i) => summarise(c, options, EMBEDDED_STUDY.reader, totals[i]!));
}

/** What each thread of a run with these options is set up with. */
export function workerSetup(
  options: Pick<ParallelOptions, 'conditions' | 'timing' | 'placeholders' | 'exploratory' | 'exploratoryConditions'>,
): WorkerSetup {
  return {
    conditions: options.conditions.map((c) => c.name),
    timing: options.timing,
    placeholders: options.placeholders,
    exploratory: options.exploratory ?? false,
    exploratoryConditions: options.exploratoryConditions ?? [],
  };
}

/** A worker's starting old-space limit (MB, null for none) for a run asking for `workerHeapMb`. */
function startingLimit(workerHeapMb: number | null | undefined): number | null {
  return bounded(workerHeapMb === undefined ? WORKER_HEAP_MB : workerHeapMb);
}

/** A worker's old-space limit as given to V8: one at or past V8's own default is no limit. */
function bounded(mb: number | null): number | null {
  return mb === null || mb >= defaultHeapMb() ? null : mb;
}

/** A worker started ahead of its run, and the error it failed with while waiting, if it did. */
interface EarlyWorker {
  readonly worker: Worker;
  error?: Error;
}

/**
 * Worker threads started before a run has read its fixtures. Loading a worker's engine takes about as long as reading
 * and hashing the corpus (1 to 1.5 s here), so the two overlap instead of following each other. The workers hold no
 * fixture until the run hands them one; whatever no run adopts is stopped by `close`.
 */
export interface StartedWorkers {
  /** The workers, if they were started with this setup and heap limit; none otherwise (the run starts its own). */
  adopt(setup: WorkerSetup, heapMb: number | null): EarlyWorker[];
  /** Stops every worker no run adopted. */
  close(): Promise<void>;
}

/** Starts `count` study workers for a run of this setup (`ParallelOptions.started`), each with its starting limit. */
export function startStudyWorkers(setup: WorkerSetup, count: number, workerHeapMb?: number | null): StartedWorkers {
  const heapMb = startingLimit(workerHeapMb);
  let waiting: EarlyWorker[] = Array.from({ length: count }, () => {
    const early: EarlyWorker = { worker: startWorker(setup, heapMb) };
    // Until a run adopts it, a worker neither keeps the process alive nor turns a failure into an uncaught one.
    early.worker.unref();
    early.worker.once('error', (err) => {
      early.error ??= err;
    });
    return early;
  });
  const key = JSON.stringify(setup);
  return {
    adopt(wanted, limit) {
      if (JSON.stringify(wanted) !== key || limit !== heapMb) return [];
      const adopted = waiting;
      waiting = [];
      for (const { worker } of adopted) worker.ref();
      return adopted;
    },
    async close() {
      const left = waiting;
      waiting = [];
      await Promise.all(left.map(({ worker }) => worker.terminate()));
    },
  };
}

/**
 * A worker on ./worker.ts. Run from TypeScript sources (tsx, vitest), the worker registers tsx's loader itself before
 * importing its entry, since a worker does not inherit the loader its parent was started with.
 */
function startWorker(setup: WorkerSetup, heapMb: number | null): Worker {
  const entry = siblingModule(import.meta.url, 'worker');
  const fromSource = entry.pathname.endsWith('.ts');
  // Its own line to each of this thread's blocking workers (a package's isolate), rather than one of its own.
  const { lines, transfer } = shareLines();
  const options = {
    workerData: { setup, blocking: lines } satisfies WorkerStart,
    transferList: [...transfer],
    ...(heapMb === null ? {} : { resourceLimits: { maxOldGenerationSizeMb: heapMb } }),
  };
  if (!fromSource) return new Worker(entry, options);
  const api = import.meta.resolve('tsx/esm/api');
  const boot = `import { register } from ${JSON.stringify(api)}; register(); await import(${JSON.stringify(entry.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), options);
}

/** A worker's error as this thread would have thrown it: typed errors keep their class, code and message. */
function rebuilt(e: Extract<FixtureDone, { error: unknown }>['error']): Error {
  const typed = { UsageError, InputError, RunError } as const;
  const Class = typed[e.name as keyof typeof typed];
  const err: Error = Class && e.code ? new Class(e.code as MessageCode, e.message) : new Error(e.message);
  if (!(err instanceof PrunelabError) && e.stack) err.stack = e.stack;
  return err;
}
