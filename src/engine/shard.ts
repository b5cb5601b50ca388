// Splitting a study across machines. Shard i of n runs a contiguous block of the fixtures in the order the loader
// gives them (sorted by file), so the shards' outputs, joined in shard order, are in the unsharded run's order.
// What a merge cannot read back from a shard's own outputs (the model calls charged to each condition) is kept
// beside them in shard.json; everything else (per-fixture measures, removals, point economics) is in the outputs.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { input, usage } from '../errors.js';
import { writeAtomic } from '../files/atomic.js';
import { ChatRequest, Usage } from '../providers/types.js';
import type { CallCharge } from '../providers/telemetry.js';
import { CacheEntry } from '../providers/cache.js';

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

export const SHARD_FILE = 'shard.json';

export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) throw usage('PL_USAGE_SHARD', text);
  return { index, count };
}

/** Shard i of n: fixtures [floor((i-1)N/n), floor(iN/n)) of the loaded order; sizes differ by at most one. */
export function selectShard<T>(fixtures: readonly T[], shard: Shard): T[] {
  const n = fixtures.length;
  return fixtures.slice(Math.floor(((shard.index - 1) * n) / shard.count), Math.floor((shard.index * n) / shard.count));
}

const Charge = z.strictObject({
  provider: z.string(),
  model: z.string(),
  failed: z.boolean(),
  request: ChatRequest.pick({ system: true, user: true }).optional(),
  call: z.strictObject({
    key: z.string(),
    outcome: CacheEntry.shape.outcome,
    latencyMs: z.int().nonnegative(),
    usage: Usage,
    costUsd: z.number().nullable(),
  }),
});

export const ShardRecord = z.strictObject({
  index: z.int().positive(),
  count: z.int().positive(),
  /** How many fixtures the whole run has: the merge checks the shards cover them. */
  fixtures: z.int().nonnegative(),
  /** Per condition, the model calls charged to it, in fixture order. */
  charges: z.record(z.string(), z.array(Charge)),
});
export type ShardRecord = z.infer<typeof ShardRecord>;

/** Records a finished shard beside its outputs; an unsharded run removes a record an earlier shard left there. */
export function writeShardRecord(outDir: string, record: ShardRecord | null): void {
  const file = join(outDir, SHARD_FILE);
  if (record) writeAtomic(file, `${JSON.stringify(record)}\n`);
  else rmSync(file, { force: true });
}

export function readShardRecord(dir: string): ShardRecord {
  const file = join(dir, SHARD_FILE);
  if (!existsSync(file)) throw input('PL_MERGE_BAD_SHARD', dir, `no ${SHARD_FILE} (run it with --shard i/n)`);
  const parsed = ShardRecord.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw input('PL_MERGE_BAD_SHARD', dir, `${SHARD_FILE}: ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

export function chargesRecord(
  names: readonly string[],
  charges: readonly (readonly CallCharge[])[],
): ShardRecord['charges'] {
  return Object.fromEntries(
    names.map((name, i) => [
      name,
      charges[i]!.map((c) => ({
        provider: c.provider,
        model: c.model,
        failed: c.failed,
        ...(c.request ? { request: { system: c.request.system, user: c.request.user } } : {}),
        call: {
          key: c.call.key,
          outcome: c.call.outcome,
          latencyMs: c.call.latencyMs,
          usage: c.call.usage,
          costUsd: c.call.costUsd,
        },
      })),
    ]),
  );
}
