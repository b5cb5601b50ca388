// What a run records about reuse and economic effect: the chapter's optional decision-record fields (first
// divergence, reuse, economic effect), kept per prune point because they belong to the request, not to one item.
// Amounts are in base-input-token equivalents (tokens × the multiple of the base input price they are billed at),
// so they do not depend on any one model's price; multiply by a model's input price for money.
import { z } from 'zod';

export const UNOBSERVED = z.literal('UNKNOWN');

/** One cache profile's billing of one prune point's request, against raw (no pruning) on the same sequence. */
export const ProfileBill = z.strictObject({
  profile: z.string(),
  /** Whether the previous request's prefix was still cached: UNKNOWN when the fixture's times are not real. */
  cacheAlive: z.union([z.boolean(), UNOBSERVED]),
  cacheReadTokens: z.int().nonnegative().nullable(),
  cacheWriteTokens: z.int().nonnegative().nullable(),
  /** Billed cost of this request and the ones that follow it until the next prune point, this condition and raw. */
  cost: z.number().nullable(),
  rawCost: z.number().nullable(),
  /** Tokens saved × base price over every request that carries the pruned context. */
  savings: z.number(),
  /** The part of the cost difference the cache explains: lost discounts and re-writes (positive is a loss). */
  cacheLoss: z.number().nullable(),
  overhead: z.number(),
  /** rawCost − cost − overhead: positive is an economic win. */
  net: z.number().nullable(),
});

export const PointEconomics = z.strictObject({
  /** When the runtime last sent a request (null: never, nothing cached) and its length in tokens. */
  previousRequest: z.strictObject({ time: z.string().nullable(), tokens: z.int().nonnegative() }),
  requestTokens: z.int().nonnegative(),
  /** The same request with nothing removed: raw's request at this prune point. */
  rawRequestTokens: z.int().nonnegative(),
  /** Token index at which this request first differs from the previous one (its length when it only appends). */
  firstDivergence: z.int().nonnegative(),
  /** Tokens of the previous request after the first divergence: structurally reusable, lost to this request. */
  reusablePrefixLost: z.int().nonnegative(),
  /** Model calls after this prune point and before the next (or the trajectory's end), each carrying this context. */
  followingRequests: z.int().nonnegative(),
  cache: z.array(ProfileBill),
});

export const EconomicsTotal = z.strictObject({
  profile: z.string(),
  /** Prune points billed, and those whose cache state was not observable (left out of the sums but savings). */
  points: z.int().nonnegative(),
  unknownPoints: z.int().nonnegative(),
  savedTokens: z.int(),
  savings: z.number(),
  cacheLoss: z.number(),
  overhead: z.number(),
  net: z.number(),
});

/** A run's provider-reported cache tokens against the model's prediction for the same calls (providers/cache-telemetry.ts). */
export const CacheTelemetry = z.strictObject({
  profile: z.string(),
  calls: z.int().nonnegative(),
  /** Calls whose reported reads and writes are within the tokenizer tolerance of the prediction. */
  agreeing: z.int().nonnegative(),
  predictedRead: z.int().nonnegative(),
  observedRead: z.int().nonnegative(),
  predictedWrite: z.int().nonnegative(),
  observedWrite: z.int().nonnegative(),
});

export type CacheTelemetry = z.infer<typeof CacheTelemetry>;
export type ProfileBill = z.infer<typeof ProfileBill>;
export type PointEconomics = z.infer<typeof PointEconomics>;
export type EconomicsTotal = z.infer<typeof EconomicsTotal>;
