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
//   is "completed".
// Checked again at 7b0e2e8 (v1.2.3, the version dcp-purge-errors mirrors), lib/strategies/deduplication.ts,
// lib/messages/prune.ts and lib/config.ts:
// - an errored part in a duplicate group is marked like any other, and prune() runs pruneToolErrors over every
//   marked part: an errored duplicate's string inputs are replaced by "[input removed due to failed tool call]" at
//   once, with no wait of purgeErrors.turns, and its error output stays (1.1.0; 1.0.0 left the whole call);
// - strategies.deduplication.protectedTools defaults to DEFAULT_PROTECTED_TOOLS, and a configured list adds to it:
//   here the configured list is the view's protectedTools (1.1.0; 1.0.0 protected the view's alone);
// - a marked completed part of the `question` tool (matched by exact name) keeps its output, which holds the user's
//   answers (pruneToolOutputs skips it), and loses its `questions` input instead, replaced by
//   "[questions removed - see output for user's answers]" when the input has one (pruneToolInputs:
//   `part.state.input?.questions !== undefined`); its other inputs stay. An errored `question` part is purged by
//   pruneToolErrors like any other (1.2.0; 1.1.0 replaced a question's output like any other).
import { counterpart, type PolicyView, type ViewItem } from '../../fixture/view.js';
import { canonicalJson } from '../../fixture/canonical.js';
import { comparatorVerdict } from '../eligibility.js';
import type { Condition, Eligibility } from '../types.js';
import { defineCondition } from '../definition.js';
import { dcpProtection, purgedCall } from './dcp-purge-errors.js';

export const SAME_TOOL_ARGS_DEDUP = 'same-tool-args-dedup';

const DEDUP_REFERENCE =
  'OpenCode Dynamic Context Pruning plugin (Tarquinen/opencode-dynamic-context-pruning @ 7b0e2e8): deduplication ' +
  'strategy, lib/strategies/deduplication.ts and lib/messages/prune.ts; strategies.deduplication.protectedTools ' +
  'defaults to DEFAULT_PROTECTED_TOOLS, which a configured list adds to (lib/config.ts)';

export const DCP_PLACEHOLDER = '[Output removed to save context - information superseded or no longer needed]';

/** The tool whose output DCP keeps, as the user's answers, while replacing the questions asked (lib/messages/prune.ts). */
export const DCP_QUESTION_TOOL = 'question';

export const DCP_QUESTION_INPUT_PLACEHOLDER = "[questions removed - see output for user's answers]";

/** DCP's pruneToolInputs applies when the input holds `questions` at all: a null counts, only an absent key does not. */
const hasQuestions = (args: Readonly<Record<string, unknown>>): boolean =>
  Object.hasOwn(args, 'questions') && args['questions'] !== undefined;

/** A question call as DCP leaves it: its tool and arguments, its `questions` replaced by DCP's marker. */
export function questionsRemovedCall(item: ViewItem): string {
  const args = item.tool?.arguments ?? {};
  return `${item.tool?.name ?? ''} ${canonicalJson({ ...args, questions: DCP_QUESTION_INPUT_PLACEHOLDER })}`;
}

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
    version: '1.2.0',
    description:
      'OpenCode DCP deduplication: keep the latest output per tool name + normalised arguments (an earlier failed one keeps its error, its call losing its string inputs; an earlier question keeps its answers, its call losing its questions); outputs never compared',
    upperRisk: false,
    consultsObligations: false,
    parameters: {},
    reference: DEDUP_REFERENCE,
    decide(view: PolicyView): Eligibility[] {
      const keyOf = (item: ViewItem): string | undefined =>
        item.kind === 'tool-result' && item.tool && !dcpProtection(view, item.tool.name)
          ? dedupKey(item.tool.name, item.tool.arguments)
          : undefined;
      const latest = new Map<string, ViewItem>();
      for (const item of view.items) {
        const key = keyOf(item);
        if (key !== undefined) latest.set(key, item);
      }
      /** The latest output of the same call, when `result` is an earlier one. */
      const supersededBy = (result: ViewItem): ViewItem | undefined => {
        const key = keyOf(result);
        const kept = key === undefined ? undefined : latest.get(key);
        return kept && kept.id !== result.id ? kept : undefined;
      };
      return view.items.map((item) => {
        if (item.kind === 'tool-call' && item.tool) return decideCall(view, item, item.tool, supersededBy);
        if (item.kind !== 'tool-result' || !item.tool) return verdict(item.id, 'keep', 'not a tool output');
        const guarded = dcpProtection(view, item.tool.name);
        if (guarded) return verdict(item.id, 'keep', `output of a protected tool: ${guarded}`);
        const kept = supersededBy(item);
        if (!kept) return verdict(item.id, 'keep', `latest output of ${item.tool.name} with these arguments`);
        // Reasons name the calls, never the arguments: a command's arguments are where secrets are typed.
        if (item.status?.state === 'error') {
          return verdict(
            item.id,
            'keep',
            `errored output: DCP keeps a failed duplicate's error and purges its call's inputs, though ${kept.id} repeats its tool and arguments`,
          );
        }
        if (item.tool.name === DCP_QUESTION_TOOL) {
          return verdict(
            item.id,
            'keep',
            `a question's output holds the user's answers: DCP keeps it and replaces its call's questions, though ${kept.id} repeats its tool and arguments`,
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

  /** A call stays unless its output is an errored duplicate: then DCP purges its string inputs, whatever its age. */
  function decideCall(
    view: PolicyView,
    call: ViewItem,
    tool: NonNullable<ViewItem['tool']>,
    supersededBy: (result: ViewItem) => ViewItem | undefined,
  ): Eligibility {
    const guarded = dcpProtection(view, tool.name);
    if (guarded) return verdict(call.id, 'keep', `call of a protected tool: ${guarded}`);
    const result = counterpart(view.items, call);
    const kept = result ? supersededBy(result) : undefined;
    if (!result || !kept) return verdict(call.id, 'keep', 'a call whose output is not an earlier duplicate');
    if (result.status?.state !== 'error') {
      if (tool.name !== DCP_QUESTION_TOOL)
        return verdict(call.id, 'keep', 'a call whose output is a completed duplicate: DCP replaces the output only');
      if (!hasQuestions(tool.arguments))
        return verdict(call.id, 'keep', `a question duplicating ${kept.id}, but with no questions input to replace`);
      return {
        ...verdict(
          call.id,
          'eligible',
          `a question whose tool and arguments ${kept.id} repeats: its questions input replaced, its output with the user's answers stays`,
          questionsRemovedCall(call),
        ),
        residue: ['tool'],
      };
    }
    const strings = Object.keys(tool.arguments)
      .filter((k) => typeof tool.arguments[k] === 'string')
      .sort();
    if (strings.length === 0)
      return verdict(call.id, 'keep', `failed duplicate of ${kept.id}, but has no string input to purge`);
    return {
      ...verdict(
        call.id,
        'eligible',
        `failed (${result.status.errorType}), and ${kept.id} repeats its tool (${tool.name}) and arguments: ` +
          `string inputs ${strings.join(', ')} replaced at once, the error stays`,
        purgedCall(call),
      ),
      residue: ['tool'],
    };
  }
}

export const definition = defineCondition({
  name: SAME_TOOL_ARGS_DEDUP,
  layer: 'comparator',
  rung: null,
  version: '1.2.0',
  description:
    'OpenCode DCP deduplication: keep the latest output per tool name + normalised arguments (an earlier failed one keeps its error, its call losing its string inputs; an earlier question keeps its answers, its call losing its questions); outputs never compared',
  upperRisk: false,
  consultsObligations: false,
  parameters: {},
  reference: DEDUP_REFERENCE,
  build: () => sameToolArgsDedup(),
});
