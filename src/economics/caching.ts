// The dated prompt-caching table (caching.json beside this file): per provider and model family, how long a cached
// prefix lives, what a write and a read cost as multiples of the base input price, and the shortest prefix a
// provider caches. Every figure names the page it was read from; one no source confirmed is null.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const Known = <T extends z.ZodType>(t: T) => t.nullable();

export const CacheProfile = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/),
  provider: z.enum(['anthropic', 'openai', 'google']),
  family: z.string().min(1),
  models: z.array(z.string().min(1)),
  /** explicit: the caller marks breakpoints (Anthropic); automatic: the provider caches prefixes itself. */
  mode: z.enum(['explicit', 'automatic']),
  ttlSeconds: Known(z.int().positive()),
  refreshOnHit: Known(z.boolean()),
  writeMultiplier: Known(z.number().nonnegative()),
  readMultiplier: Known(z.number().nonnegative()),
  minPrefixTokens: Known(z.int().positive()),
  /** A cache hit covers a multiple of this many tokens (OpenAI: 128); null: any length. */
  prefixStepTokens: z.int().positive().nullable(),
  sources: z.array(z.strictObject({ url: z.string().min(1), date: z.iso.date(), says: z.string().min(1) })).min(1),
});
export type CacheProfile = z.infer<typeof CacheProfile>;

export const CachingTable = z.strictObject({
  retrieved: z.iso.date(),
  note: z.string(),
  profiles: z.array(CacheProfile).min(1),
});
export type CachingTable = z.infer<typeof CachingTable>;

/** A profile with every figure the request-sequence model needs. */
export type ModelledProfile = CacheProfile & {
  readonly ttlSeconds: number;
  readonly writeMultiplier: number;
  readonly readMultiplier: number;
  readonly minPrefixTokens: number;
};

export const CACHING_FILE = join(dirname(fileURLToPath(import.meta.url)), 'caching.json');

let loaded: CachingTable | undefined;

export function cachingTable(): CachingTable {
  loaded ??= CachingTable.parse(JSON.parse(readFileSync(CACHING_FILE, 'utf8')));
  return loaded;
}

export function isModelled(p: CacheProfile): p is ModelledProfile {
  return p.ttlSeconds !== null && p.writeMultiplier !== null && p.readMultiplier !== null && p.minPrefixTokens !== null;
}

/** The profiles the economics model can bill, in the table's order; the others are listed with what they lack. */
export function modelledProfiles(table: CachingTable = cachingTable()): ModelledProfile[] {
  return table.profiles.filter(isModelled);
}

export function cacheProfile(id: string, table: CachingTable = cachingTable()): CacheProfile | undefined {
  return table.profiles.find((p) => p.id === id);
}

/** What a profile lacks for the model, for saying why it is not billed. */
export function missingFigures(p: CacheProfile): string[] {
  const fields = ['ttlSeconds', 'writeMultiplier', 'readMultiplier', 'minPrefixTokens'] as const;
  return fields.filter((f) => p[f] === null);
}
