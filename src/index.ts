// The package's library surface (`import { runStudy } from 'prunelab'`): the study as one call, and the small policy
// interface a condition or a mechanism is written against. Everything else in src/ is the command line's and may
// change without notice; what is exported here is what a consumer's code may rely on.
import { resolve } from 'node:path';
import { tokenCounter } from './accounting/tokens.js';
import { runStudy as runInMemory, type ConditionRun } from './engine/run.js';
import type { PlaceholderMode } from './engine/placeholder.js';
import { usage } from './errors.js';
import { loadFixtures } from './load/fixtures.js';
import { allConditions, conditionNames, getCondition } from './policy/registry.js';
import type { Condition } from './policy/types.js';
import { parseTiming } from './timing/timing.js';

export interface RunStudyOptions {
  /** A fixture .json file, or a folder searched recursively (oracles/ folders excluded), relative to `cwd`. */
  readonly fixtures: string;
  /** Built-in condition names (see `conditionNames()`) or your own Condition objects; every built-in when absent. */
  readonly conditions?: readonly (string | Condition)[];
  /** As the experiment's --timing: immediate (the default), pressure:<share>, task-boundary, cache-safe[:<profile>]. */
  readonly timing?: string;
  /** As the experiment's --placeholders: marker (the default) or none. */
  readonly placeholders?: PlaceholderMode;
  /** The folder `fixtures` is read from and the records' file paths are relative to; the process's when absent. */
  readonly cwd?: string;
}

/**
 * Runs conditions over fixtures in memory and returns, per condition, its decision records, per-point measures and
 * summary: what `prunelab experiment` writes, without writing. Every summary is stamped exploratory, because a
 * library call is not checked against the preregistration (only `prunelab experiment` on the default fixtures is).
 */
export function runStudy(options: RunStudyOptions): ConditionRun[] {
  const cwd = options.cwd ?? process.cwd();
  const conditions = (options.conditions ?? allConditions()).map((c) => {
    if (typeof c !== 'string') return c;
    const found = getCondition(c);
    if (!found) throw usage('PL_USAGE_UNKNOWN_CONDITION', c, conditionNames());
    return found;
  });
  return runInMemory({
    conditions,
    fixtures: loadFixtures(resolve(cwd, options.fixtures), cwd),
    timing: parseTiming(options.timing ?? 'immediate'),
    placeholders: options.placeholders ?? 'marker',
    tokens: tokenCounter(),
    exploratory: true,
  });
}

export type { ConditionRun } from './engine/run.js';
export type { PlaceholderMode } from './engine/placeholder.js';
export { allConditions, conditionNames, getCondition } from './policy/registry.js';
export * from './policy/public.js';
export { ConditionDefinition, defineCondition, type BuildContext } from './policy/definition.js';
export type { Timing } from './timing/timing.js';
export type { Fixture, Item, Oracle } from './fixture/schema.js';
export type { LoadedFixture } from './fixture/load.js';
export { loadFixtures } from './load/fixtures.js';
export type { Decision, DecisionRecord, PointMeasures, Summary } from './artifacts/schema.js';
export { PrunelabError } from './errors.js';
