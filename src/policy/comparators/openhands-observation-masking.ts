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
// Here an event is an item of the context and an observation a tool-result item. The window counts events, not
// tokens, so there is no scaled variant.
import type { PolicyView } from '../../fixture/view.js';
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
    version: '1.0.0',
    description: describe(window),
    upperRisk: false,
    consultsObligations: false,
    parameters: { attentionWindow: window },
    reference: REFERENCE,
    decide(view: PolicyView): Eligibility[] {
      const start = view.items.length - window;
      return view.items.map((item, i) => {
        if (item.kind !== 'tool-result') return verdict(item.id, 'keep', 'not an observation');
        if (i >= start) return verdict(item.id, 'keep', `within the attention window of the last ${window} events`);
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
  return `OpenHands ObservationMaskingCondenser (attention_window=${String(window)}): mask every observation outside the last ${String(window)} events with "<MASKED>"`;
}

export const definition = defineCondition({
  name: OPENHANDS_MASKING,
  layer: 'comparator',
  rung: null,
  version: '1.0.0',
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
