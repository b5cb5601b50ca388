// Record/replay of model calls. An entry is keyed by sha256 over the canonical JSON of provider, model and the exact
// request, so any change to a prompt, a setting or the model makes a new key. Each entry is its own file, written
// atomically the moment its call returns: an interrupted or budget-stopped run loses no paid call.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeAtomic } from '../files/atomic.js';
import { failure } from '../errors.js';
import { canonicalJson, sha256 } from '../fixture/canonical.js';
import { ChatRequest, ChatResponse } from './types.js';

export const CACHE_MODES = ['record', 'replay', 'off'] as const;
export type CacheMode = (typeof CACHE_MODES)[number];

export const CacheEntry = z.strictObject({
  key: z.string(),
  provider: z.string(),
  model: z.string(),
  request: ChatRequest,
  /** What the call ended with: a response, or the error after its last attempt (errors are results too). */
  outcome: z.union([
    z.strictObject({ ok: z.literal(true), response: ChatResponse }),
    z.strictObject({ ok: z.literal(false), kind: z.string(), message: z.string() }),
  ]),
  attempts: z.int().positive(),
  /** Wall-clock latency of the recorded call, replayed as recorded so a replayed study writes the same numbers. */
  latencyMs: z.int().nonnegative(),
});
export type CacheEntry = z.infer<typeof CacheEntry>;

export function cacheKey(provider: string, model: string, request: ChatRequest): string {
  return sha256(canonicalJson({ provider, model, request }));
}

export class CallCache {
  constructor(readonly dir: string) {}

  private file(key: string): string {
    return join(this.dir, `${key}.json`);
  }

  /** The stored entry, undefined when there is none; a corrupt entry is an error naming its file. */
  read(key: string): CacheEntry | undefined {
    const file = this.file(key);
    if (!existsSync(file)) return undefined;
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw failure('PL_LLM_CACHE_CORRUPT', file, (err as Error).message);
    }
    const parsed = CacheEntry.safeParse(json);
    if (!parsed.success)
      throw failure(
        'PL_LLM_CACHE_CORRUPT',
        file,
        `field "${parsed.error.issues[0]!.path.join('.')}": ${parsed.error.issues[0]!.message}`,
      );
    if (parsed.data.key !== key) throw failure('PL_LLM_CACHE_CORRUPT', file, `it holds key ${parsed.data.key}`);
    return parsed.data;
  }

  write(entry: CacheEntry): void {
    writeAtomic(this.file(entry.key), `${JSON.stringify(entry, null, 2)}\n`);
  }
}
