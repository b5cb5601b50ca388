// Bills a prune point's request under one cache profile, for a condition and for raw on the same sequence, and
// splits the difference the chapter's way: tokens saved × price − cache loss − policy overhead.
import type { ModelledProfile } from './caching.js';
import type { EconomicsTotal, PointEconomics, ProfileBill } from './record.js';

/** One side (a condition, or raw) of a prune point's request. */
export interface Side {
  readonly previousTokens: number;
  readonly divergence: number;
  readonly sentTokens: number;
}

export interface PointInput {
  readonly condition: Side;
  readonly raw: Side;
  /** Seconds since the previous request (Infinity: none was sent); null when the fixture's times are not real (synthetic). */
  readonly gapSeconds: number | null;
  readonly followingRequests: number;
  readonly overheadTokens: number;
}

/** Amounts are kept to a thousandth of a token: multipliers such as 0.1 would otherwise print binary noise. */
const units = (x: number): number => Math.round(x * 1000) / 1000;

export interface SideBill {
  readonly read: number;
  readonly write: number;
  readonly cost: number;
}

/**
 * The provider's bill for one side. The cached prefix it can read is the part of the previous request before the
 * first divergence, if the previous request is younger than the TTL, cut to the profile's step, and at least the
 * minimum prefix; what follows it is written (when the request reaches the minimum) and read by every later request
 * before the next prune point, which an active loop sends within the TTL. The new items those later requests append
 * cost the same on both sides and are left out.
 */
export function billSide(profile: ModelledProfile, side: Side, alive: boolean, following: number): SideBill {
  let read = alive ? side.divergence : 0;
  if (profile.prefixStepTokens) read = Math.floor(read / profile.prefixStepTokens) * profile.prefixStepTokens;
  if (read < profile.minPrefixTokens) read = 0;
  const cacheable = side.sentTokens >= profile.minPrefixTokens;
  const write = cacheable ? side.sentTokens - read : 0;
  const uncached = side.sentTokens - read - write;
  const later = following * (cacheable ? side.sentTokens * profile.readMultiplier : side.sentTokens);
  return {
    read,
    write,
    cost: units(read * profile.readMultiplier + write * profile.writeMultiplier + uncached + later),
  };
}

export function billPoint(profile: ModelledProfile, input: PointInput): ProfileBill {
  const savedTokens = input.raw.sentTokens - input.condition.sentTokens;
  const savings = units(savedTokens * (1 + input.followingRequests));
  const overhead = input.overheadTokens;
  if (input.gapSeconds === null) {
    return {
      profile: profile.id,
      cacheAlive: 'UNKNOWN',
      cacheReadTokens: null,
      cacheWriteTokens: null,
      cost: null,
      rawCost: null,
      savings,
      cacheLoss: null,
      overhead,
      net: null,
    };
  }
  const alive = input.gapSeconds <= profile.ttlSeconds;
  const cond = billSide(profile, input.condition, alive, input.followingRequests);
  const raw = billSide(profile, input.raw, alive, input.followingRequests);
  return {
    profile: profile.id,
    cacheAlive: alive,
    cacheReadTokens: cond.read,
    cacheWriteTokens: cond.write,
    cost: cond.cost,
    rawCost: raw.cost,
    savings,
    cacheLoss: units(cond.cost - raw.cost + savings),
    overhead,
    net: units(raw.cost - cond.cost - overhead),
  };
}

/** Sums over prune points per profile, in the profiles' order; points whose cache state was unknown add savings only. */
export function poolEconomics(
  points: readonly (PointEconomics | undefined)[],
  profiles: readonly string[],
): EconomicsTotal[] {
  const totals = emptyEconomics(profiles);
  for (const p of points) addEconomics(totals, p);
  return totals;
}

/** Nothing pooled yet, per profile: poolEconomics of no points. */
export function emptyEconomics(profiles: readonly string[]): EconomicsTotal[] {
  return profiles.map((profile) => ({
    profile,
    points: 0,
    unknownPoints: 0,
    savedTokens: 0,
    savings: 0,
    cacheLoss: 0,
    overhead: 0,
    net: 0,
  }));
}

/**
 * Pools one more prune point into `totals`. Each sum is rounded as it goes, so the order counts: points added one by
 * one in run order give what poolEconomics gives for the whole list, and a run need not hold every point's record.
 */
export function addEconomics(totals: EconomicsTotal[], p: PointEconomics | undefined): void {
  if (!p) return;
  for (const total of totals) {
    const bill = p.cache.find((b) => b.profile === total.profile);
    if (!bill) continue;
    total.points += 1;
    total.savedTokens += p.rawRequestTokens - p.requestTokens;
    total.savings = units(total.savings + bill.savings);
    total.overhead = units(total.overhead + bill.overhead);
    if (bill.cacheLoss === null || bill.net === null) {
      total.unknownPoints += 1;
      continue;
    }
    total.cacheLoss = units(total.cacheLoss + bill.cacheLoss);
    total.net = units(total.net + bill.net);
  }
}
