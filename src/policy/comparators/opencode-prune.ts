// Comparator: OpenCode's tool-output pruning (SessionCompaction.prune). Walking back from the newest message, it
// skips everything from the second-last user message on, then counts completed tool outputs newest first: the first
// 40,000 tokens of them are protected, every older output is marked, and the marked outputs are cleared only when
// they hold more than 20,000 tokens together. A cleared output is rendered "[Old tool result content cleared]".
//
// Facts verified against sst/opencode packages/opencode/src/session/compaction.ts @ 31e22f6 (December 2026):
// - PRUNE_MINIMUM = 20_000, PRUNE_PROTECT = 40_000, PRUNE_PROTECTED_TOOLS = ["skill"];
// - prune(): `if (msg.info.role === "user") turns++; if (turns < 2) continue` walking backwards, so the newest user
//   message, the one before it and everything after that one are never touched; only parts with
//   `state.status === "completed"` count (an errored output is neither counted nor cleared); `total += estimate;
//   if (total <= PRUNE_PROTECT) continue` then `pruned += estimate` and the part is marked; `if (pruned >
//   PRUNE_MINIMUM)` every marked part is compacted;
// - serialize(): a compacted output reads "[Old tool result content cleared]"; the call (tool and input) stays.
// Where this differs from OpenCode, and why:
// - at that commit prune() returns at once unless the config sets `compaction.prune`; it is run here as enabled,
//   the behaviour being compared, not OpenCode's switch;
// - Token.estimate is characters / 4; here an output's size is the prune point's token count of the item;
// - the walk stops at an earlier summary or an already compacted output; a fixture has neither, and each prune
//   point is decided on its own view.
// A user message is an item of origin `user`; a tool output is a tool-result item, completed when its status is ok.
import type { PolicyView, ViewItem } from '../../fixture/view.js';
import { comparatorVerdict } from '../eligibility.js';
import type { Condition, Eligibility } from '../types.js';
import { defineCondition } from '../definition.js';
import { ASSUMED_WINDOW, scaledName, scaledTokens, scaledVariant, shareOf } from './scale.js';

export const OPENCODE_PRUNE = 'opencode-prune';
export const OPENCODE_PRUNE_SCALED = scaledName(OPENCODE_PRUNE);

export const OPENCODE_DEFAULTS = {
  protectTokens: 40_000,
  minimumTokens: 20_000,
  skipUserTurns: 2,
  protectedTools: ['skill'] as readonly string[],
} as const;

export const OPENCODE_PLACEHOLDER = '[Old tool result content cleared]';

const REFERENCE =
  'OpenCode tool-output pruning (sst/opencode packages/opencode/src/session/compaction.ts @ 31e22f6: prune(), ' +
  'PRUNE_PROTECT 40,000, PRUNE_MINIMUM 20,000, PRUNE_PROTECTED_TOOLS ["skill"])';

export interface OpencodePruneParameters {
  /** Published thresholds as they ship (false) or as shares of a 200,000-token window applied to budgetTokens. */
  readonly scaled?: boolean;
}

/** Why an item is outside the walk, or undefined for a completed, unprotected tool output the walk counts. */
function outside(item: ViewItem, recent: boolean): string | undefined {
  if (item.kind !== 'tool-result') return 'not a tool output';
  if (recent) return `within the last ${OPENCODE_DEFAULTS.skipUserTurns} user turns`;
  if (item.status?.state !== 'ok') return 'not a completed tool output (errored outputs are never pruned)';
  if (OPENCODE_DEFAULTS.protectedTools.includes(item.tool?.name ?? ''))
    return `output of protected tool ${item.tool?.name}`;
  return undefined;
}

export function opencodePrune(parameters: OpencodePruneParameters = {}): Condition {
  const scaled = parameters.scaled ?? false;
  const name = scaled ? OPENCODE_PRUNE_SCALED : OPENCODE_PRUNE;
  const verdict = comparatorVerdict(name);
  return {
    name,
    layer: 'comparator',
    rung: null,
    version: '1.1.0',
    description: describe(scaled),
    upperRisk: false,
    consultsObligations: false,
    parameters: parametersOf(scaled),
    reference: REFERENCE,
    decide(view: PolicyView): Eligibility[] {
      const budget = view.prunePoint.budgetTokens;
      const protect = scaled ? scaledTokens(OPENCODE_DEFAULTS.protectTokens, budget) : OPENCODE_DEFAULTS.protectTokens;
      const minimum = scaled ? scaledTokens(OPENCODE_DEFAULTS.minimumTokens, budget) : OPENCODE_DEFAULTS.minimumTokens;
      // The walk starts at the second-last user message: that index and everything after it is recent. One prompt
      // with several parts is one message: a run of user items in one turn starts a single user message.
      const users = view.items.flatMap((item, i) => {
        const before = view.items[i - 1];
        const continues = before?.origin === 'user' && before.turn === item.turn;
        return item.origin === 'user' && !continues ? [i] : [];
      });
      const firstRecent =
        users.length >= OPENCODE_DEFAULTS.skipUserTurns ? users[users.length - OPENCODE_DEFAULTS.skipUserTurns]! : 0;
      const why = new Map<string, string>();
      const marked = new Set<string>();
      let total = 0;
      let pruned = 0;
      for (let i = view.items.length - 1; i >= 0; i--) {
        const item = view.items[i]!;
        const out = outside(item, i >= firstRecent);
        if (out !== undefined) {
          why.set(item.id, out);
          continue;
        }
        total += item.tokens;
        if (total <= protect) {
          why.set(item.id, `within the newest ${protect} tokens of tool output`);
          continue;
        }
        pruned += item.tokens;
        marked.add(item.id);
      }
      const applies = pruned > minimum;
      return view.items.map((item) => {
        if (!marked.has(item.id)) return verdict(item.id, 'keep', why.get(item.id)!);
        if (!applies)
          return verdict(
            item.id,
            'keep',
            `older outputs hold ${pruned} tokens, not more than the minimum of ${minimum}`,
          );
        return verdict(
          item.id,
          'eligible',
          `older than the newest ${protect} tokens of tool output; ${pruned} tokens go, more than ${minimum}`,
          OPENCODE_PLACEHOLDER,
        );
      });
    },
  };
}

function describe(scaled: boolean): string {
  const { protectTokens, minimumTokens } = OPENCODE_DEFAULTS;
  const [protect, minimum] = scaled
    ? [`${String(shareOf(protectTokens))} x budgetTokens`, `${String(shareOf(minimumTokens))} x budgetTokens`]
    : [`${String(protectTokens)} tokens`, `${String(minimumTokens)} tokens`];
  return `OpenCode prune: outside the last 2 user turns, clear completed tool outputs older than the newest ${protect} of them when more than ${minimum} would go; skill outputs protected`;
}

function parametersOf(scaled: boolean) {
  const { protectTokens, minimumTokens, skipUserTurns, protectedTools } = OPENCODE_DEFAULTS;
  return {
    ...(scaled
      ? { protectShare: shareOf(protectTokens), minimumShare: shareOf(minimumTokens), assumedWindow: ASSUMED_WINDOW }
      : { protectTokens, minimumTokens }),
    skipUserTurns,
    protectedTools: protectedTools.join(','),
  };
}

export const definition = defineCondition({
  name: OPENCODE_PRUNE,
  layer: 'comparator',
  rung: null,
  version: '1.1.0',
  description: describe(false),
  upperRisk: false,
  consultsObligations: false,
  parameters: parametersOf(false),
  reference: REFERENCE,
  build: () => opencodePrune(),
});

export const scaledDefinition = scaledVariant(definition, {
  description: describe(true),
  parameters: parametersOf(true),
  build: () => opencodePrune({ scaled: true }),
});
