// How a field default stated in tokens is carried over to a prune point whose budget is much smaller than the
// model window the default was written for. The published numbers assume a window of ASSUMED_WINDOW tokens (the
// 200,000-token window of the Claude models these defaults ship with); the scaled variant keeps each threshold's
// share of that window and applies it to the prune point's budgetTokens, so 100,000 of 200,000 becomes
// 0.5 × budgetTokens. Counts (tool uses kept, turns, events) are not tokens and are never scaled.
import { defineCondition, type ConditionDefinition } from '../definition.js';

/** The model window the published token defaults are read against. */
export const ASSUMED_WINDOW = 200_000;

/** A published token threshold as the same share of the prune point's budget; rounded down, never negative. */
export function scaledTokens(published: number, budgetTokens: number, window: number = ASSUMED_WINDOW): number {
  return Math.max(0, Math.floor((published / window) * budgetTokens));
}

/** The share of the window a published threshold stands for, as the scaled variant records it. */
export function shareOf(published: number, window: number = ASSUMED_WINDOW): number {
  return published / window;
}

/** The name a scaled variant is registered under, beside its published base. */
export function scaledName(published: string): string {
  return `${published}-scaled`;
}

/**
 * The scaled variant of a comparator's published definition: the same layer, version, flags and reference under
 * scaledName, with what scaling changes (its description, its parameters as shares, its build) given here.
 */
export function scaledVariant(
  published: ConditionDefinition,
  scaled: Pick<ConditionDefinition, 'description' | 'parameters' | 'build'>,
): ConditionDefinition {
  return defineCondition({ ...published, name: scaledName(published.name), ...scaled });
}
