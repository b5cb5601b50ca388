// Comparator: OpenCode Dynamic Context Pruning's deduplication strategy. It keys tool calls by tool name and
// arguments and keeps only the most recent output per key, never comparing the outputs themselves: the weaker
// guarantee the chapter contrasts with rung 0 (same call is not same observation).
//
// Facts verified against Tarquinen/opencode-dynamic-context-pruning (lib/core/deduplicator.ts at 710a4cc,
// lib/messages/prune.ts at 3e63a36, README at 024928f):
// - signature = `${tool}::${JSON.stringify(sortObjectKeys(normalizeParameters(parameters)))}`;
//   normalizeParameters drops null/undefined values of the TOP-LEVEL parameters only (arrays and nested objects are
//   passed through untouched); sortObjectKeys sorts keys recursively and keeps array order.
// - protected tools are filtered out before signatures are built; within a signature group every id but the last
//   (chronological order) is pruned.
// - pruned outputs are replaced, before the request, by the placeholder below, and only for tool parts whose state
//   is "completed": an errored output in a duplicate group is marked but not replaced, so it stays.
// DCP's built-in default protected tools (task, todowrite, write, edit, ...) are OpenCode tool names; here the
// configured list is the view's protectedTools.
import type { PolicyView, ViewItem } from '../../fixture/view.js';
import { canonicalJson } from '../../fixture/canonical.js';
import { comparatorVerdict } from '../eligibility.js';
import type { Condition } from '../types.js';
import { defineCondition } from '../definition.js';

export const SAME_TOOL_ARGS_DEDUP = 'same-tool-args-dedup';

const DEDUP_REFERENCE = 'OpenCode Dynamic Context Pruning plugin (Tarquinen), deduplication strategy';

export const DCP_PLACEHOLDER = '[Output removed to save context - information superseded or no longer needed]';

/** DCP's signature for a call: tool name plus its normalised, key-sorted arguments. */
export function dedupKey(tool: string, args: Readonly<Record<string, unknown>>): string {
  const normalized: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (value !== undefined && value !== null) normalized[key] = value;
  }
  // Nested nulls are kept, as DCP keeps them; canonicalJson only sorts keys, at every depth.
  return `${tool}::${canonicalJson(normalized)}`;
}

export function sameToolArgsDedup(): Condition {
  const rule = SAME_TOOL_ARGS_DEDUP;
  const verdict = comparatorVerdict(rule);
  return {
    name: rule,
    layer: 'comparator',
    rung: null,
    version: '1.0.0',
    description:
      'OpenCode DCP deduplication: keep the latest output per tool name + normalised arguments; outputs never compared',
    upperRisk: false,
    consultsObligations: false,
    parameters: {},
    reference: DEDUP_REFERENCE,
    decide(view: PolicyView) {
      const protectedTools = new Set(view.visible.protectedTools);
      const keyOf = (item: ViewItem): string | undefined =>
        item.kind === 'tool-result' && item.tool && !protectedTools.has(item.tool.name)
          ? dedupKey(item.tool.name, item.tool.arguments)
          : undefined;
      const latest = new Map<string, ViewItem>();
      for (const item of view.items) {
        const key = keyOf(item);
        if (key !== undefined) latest.set(key, item);
      }
      return view.items.map((item) => {
        if (item.kind !== 'tool-result' || !item.tool) return verdict(item.id, 'keep', 'not a tool output');
        if (protectedTools.has(item.tool.name))
          return verdict(item.id, 'keep', `output of protected tool ${item.tool.name}`);
        const key = dedupKey(item.tool.name, item.tool.arguments);
        const kept = latest.get(key);
        if (!kept || kept.id === item.id)
          return verdict(item.id, 'keep', `latest output of ${item.tool.name} with these arguments`);
        // Reasons name the calls, never the arguments: a command's arguments are where secrets are typed.
        if (item.status?.state === 'error') {
          return verdict(
            item.id,
            'keep',
            `errored output: DCP replaces only completed outputs, though ${kept.id} repeats its tool and arguments`,
          );
        }
        return verdict(
          item.id,
          'eligible',
          `same tool (${item.tool.name}) and arguments as ${kept.id}, the latest, which is kept`,
          DCP_PLACEHOLDER,
        );
      });
    },
  };
}

export const definition = defineCondition({
  name: SAME_TOOL_ARGS_DEDUP,
  layer: 'comparator',
  rung: null,
  version: '1.0.0',
  description:
    'OpenCode DCP deduplication: keep the latest output per tool name + normalised arguments; outputs never compared',
  upperRisk: false,
  consultsObligations: false,
  parameters: {},
  reference: DEDUP_REFERENCE,
  build: () => sameToolArgsDedup(),
});
