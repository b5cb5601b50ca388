// Comparator: OpenCode Dynamic Context Pruning's purge-errors strategy. Once a failed call is old enough, its inputs
// go and its error stays. The only check is age: nothing compares the inputs with what the task still needs, which
// is why this is a comparator and not rung 2 (the chapter's "failed calls older than four turns go").
//
// Facts verified against Tarquinen/opencode-dynamic-context-pruning at 7b0e2e882fc86fa5de5534b2006c037fffc3dee6:
// - lib/config.ts: strategies.purgeErrors defaults to { enabled: true, turns: 4, protectedTools: DEFAULT_PROTECTED_TOOLS };
//   protectedFilePatterns defaults to [];
// - lib/strategies/purge-errors.ts: a tool call is marked when its status is "error", its tool is not protected and
//   `state.currentTurn - metadata.turn >= turns` (a turn is a model step, counted by step-start parts);
// - lib/messages/prune.ts (pruneToolErrors): for a marked errored tool part, every string-valued input is replaced by
//   "[input removed due to failed tool call]"; other inputs stay, and the error output is never replaced (output
//   replacement, pruneToolOutputs, touches only completed parts).
// - lib/config.ts: DEFAULT_PROTECTED_TOOLS is the list below, and mergeStrategies adds a user's configured
//   protectedTools to it (a union), so configuring tools never unprotects a default one. A tool is matched by exact
//   name (`protectedTools.includes(metadata.tool)`).
// Here the input is the tool call item, the error output its result item; the configured protected tools are the
// view's protectedTools, added to DCP's defaults as a user's config is (1.2.0; 1.1.0 protected the view's alone).
// DCP v1.2.8 (bcb42f1, 22 January 2026) and later start these two strategies from no protected tools; this
// comparator is v1.2.3's, the version its other facts were checked at.
import { canonicalJson } from '../../fixture/canonical.js';
import { counterpart, type PolicyView, type ViewItem } from '../../fixture/view.js';
import { comparatorVerdict } from '../eligibility.js';
import type { Condition, Eligibility } from '../types.js';
import { defineCondition } from '../definition.js';

export const DCP_PURGE_ERRORS = 'dcp-purge-errors';

/** DCP's purgeErrors.turns default (lib/config.ts). */
export const DEFAULT_AFTER_TURNS = 4;

export const DCP_ERROR_INPUT_PLACEHOLDER = '[input removed due to failed tool call]';

/** DCP's DEFAULT_PROTECTED_TOOLS at 7b0e2e8 (lib/config.ts), the default of both strategies' protectedTools. */
export const DCP_DEFAULT_PROTECTED_TOOLS: readonly string[] = Object.freeze([
  'task',
  'todowrite',
  'todoread',
  'discard',
  'extract',
  'batch',
  'write',
  'edit',
  'plan_enter',
  'plan_exit',
]);

/**
 * Why a DCP strategy skips a tool, or undefined when it does not: its defaults, and the view's protected tools as the
 * user's configured ones, which DCP adds to the defaults rather than putting in their place.
 */
export function dcpProtection(view: PolicyView, tool: string): string | undefined {
  if (DCP_DEFAULT_PROTECTED_TOOLS.includes(tool)) return `${tool} is one of DCP's default protected tools`;
  if (view.visible.protectedTools.includes(tool)) return `${tool} is a configured protected tool`;
  return undefined;
}

export const DCP_REFERENCE =
  'OpenCode Dynamic Context Pruning plugin (Tarquinen/opencode-dynamic-context-pruning @ 7b0e2e8): purge-errors strategy, ' +
  'lib/strategies/purge-errors.ts and lib/messages/prune.ts; strategies.purgeErrors.turns defaults to 4 and its ' +
  'protectedTools to DEFAULT_PROTECTED_TOOLS, which a configured list adds to (lib/config.ts)';

export interface DcpPurgeErrorsParameters {
  readonly afterTurns?: number;
}

/** The call as DCP leaves it: its tool and arguments, every string argument replaced by DCP's marker. */
export function purgedCall(item: ViewItem): string {
  const args = item.tool?.arguments ?? {};
  const masked = Object.fromEntries(
    Object.entries(args).map(([k, v]) => [k, typeof v === 'string' ? DCP_ERROR_INPUT_PLACEHOLDER : v]),
  );
  return `${item.tool?.name ?? ''} ${canonicalJson(masked)}`;
}

export function dcpPurgeErrors(parameters: DcpPurgeErrorsParameters = {}): Condition {
  const afterTurns = parameters.afterTurns ?? DEFAULT_AFTER_TURNS;
  if (!Number.isInteger(afterTurns) || afterTurns < 0)
    throw new Error(`afterTurns must be a non-negative integer, got ${afterTurns}`);
  const rule = DCP_PURGE_ERRORS;
  const verdict = comparatorVerdict(rule);
  return {
    name: rule,
    layer: 'comparator',
    rung: null,
    version: '1.2.0',
    description: `OpenCode DCP purge-errors: ${String(afterTurns)} model steps after a call failed, its string inputs are replaced by a marker; the error output stays; nothing is checked but age and DCP's protected tools (its defaults and the configured ones)`,
    upperRisk: false,
    consultsObligations: false,
    parameters: { afterTurns },
    reference: DCP_REFERENCE,
    decide(view: PolicyView): Eligibility[] {
      // DCP counts turns in model steps (step-start parts): a call's age is how many steps the model has taken since
      // the one that made it, so turns that hold only the person's messages or the runtime's do not count.
      const steps = [...new Set(view.items.filter((i) => i.origin === 'model').map((i) => i.turn))];
      const stepsSince = (turn: number): number => steps.filter((t) => t > turn).length;
      return view.items.map((item) => {
        if (!item.tool) return verdict(item.id, 'keep', 'not a tool call');
        if (item.kind === 'tool-result')
          return verdict(item.id, 'keep', 'a tool output: DCP purges the inputs of failed calls and keeps their error');
        if (item.kind !== 'tool-call') return verdict(item.id, 'keep', 'not a tool call');
        const guarded = dcpProtection(view, item.tool.name);
        if (guarded) return verdict(item.id, 'keep', `call of a protected tool: ${guarded}`);
        const status = counterpart(view.items, item)?.status;
        if (status?.state !== 'error')
          return verdict(item.id, 'keep', 'the call did not fail (or its result is not in context)');
        const age = stepsSince(item.turn);
        if (age < afterTurns)
          return verdict(item.id, 'keep', `failed ${age} model steps before the prune point, under ${afterTurns}`);
        const strings = Object.keys(item.tool.arguments)
          .filter((k) => typeof item.tool!.arguments[k] === 'string')
          .sort();
        if (strings.length === 0) return verdict(item.id, 'keep', 'failed, but has no string input to purge');
        return {
          ...verdict(
            item.id,
            'eligible',
            `failed (${status.errorType}) ${age} model steps before the prune point (at least ${afterTurns}); ` +
              `string inputs ${strings.join(', ')} replaced, the error stays`,
            purgedCall(item),
          ),
          residue: ['tool'],
        };
      });
    },
  };
}

export const definition = defineCondition({
  name: DCP_PURGE_ERRORS,
  layer: 'comparator',
  rung: null,
  version: '1.2.0',
  description: `OpenCode DCP purge-errors: ${String(DEFAULT_AFTER_TURNS)} model steps after a call failed, its string inputs are replaced by a marker; the error output stays; nothing is checked but age and DCP's protected tools (its defaults and the configured ones)`,
  upperRisk: false,
  consultsObligations: false,
  parameters: { afterTurns: DEFAULT_AFTER_TURNS },
  reference: DCP_REFERENCE,
  build: () => dcpPurgeErrors(),
});
