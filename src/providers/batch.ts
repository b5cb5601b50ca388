// Model calls through a provider's batch interface (about half the price, hours instead of minutes). The requests a
// phase will make are known before it makes them, so the ones the cache does not hold are submitted as one batch,
// the batch id is recorded in the cache folder before any polling (so a restarted run resumes the same batch
// instead of paying again), and every result is written into the same record/replay cache the interactive calls
// use. The phase then runs through the gateway as usual and finds every call stored: a batched run, its replay and
// an interactive run with the same answers write the same bytes.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { failure } from '../errors.js';
import { writeAtomic } from '../files/atomic.js';
import { notices } from '../messages.js';
import { type CacheEntry, type CallCache, cacheKey } from './cache.js';
import type { ChatRequest, RemoteProvider } from './types.js';

/** One request of a batch: its custom id is the request's cache key, so a result files itself. */
export interface BatchItem {
  readonly key: string;
  readonly request: ChatRequest;
}

export interface BatchStatus {
  /** The provider's own word for the batch's state. */
  readonly status: string;
  /** No further result will come: collect now. */
  readonly ended: boolean;
  readonly done: number;
  readonly failed: number;
  readonly total: number;
}

/** A result per custom id: the response, or why that request failed. */
export type BatchOutcome = CacheEntry['outcome'];

/** One provider's batch interface, reached through its SDK (./batch-openai.ts, ./batch-anthropic.ts). */
export interface BatchBackend {
  readonly provider: RemoteProvider;
  readonly model: string;
  submit(items: readonly BatchItem[]): Promise<string>;
  status(id: string): Promise<BatchStatus>;
  results(id: string): Promise<Map<string, BatchOutcome>>;
}

/** What a restarted run needs to find its batch: written atomically before the first poll. */
const BatchState = z.strictObject({
  provider: z.string(),
  model: z.string(),
  role: z.string(),
  id: z.string().min(1),
  keys: z.array(z.string()),
});
type BatchState = z.infer<typeof BatchState>;

export function batchStateFile(cacheDir: string, role: string): string {
  return join(cacheDir, `batch-${role}.json`);
}

function readState(file: string): BatchState | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return BatchState.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (err) {
    throw failure('PL_BATCH_STATE_CORRUPT', file, (err as Error).message.split('\n')[0] ?? 'unreadable');
  }
}

export interface BatchRun {
  readonly backend: BatchBackend;
  readonly cache: CallCache;
  /** Names the phase in the state file and the progress lines ('predictor', 'reader'). */
  readonly role: string;
  readonly pollMs: number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly progress: (line: string) => void;
}

/**
 * Submits the requests the cache holds no successful call for (each once), or resumes the batch a stopped run
 * recorded for them, polls until it ends, and stores every result in the cache. Returns how many were collected.
 */
export async function fillFromBatch(
  run: BatchRun,
  requests: readonly ChatRequest[],
): Promise<{ collected: number; failed: number }> {
  const { backend, cache, role } = run;
  const pending = new Map<string, ChatRequest>();
  for (const request of requests) {
    const key = cacheKey(backend.provider, backend.model, request);
    if (pending.has(key)) continue;
    const stored = cache.read(key);
    if (stored?.outcome.ok) continue;
    pending.set(key, request);
  }
  const file = batchStateFile(cache.dir, role);
  if (pending.size === 0) {
    rmSync(file, { force: true });
    return { collected: 0, failed: 0 };
  }
  const state = readState(file);
  // The recorded batch serves this phase when it was sent for every request still missing (some may be collected).
  const resumable =
    state &&
    state.provider === backend.provider &&
    state.model === backend.model &&
    state.role === role &&
    [...pending.keys()].every((k) => state.keys.includes(k));
  let id: string;
  if (resumable) {
    id = state.id;
    run.progress(notices.batchResumed(role, id, pending.size));
  } else {
    const items = [...pending].map(([key, request]) => ({ key, request }));
    id = await backend.submit(items);
    writeAtomic(
      file,
      `${JSON.stringify({ provider: backend.provider, model: backend.model, role, id, keys: [...pending.keys()] } satisfies BatchState, null, 2)}\n`,
    );
    run.progress(notices.batchSubmitted(role, id, items.length));
  }
  for (;;) {
    const s = await backend.status(id);
    run.progress(notices.batchProgress(role, id, s.status, s.done, s.failed, s.total));
    if (s.ended) break;
    await run.sleep(run.pollMs);
  }
  const results = await backend.results(id);
  let collected = 0;
  let failed = 0;
  for (const [key, request] of pending) {
    const outcome = results.get(key);
    if (!outcome) continue;
    // A batch has no per-call latency; 0 is recorded, and replayed, for every batched call.
    cache.write({ key, provider: backend.provider, model: backend.model, request, outcome, attempts: 1, latencyMs: 0 });
    if (outcome.ok) collected += 1;
    else failed += 1;
  }
  if (collected + failed === 0) throw failure('PL_BATCH_FAILED', id, (await backend.status(id)).status);
  rmSync(file, { force: true });
  run.progress(notices.batchCollected(role, id, collected, failed));
  return { collected, failed };
}
