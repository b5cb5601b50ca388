// "Every tool result but the N most recent": the selection that Anthropic's clear_tool_uses and Claude Code's
// microcompact share, stated once so the two comparators cannot drift apart in how they count.
import type { ViewItem } from '../../fixture/view.js';

/**
 * The ids of the tool results among `items` (in context order) older than the newest `keep` of them; `counts`
 * narrows which tool results take part (an excluded tool is neither cleared nor counted among the kept).
 */
export function olderToolResults(
  items: readonly ViewItem[],
  keep: number,
  counts: (item: ViewItem) => boolean = () => true,
): Set<string> {
  const results = items.filter((i) => i.kind === 'tool-result' && counts(i));
  return new Set(results.slice(0, Math.max(0, results.length - keep)).map((i) => i.id));
}
