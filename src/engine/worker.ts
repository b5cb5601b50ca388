// The worker-thread side of a parallel study (./parallel.ts): runs every condition over the fixtures it is handed,
// one at a time, and sends back each condition's rendered lines and totals for that fixture. It runs the same
// engine (streamStudy) over a one-fixture corpus, so a fixture's bytes do not depend on which thread ran it.
import { parentPort, workerData } from 'node:worker_threads';
import { tokenCounter } from '../accounting/tokens.js';
import type { LoadedFixture } from '../fixture/load.js';
import { getCondition } from '../policy/registry.js';
import type { Condition } from '../policy/types.js';
import type { FixtureDone, WorkerSetup } from './parallel.js';
import { streamStudy, type Totals } from './run.js';
import { renderChunk, type RenderedChunk } from './write.js';

const setup = workerData as WorkerSetup;
const conditions = setup.conditions.map((name): Condition => {
  const c = getCondition(name);
  if (!c) throw new Error(`internal: condition ${name} is not in this worker's registry`);
  return c;
});
// One counter per thread: a count is a function of the text, so threads agree, and each caches what it has seen.
const tokens = tokenCounter();

parentPort!.on('message', ({ index, loaded }: { index: number; loaded: LoadedFixture }) => {
  let reply: FixtureDone;
  try {
    const rendered: RenderedChunk[] = [];
    let totals: readonly Totals[] = [];
    streamStudy(
      {
        conditions,
        fixtures: [loaded],
        timing: setup.timing,
        placeholders: setup.placeholders,
        tokens,
        exploratory: setup.exploratory,
        exploratoryConditions: setup.exploratoryConditions,
      },
      // streamStudy hands each fixture's chunks over in the conditions' order.
      {
        fixture: (chunk) =>
          rendered.push(
            renderChunk(chunk, setup.exploratory || setup.exploratoryConditions.includes(chunk.condition.name)),
          ),
      },
      (t) => {
        totals = t;
      },
    );
    reply = { index, rendered, totals };
  } catch (err) {
    const e = err as Error & { code?: string; exitCode?: number };
    reply = { index, error: { name: e.name, message: e.message, code: e.code, stack: e.stack } };
  }
  parentPort!.postMessage(reply);
});
