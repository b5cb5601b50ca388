// Comparator: OpenHands' ObservationMaskingCondenser. Every observation outside the attention window (the most
// recent `attention_window` EVENTS, of any kind: messages, actions and observations alike) is replaced by
// "<MASKED>"; actions and messages are never masked.
//
// Facts verified at source (December 2026):
// - OpenHands/OpenHands openhands/memory/condenser/impl/observation_masking_condenser.py @ 76483ad (and
//   All-Hands-AI/OpenHands @ 053b919, the same rule): `__init__(self, attention_window: int = 5)`; condense() replaces
//   event i when `isinstance(event, Observation) and i < len(view) - self.attention_window`, by
//   AgentCondensationObservation('<MASKED>');
// - All-Hands-AI/OpenHands openhands/core/config/condenser_config.py @ b781d1b: ObservationMaskingCondenserConfig's
//   attention_window defaults to 100 ("The number of most-recent events where observations will not be masked").
// The two defaults disagree: the class's 5 applies to code that builds the condenser itself, the config's 100 to a
// user who selects `type = "observation_masking"` in config.toml, which is how the condenser is switched on. The
// config's 100 is the default here; the class's 5 is registered as the sweep variant
// `openhands-observation-masking@5`.
// Here an observation is a tool-result item, and an event what OpenHands records as one: a tool call with the model's
// text before it in its turn is one action (the text is the action's `thought`, agenthub/codeact_agent/
// function_calling.py), every other item one event. A masked observation has no tool-call metadata, so
// conversation_memory.py never sends the assistant message that made the call: in function-calling mode the call and
// its thought leave with it, and the mask stands alone. The window counts events, not tokens, so there is no scaled
// variant.
import { counterpart, type PolicyView } from '../../fixture/view.js';
import { comparatorVerdict } from '../eligibility.js';
import type { Condition, Eligibility, SweepOf } from '../types.js';
import { defineCondition } from '../definition.js';

export const OPENHANDS_MASKING = 'openhands-observation-masking';

/** ObservationMaskingCondenserConfig.attention_window (the config default) and the class's own default. */
export const CONFIG_ATTENTION_WINDOW = 100;
export const CLASS_ATTENTION_WINDOW = 5;

export const MASKED_PLACEHOLDER = '<MASKED>';

const REFERENCE =
  'OpenHands ObservationMaskingCondenser (openhands/memory/condenser/impl/observation_masking_condenser.py @ 76483ad; ' +
  'attention_window 100 in core/config/condenser_config.py @ b781d1b, 5 as the class default)';

export interface OpenhandsMaskingParameters {
  readonly attentionWindow?: number;
  /** The condition's name when it is not the comparator's own (a parameter-sweep variant). */
  readonly name?: string;
  readonly sweepOf?: SweepOf;
}

export function openhandsMasking(parameters: OpenhandsMaskingParameters = {}): Condition {
  const window = parameters.attentionWindow ?? CONFIG_ATTENTION_WINDOW;
  if (!Number.isInteger(window) || window < 1)
    throw new Error(`attentionWindow must be a positive integer, got ${window}`);
  const verdict = comparatorVerdict(OPENHANDS_MASKING);
  return {
    name: parameters.name ?? OPENHANDS_MASKING,
    ...(parameters.sweepOf ? { sweepOf: parameters.sweepOf } : {}),
    layer: 'comparator',
    rung: null,
    version: '1.1.0',
    description: describe(window),
    upperRisk: false,
    consultsObligations: false,
    parameters: { attentionWindow: window },
    reference: REFERENCE,
    decide(view: PolicyView): Eligibility[] {
      const items = view.items;
      // Each item's event: the model's text before a tool call in its turn is that call's thought, one event.
      const eventOf: number[] = [];
      let events = 0;
      items.forEach((item, i) => {
        const next = items[i + 1];
        const thought =
          item.origin === 'model' && item.kind === 'reasoning' && next?.kind === 'tool-call' && next.turn === item.turn;
        eventOf.push(events);
        if (!thought) events += 1;
      });
      const start = events - window;
      const masked = new Set(
        items.filter((item, i) => item.kind === 'tool-result' && eventOf[i]! < start).map((item) => item.id),
      );
      // A masked observation's call leaves with it, and so does the thought that is part of the call's event.
      const dropped = new Map<string, string>();
      items.forEach((item, i) => {
        if (item.kind !== 'tool-call') return;
        const result = counterpart(items, item);
        if (!result || !masked.has(result.id)) return;
        dropped.set(item.id, `the call of masked observation ${result.id}, never sent without it`);
        const before = items[i - 1];
        if (before && eventOf[i - 1] === eventOf[i] && before.id !== item.id)
          dropped.set(before.id, `the thought of ${item.id}, the call of masked observation ${result.id}`);
      });
      return items.map((item) => {
        const drop = dropped.get(item.id);
        if (drop) return verdict(item.id, 'eligible', drop, '');
        if (item.kind !== 'tool-result') return verdict(item.id, 'keep', 'not an observation');
        if (!masked.has(item.id))
          return verdict(item.id, 'keep', `within the attention window of the last ${window} events`);
        return verdict(
          item.id,
          'eligible',
          `an observation outside the attention window of the last ${window} events`,
          MASKED_PLACEHOLDER,
        );
      });
    },
  };
}

function describe(window: number): string {
  return `OpenHands ObservationMaskingCondenser (attention_window=${String(window)}): mask every observation outside the last ${String(window)} events with "<MASKED>"; a masked observation's call, and the thought it carried, leave with it`;
}

export const definition = defineCondition({
  name: OPENHANDS_MASKING,
  layer: 'comparator',
  rung: null,
  version: '1.1.0',
  description: describe(CONFIG_ATTENTION_WINDOW),
  upperRisk: false,
  consultsObligations: false,
  parameters: { attentionWindow: CONFIG_ATTENTION_WINDOW },
  reference: REFERENCE,
  sweep: {
    parameter: 'attentionWindow',
    values: [CLASS_ATTENTION_WINDOW],
    variant: (attentionWindow, as) => openhandsMasking({ attentionWindow, ...as }),
  },
  build: () => openhandsMasking(),
});
