// The worker-thread side of a parallel study (./parallel.ts): runs each fixture it is handed (./fixture-job.ts) and
// sends back the fixture's facts, each condition's encoded lines and its totals.
import { parentPort, workerData } from 'node:worker_threads';
import { adoptLines } from '../pruners/blocking.js';
import {
  CLAIM,
  claimJob,
  runFixtureJob,
  setupConditions,
  type FixtureJob,
  type Skipped,
  type WorkerStart,
} from './fixture-job.js';
import type { EncodedChunk, EncodedText } from './write.js';

const { setup, blocking } = workerData as WorkerStart;
adoptLines(blocking);
const conditions = setupConditions(setup);

parentPort!.on('message', (job: FixtureJob) => {
  if (!claimJob(job, CLAIM.worker))
    return parentPort!.postMessage({ index: job.index, skipped: true } satisfies Skipped);
  const reply = runFixtureJob(job, setup, conditions);
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
