// The request-sequence model: each prune point is a request at its logical time, and the request before it is what
// the runtime last sent. Before the first prune point nothing was pruned, so that request is the raw context; after
// a prune point, the runtime kept sending that point's pruned context with the new items appended.
import type { ViewItem } from '../fixture/view.js';
import type { ModelledProfile } from './caching.js';
import { billPoint, type PointInput } from './bill.js';
import type { PointEconomics } from './record.js';

/** One entry of a request as sent: an item, or what its removal left behind. */
export interface RequestEntry {
  readonly id: string;
  readonly text: string;
  readonly tokens: number;
}

export function tokensOf(entries: readonly RequestEntry[]): number {
  return entries.reduce((s, e) => s + e.tokens, 0);
}

export function rawEntries(items: readonly ViewItem[]): RequestEntry[] {
  return items.map((i) => ({ id: i.id, text: i.content, tokens: i.tokens }));
}

const seconds = (iso: string): number => Date.parse(iso) / 1000;

/**
 * When the runtime last sent a request before this prune point: the request that produced the newest model item in
 * context (the model answers each request; tool results and user messages arrive without one), or the previous prune
 * point's own request if that was later. Null when the model has not been called yet: nothing is cached. A runtime
 * knows its own last request; this is the part of it the view shows.
 */
export function previousRequestTime(
  view: { readonly items: readonly Pick<ViewItem, 'time' | 'origin'>[] },
  previousPointTime: string | null,
): string | null {
  let latest = previousPointTime;
  for (const item of view.items)
    if (item.origin === 'model' && (latest === null || seconds(item.time) > seconds(latest))) latest = item.time;
  return latest;
}

export function secondsBetween(earlier: string, later: string): number {
  return seconds(later) - seconds(earlier);
}

/**
 * The token index of the first entry that differs between two requests, with the tokens counted entry by entry as
 * the accounting counts them (so a divergence sits at an entry boundary). A request that only appends to the
 * previous one diverges at the previous one's length.
 */
export function firstDivergence(previous: readonly RequestEntry[], next: readonly RequestEntry[]): number {
  let tokens = 0;
  for (let i = 0; i < previous.length; i += 1) {
    const a = previous[i]!;
    const b = next[i];
    if (!b || a.id !== b.id || a.text !== b.text) return tokens;
    tokens += a.tokens;
  }
  return tokens;
}

/** The request the runtime sent last before a prune point: the previous point's request with the new items appended. */
export function previousRequest(
  previousSent: readonly RequestEntry[] | null,
  previousRaw: readonly RequestEntry[] | null,
  raw: readonly RequestEntry[],
): RequestEntry[] {
  if (!previousSent || !previousRaw) return [...raw];
  const seen = new Set(previousRaw.map((e) => e.id));
  return [...previousSent, ...raw.filter((e) => !seen.has(e.id))];
}

/**
 * Model calls after a prune point's turn and before the next point's (or to the trajectory's end): each turn in
 * which the model produced an item is one call. Accounting only, never shown to a policy.
 */
export function followingRequests(
  items: readonly { turn: number; origin: string }[],
  fromTurn: number,
  untilTurn: number | null,
): number {
  const turns = new Set<number>();
  for (const i of items)
    if (i.origin === 'model' && i.turn > fromTurn && (untilTurn === null || i.turn < untilTurn)) turns.add(i.turn);
  return turns.size;
}

/** One prune point of one condition, as the engine has it after applying the point's removals. */
export interface PointRequestInput {
  readonly time: string;
  /** Null: no request was sent before this point, so nothing is cached. */
  readonly previousRequestTime: string | null;
  readonly raw: readonly RequestEntry[];
  readonly sent: readonly RequestEntry[];
  readonly followingRequests: number;
  readonly overheadTokens: number;
}

/**
 * The economics of every prune point of one fixture under one condition, in prune-point order. `timesKnown` is
 * false for a trace whose times count items rather than clock time: whether a cache was still alive is then UNKNOWN.
 */
export function sequenceEconomics(
  points: readonly PointRequestInput[],
  profiles: readonly ModelledProfile[],
  timesKnown: boolean,
): PointEconomics[] {
  const out: PointEconomics[] = [];
  let previousSent: readonly RequestEntry[] | null = null;
  let previousRaw: readonly RequestEntry[] | null = null;
  for (const p of points) {
    const previous = previousRequest(previousSent, previousRaw, p.raw);
    const rawPrevious = previousRequest(previousRaw, previousRaw, p.raw);
    const divergence = firstDivergence(previous, p.sent);
    const previousTokens = tokensOf(previous);
    const input: PointInput = {
      condition: { previousTokens, divergence, sentTokens: tokensOf(p.sent) },
      raw: {
        previousTokens: tokensOf(rawPrevious),
        divergence: firstDivergence(rawPrevious, p.raw),
        sentTokens: tokensOf(p.raw),
      },
      gapSeconds: !timesKnown
        ? null
        : p.previousRequestTime === null
          ? Infinity
          : secondsBetween(p.previousRequestTime, p.time),
      followingRequests: p.followingRequests,
      overheadTokens: p.overheadTokens,
    };
    out.push({
      previousRequest: { time: p.previousRequestTime, tokens: previousTokens },
      requestTokens: input.condition.sentTokens,
      rawRequestTokens: input.raw.sentTokens,
      firstDivergence: divergence,
      reusablePrefixLost: previousTokens - divergence,
      followingRequests: p.followingRequests,
      cache: profiles.map((profile) => billPoint(profile, input)),
    });
    previousSent = p.sent;
    previousRaw = p.raw;
  }
  return out;
}
