// The worker-thread side of a parallel study (./parallel.ts): parses and checks each fixture it is handed from the
// bytes the main thread read and hashed, runs every condition over it, and sends back each condition's lines (rendered, encoded and, for the bulk files, compressed) and
// totals for that fixture. It runs the same
// engine (streamStudy) over a one-fixture corpus, so a fixture's bytes do not depend on which thread ran it.
import { parentPort, workerData } from 'node:worker_threads';
import { tokenCounter } from '../accounting/tokens.js';
import { parseFixtureBytes } from '../load/fixtures.js';
import { getCondition } from '../policy/registry.js';
import type { Condition } from '../policy/types.js';
import type { FixtureDone, FixtureJob, WorkerSetup } from './parallel.js';
import { streamStudy, type Totals } from './run.js';
import { encodeChunk, renderChunk, type EncodedChunk, type EncodedText } from './write.js';

const setup = workerData as WorkerSetup;
const conditions = setup.conditions.map((name): Condition => {
  const c = getCondition(name);
  if (!c) throw new Error(`internal: condition ${name} is not in this worker's registry`);
  return c;
});

parentPort!.on('message', ({ index, read, bulk, records }: FixtureJob) => {
  let reply: FixtureDone;
  try {
    const loaded = parseFixtureBytes(read);
    const encoded: EncodedChunk[] = [];
    let totals: readonly Totals[] = [];
    streamStudy(
      {
        conditions,
        fixtures: [loaded],
        timing: setup.timing,
        placeholders: setup.placeholders,
        // A counter per fixture: a count is a function of the text, so threads agree, and a worker's memory then
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
        },
      },
      (t) => {
        totals = t;
      },
    );
    reply = { index, fixture: { id: loaded.fixture.id, families: [...loaded.fixture.families] }, encoded, totals };
  } catch (err) {
    const e = err as Error & { code?: string; exitCode?: number };
    reply = { index, error: { name: e.name, message: e.message, code: e.code, stack: e.stack } };
  }
  parentPort!.postMessage(reply, 'encoded' in reply ? ownBuffers(reply.encoded) : []);
});

/**
 * The buffers a reply can hand over rather than copy: those its bytes alone fill (a large text's). A view into a
 * larger or shared buffer (Buffer's pool holds small texts) is copied instead, since handing it over would take its
 * neighbours too.
 */
function ownBuffers(chunks: readonly EncodedChunk[]): ArrayBuffer[] {
  const pieces = chunks.flatMap((c): EncodedText[] => [c.decisions, c.points, c.rows]);
  return pieces
    .flatMap((p) => (p.member ? [p.text, p.member] : [p.text]))
    .filter((b) => b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer)
    .map((b) => b.buffer as ArrayBuffer);
}
