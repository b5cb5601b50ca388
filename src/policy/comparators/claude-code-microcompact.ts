// Comparator: Claude Code's time-based microcompact. When the session has been idle for the prompt cache's lifetime
// (an hour), the cache is cold and the next request is paid in full anyway, so every tool result but the 5 most
// recent is cleared to "[Old tool result content cleared]" before it is sent; the tool calls stay.
//
// Claude Code is closed source: no repository publishes this rule. The best public sources (December 2026), which
// agree with each other:
// - zhanghandong.github.io/harness-engineering-from-cc-to-ai-coding/en/part3/ch11.html ("Micro-Compaction"): the
//   time-based trigger is the "time gap since last assistant message" exceeding a threshold; it "replaces
//   tool_result.content with placeholder text";
// - gentic.news/article/how-claude-code-s-3-tier: idle "for over an hour (the default cache TTL)", "keeping only the
//   5 most recent", text "[Old tool result content cleared]";
// - a Hacker News comment (item 47614091) reading timeBasedMCConfig.ts: the 5 most recent results are kept, tool_use
//   blocks are kept, and the feature is disabled by default behind a server-side flag.
// Used here: a gap of at least 60 minutes between the prune point's time and the last assistant message (an item of
// origin `model`), measured as the sources say, not from the last item of any kind; a context with no assistant
// message has had no request, and the last item's time stands in. Claude Code clears only its "compactable" tools
// (Read, Bash, Grep, ...); fixtures' tools have other names, so every tool result is compactable here.
// The threshold is a time, not tokens: there is no scaled variant.
import type { PolicyView } from '../../fixture/view.js';
import { comparatorVerdict } from '../eligibility.js';
import type { Condition, Eligibility } from '../types.js';
import { conditionOf, defineCondition } from '../definition.js';
import { olderToolResults } from './older-tool-results.js';

export const CLAUDE_CODE_MICROCOMPACT = 'claude-code-microcompact';

export const MICROCOMPACT_DEFAULTS = { gapMinutes: 60, keepRecent: 5 } as const;

export const MICROCOMPACT_PLACEHOLDER = '[Old tool result content cleared]';

const REFERENCE =
  'Claude Code time-based microcompact (closed source; public reading: harness-engineering-from-cc-to-ai-coding ' +
  'ch. 11, gentic.news "3-tier" article): idle 60 minutes since the last assistant message, keep the 5 most recent tool results';

const MINUTE_MS = 60_000;

/**
 * Minutes from the last assistant message to the prune point; null when there is none yet: the time-based trigger
 * measures the gap since the model last answered, and with no answer it does not fire (evaluateTimeBasedTrigger).
 */
export function idleMinutes(view: PolicyView): number | null {
  const items = view.items;
  let last: (typeof items)[number] | undefined;
  for (let i = items.length - 1; i >= 0; i--) {
    if (items[i]!.origin === 'model') {
      last = items[i];
      break;
    }
  }
  if (!last) return null;
  return (Date.parse(view.prunePoint.time) - Date.parse(last.time)) / MINUTE_MS;
}

export function claudeCodeMicrocompact(): Condition {
  const { gapMinutes, keepRecent } = MICROCOMPACT_DEFAULTS;
  const verdict = comparatorVerdict(CLAUDE_CODE_MICROCOMPACT);
  return conditionOf(definition, (view: PolicyView): Eligibility[] => {
    const idle = idleMinutes(view);
    if (idle === null || idle < gapMinutes)
      return view.items.map((i) =>
        verdict(
          i.id,
          'keep',
          idle === null
            ? 'no assistant message yet: the idle time is measured from the last one'
            : `idle ${String(idle)} minutes since the last request, under ${gapMinutes}`,
        ),
      );
    const cleared = olderToolResults(view.items, keepRecent);
    return view.items.map((item) => {
      if (item.kind !== 'tool-result') return verdict(item.id, 'keep', 'not a tool result');
      if (!cleared.has(item.id)) return verdict(item.id, 'keep', `one of the ${keepRecent} most recent tool results`);
      return verdict(
        item.id,
        'eligible',
        `idle ${String(idle)} minutes (at least ${gapMinutes}): the cache is cold; older than the ${keepRecent} most recent tool results`,
        MICROCOMPACT_PLACEHOLDER,
      );
    });
  });
}

const DESCRIPTION =
  'Claude Code time-based microcompact: after 60 idle minutes since the last assistant message, clear every tool result but the 5 most recent';

export const definition = defineCondition({
  name: CLAUDE_CODE_MICROCOMPACT,
  layer: 'comparator',
  rung: null,
  version: '1.1.0',
  description: DESCRIPTION,
  upperRisk: false,
  consultsObligations: false,
  parameters: { ...MICROCOMPACT_DEFAULTS },
  reference: REFERENCE,
  build: () => claudeCodeMicrocompact(),
});
