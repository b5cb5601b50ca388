// One fixture of a parallel study (./parallel.ts), run by whichever thread it is handed to: a worker thread
// (./worker.ts) or the main thread between its writes. Either runs the same engine (streamStudy) over a one-fixture
// corpus, with a token counter of its own, so a fixture's bytes do not depend on which thread ran it.
import { tokenCounter } from '../accounting/tokens.js';
import type { FixtureBytes } from '../load/fixtures.js';
import type { SharedLines } from '../pruners/blocking.js';
import { parseFixtureBytes } from '../load/fixtures.js';
import { getCondition } from '../policy/registry.js';
import type { Condition } from '../policy/types.js';
import type { Timing } from '../timing/timing.js';
import type { PlaceholderMode } from './placeholder.js';
import { streamStudy, type Totals } from './run.js';
import { encodeChunk, renderChunk, type EncodedChunk } from './write.js';

/** What every thread of a parallel run is set up with: the run's options, conditions by name. */
export interface WorkerSetup {
  readonly conditions: readonly string[];
  readonly timing: Timing;
  readonly placeholders: PlaceholderMode;
  readonly exploratory: boolean;
  /** Conditions stamped exploratory one by one in an otherwise confirmatory run. */
  readonly exploratoryConditions: readonly string[];
}

/**
 * What a worker thread is started with: the run's setup, and its lines to the main thread's blocking workers, so
 * that one package worker serves every thread (../pruners/blocking.ts).
 */
export interface WorkerStart {
  readonly setup: WorkerSetup;
  readonly blocking: SharedLines;
}

/**
 * A fixture handed to a thread: its place in the run, its bytes, whether its lines go to the compressed bulk files,
 * and whether its decision records are built at all.
 */
export interface FixtureJob {
  readonly index: number;
  readonly read: FixtureBytes;
  readonly bulk: boolean;
  readonly records: boolean;
  /**
   * The run's claims, one per fixture, shared by every thread: a fixture is run by the thread that claims it first
   * (see `claimJob`). Absent when one thread runs every job it is handed.
   */
  readonly claims?: Int32Array;
}

/** Who holds a fixture's claim: none yet, a worker thread, or the main thread, which may take a queued job back. */
export const CLAIM = { none: 0, worker: 1, main: 2 } as const;

/**
 * Whether this thread may run the job: it claims the fixture unless another thread already has. The main thread,
 * when it has nothing of its own to run, takes back jobs still waiting in a worker's queue; the worker then skips
 * them (`Skipped`).
 */
export function claimJob(job: Pick<FixtureJob, 'index' | 'claims'>, by: (typeof CLAIM)['worker' | 'main']): boolean {
  return job.claims === undefined || Atomics.compareExchange(job.claims, job.index, CLAIM.none, by) === CLAIM.none;
}

/** A worker's answer for a job another thread claimed first: nothing run, nothing to write. */
export interface Skipped {
  readonly index: number;
  readonly skipped: true;
}

/** What a run records of a fixture a thread parsed (the manifest lists it; ids must be unique across the run). */
export interface FixtureFacts {
  readonly id: string;
  readonly families: readonly string[];
}

/**
 * A thread's answer for one fixture: the fixture's facts and each condition's encoded lines and totals in the
 * conditions' order, or its error.
 */
export type FixtureDone =
  | {
      readonly index: number;
      readonly fixture: FixtureFacts;
      readonly encoded: readonly EncodedChunk[];
      readonly totals: readonly Totals[];
    }
  | {
      readonly index: number;
      readonly error: { name: string; message: string; code?: string | undefined; stack?: string | undefined };
    };

/** The setup's conditions, rebuilt from the registry by name (a worker thread has only the registry's own). */
export function setupConditions(setup: WorkerSetup): Condition[] {
  return setup.conditions.map((name): Condition => {
    const c = getCondition(name);
    if (!c) throw new Error(`internal: condition ${name} is not in this thread's registry`);
    return c;
  });
}

/** Parses and checks one fixture from its bytes, runs every condition over it, and renders and encodes the lines. */
export function runFixtureJob(
  { index, read, bulk, records }: FixtureJob,
  setup: WorkerSetup,
  conditions: readonly Condition[],
): FixtureDone {
  try {
    const loaded = parseFixtureBytes(read);
    const encoded: EncodedChunk[] = [];
    const totals: Totals[] = [];
    streamStudy(
      {
        conditions,
        fixtures: [loaded],
        timing: setup.timing,
        placeholders: setup.placeholders,
        // A counter per fixture: a count is a function of the text, so threads agree, and a thread's memory then
        // holds one fixture's texts rather than every text of the fixtures it has run.
        tokens: tokenCounter(),
        exploratory: setup.exploratory,
        exploratoryConditions: setup.exploratoryConditions,
        decisionRecords: () => records,
      },
      // streamStudy hands each fixture's chunks over in the conditions' order.
      {
        fixture: (chunk) => {
          const exploratory = setup.exploratory || setup.exploratoryConditions.includes(chunk.condition.name);
          encoded.push(encodeChunk(renderChunk(chunk, exploratory), bulk));
          totals.push(chunk.totals);
        },
      },
    );
    return { index, fixture: { id: loaded.fixture.id, families: [...loaded.fixture.families] }, encoded, totals };
  } catch (err) {
    const e = err as Error & { code?: string };
    return { index, error: { name: e.name, message: e.message, code: e.code, stack: e.stack } };
  }
}
