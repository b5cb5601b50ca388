// A smoke run's subset of the fixtures: --filter keeps the fixtures whose id matches a glob (`*` any run of
// characters, `?` one) or that list a family (`family:NAME`), any filter sufficing; --limit then keeps the first N in
// file order. A subset is never the preregistered study, so the caller stamps the run exploratory and says why.
import { usage } from '../errors.js';
import type { LoadedFixture } from '../fixture/load.js';

export interface Selection {
  readonly filters: readonly string[];
  readonly limit: number | null;
}

export const FAMILY_PREFIX = 'family:';

function globPattern(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

/** Whether one --filter value selects a fixture. */
export function matchesFilter(filter: string, fixture: { id: string; families: readonly string[] }): boolean {
  if (filter.startsWith(FAMILY_PREFIX)) return fixture.families.includes(filter.slice(FAMILY_PREFIX.length));
  return globPattern(filter).test(fixture.id);
}

export const isSubset = (s: Selection) => s.filters.length > 0 || s.limit !== null;

/** Why a subset departs from the study, for the exploratory stamp; empty for the whole set. */
export function selectionDeparture(s: Selection): string {
  const parts = [
    ...(s.filters.length > 0 ? [`--filter ${s.filters.join(', ')}`] : []),
    ...(s.limit !== null ? [`--limit ${s.limit}`] : []),
  ];
  return parts.length === 0 ? '' : `${parts.join(' and ')} runs a subset of the fixtures (a smoke run)`;
}

/** The selected fixtures in file order; a usage error when the filters match none. */
export function selectFixtures(loaded: readonly LoadedFixture[], s: Selection): LoadedFixture[] {
  const kept =
    s.filters.length === 0
      ? [...loaded]
      : loaded.filter((f) => s.filters.some((filter) => matchesFilter(filter, f.fixture)));
  if (kept.length === 0) throw usage('PL_USAGE_FILTER_NONE', s.filters, loaded.length);
  return limited(kept, s.limit);
}

/** The first `limit` in file order (all when null): what --limit keeps, and all a selection without --filter does. */
export function limited<T>(list: readonly T[], limit: number | null): T[] {
  return limit === null ? [...list] : list.slice(0, limit);
}
