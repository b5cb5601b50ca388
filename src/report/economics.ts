// The exploratory economics table: per condition and cache profile, tokens saved × price, cache loss, the policy's
// overhead and the net effect (src/economics/), and whether the outcome "reduction is large but overhead and cache
// effects remove the economic benefit" holds. Not preregistered, so stamped exploratory in its first line.
import { from } from 'arquero';
import type { Analysis, ConditionRow } from './analysis.js';
import { fixed, formatInterval, type ReportTable } from './tables.js';

export const ECONOMICS_TABLE = 'economics';
export const EXPLORATORY_TITLE =
  'EXPLORATORY (not preregistered): cache and timing economics per condition and cache profile';

export type EconomicVerdict = 'no reduction' | 'net win' | 'benefit removed' | 'unknown';

/**
 * Removing nothing is no reduction; a reduction whose net is not positive had its benefit removed by overhead and
 * cache effects; one whose every point's cache state was unknown cannot be judged.
 */
export function economicVerdict(e: ConditionRow['economics'][number]): EconomicVerdict {
  if (e.savedTokens <= 0) return 'no reduction';
  if (e.unknownPoints === e.points) return 'unknown';
  return e.net > 0 ? 'net win' : 'benefit removed';
}

/** No table when no condition recorded economics (results written before the model existed). */
export function economicsTables(a: Analysis): ReportTable[] {
  const rows = a.rows.flatMap((r) => r.economics.map((e) => ({ r, e })));
  if (rows.length === 0) return [];
  const units =
    "Amounts are base-input-token equivalents (tokens × the multiple of the base input price they are billed at); multiply by a model's input price for money.";
  const notes = [
    units,
    "Savings: tokens removed × base price on every request that carries the pruned context (the prune point's and the model calls after it until the next point). Cache loss: the rest of the bill's difference from raw (re-written prefixes, discounts lost). Overhead: the policy's own model tokens. Net = savings − cache loss − overhead = raw's bill − this condition's bill − overhead.",
    "Model limits: one request per prune point plus the model calls between points, each reading the whole previous prefix; cache entries at every entry boundary (Anthropic with one breakpoint at the end reuses less, so its loss here is a lower bound); output tokens untouched by pruning; the caching table's figures (src/economics/caching.json).",
    'Points whose times are synthetic (imported traces without clock times) add savings only and are counted as unknown.',
  ];
  const data = rows.map(({ r, e }) => ({
    exploratory: 'true',
    condition: r.condition,
    profile: e.profile,
    points: e.points,
    unknown_points: e.unknownPoints,
    token_reduction: fixed(r.reduction.estimate, 6),
    saved_tokens: e.savedTokens,
    savings: e.savings,
    cache_loss: e.cacheLoss,
    overhead: e.overhead,
    net: e.net,
    verdict: economicVerdict(e),
  }));
  const view = rows.map(({ r, e }) => ({
    condition: r.condition,
    profile: e.profile,
    'token reduction': formatInterval(r.reduction),
    'tokens saved': String(e.savedTokens),
    savings: String(e.savings),
    'cache loss': String(e.cacheLoss),
    overhead: String(e.overhead),
    net: String(e.net),
    verdict: economicVerdict(e) + (e.unknownPoints > 0 ? ` (${e.unknownPoints}/${e.points} points unknown)` : ''),
  }));
  return [{ name: ECONOMICS_TABLE, title: EXPLORATORY_TITLE, notes, data: from(data), view: from(view) }];
}
