// Comparator: SWE-agent's LastNObservations history processor, the observation masking of Lindenbauer et al.
// (2025), "The Complexity Trap". Old observations are replaced by a placeholder; actions and reasoning stay.
//
// Facts verified against SWE-agent/SWE-agent sweagent/agent/history_processors.py (318f909) and the paper's
// configuration Recursive-Safeguarding/the-complexity-trap config/default_no_demo_N=1_M=10.yaml (adfaa1a):
// - the paper's masking run configures `history_processors: - type: last_n_observations, n: 10`;
// - with the default polling = 1, the masked observations are observation_indices[1 : max(0, len - n)]: the first
//   observation is never masked ("it is the instance template") and the last n are kept;
// - a masked observation's content becomes `Old environment output: (${n} lines omitted)`, where n is Python's
//   len(content.splitlines()); an image count is appended only for image content, which fixtures do not have;
// - that content is the observation message, not the bare output: add_step_to_history renders the output through a
//   template and the message is what the history holds. The paper's config sets next_step_template to the output
//   followed by the shell prompt's three lines, and next_step_no_output_template (used when the output is blank by
//   Python's str.strip()) to one sentence and the same three lines; an output over max_observation_length (100,000
//   characters, TemplateConfig's default, which the config keeps) is cut and sent through TemplateConfig's default
//   next_step_truncated_observation_template, which has no prompt lines. Checked in the paper's fork,
//   sweagent/agent/agents.py and history_processors.py at 98c577c, and in SWE-agent's agents.py at 3ea751c.
// Here an observation is a tool result: the fixtures' environment output.
import { frozenMemo } from '../../fixture/memo.js';
import type { PolicyView, ViewItem } from '../../fixture/view.js';
import { comparatorVerdict } from '../eligibility.js';
import type { Condition, SweepOf } from '../types.js';
import { defineCondition } from '../definition.js';
import { isSpace } from '../../accounting/tokens.js';

export const OBSERVATION_MASKING = 'observation-masking';
export const DEFAULT_KEEP_LAST = 10;

const MASKING_REFERENCE =
  'SWE-agent LastNObservations history processor, as used in Lindenbauer et al. 2025 "The Complexity Trap" (M = 10)';

/** Python's str.splitlines() count: line boundaries per the Python docs, and no empty line after a final break. */
export function pythonLineCount(text: string): number {
  if (text.length === 0) return 0;
  // Counted in one pass, not split: it runs on every masked output at every prune point of each masking variant.
  let breaks = 0;
  let endsOnBreak = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    endsOnBreak = isLineBreak(c);
    if (!endsOnBreak) continue;
    breaks += 1;
    // \r\n is one boundary.
    if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) i += 1;
  }
  return endsOnBreak ? breaks : breaks + 1;
}

/** Python's line boundaries: \n \r \v \f \x1c \x1d \x1e \x85 \u2028 \u2029. */
function isLineBreak(c: number): boolean {
  return (c >= 0x0a && c <= 0x0d) || (c >= 0x1c && c <= 0x1e) || c === 0x85 || c === 0x2028 || c === 0x2029;
}

/**
 * Python's str.isspace() characters, which str.strip() removes. Not JS's trim(): that strips U+FEFF and keeps U+001C
 * to U+001F and U+0085.
 */
function isPythonSpace(c: number): boolean {
  return (isSpace(c) && c !== 0xfeff) || (c >= 0x1c && c <= 0x1f) || c === 0x85;
}

function isPythonBlank(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (!isPythonSpace(text.charCodeAt(i))) return false;
  return true;
}

/** TemplateConfig.max_observation_length's default, which the paper's config keeps; Python counts code points. */
export const MAX_OBSERVATION_LENGTH = 100_000;

// The shell state's values ({{open_file}}, {{working_dir}}) are a path or "n/a", one line each, so they are left
// unrendered: the fixtures have no SWE-agent shell, and the line count does not depend on them.
const PROMPT_LINES = '(Open file: {{open_file}})\n(Current directory: {{working_dir}})\nbash-$';
const NO_OUTPUT = 'Your command ran successfully and did not produce any output.';

/**
 * The observation message SWE-agent holds for a tool output under the paper's templates: what its placeholder
 * counts the lines of.
 */
export function observationMessage(output: string): string {
  if (isPythonBlank(output)) return `${NO_OUTPUT}\n${PROMPT_LINES}`;
  // A string's UTF-16 length is at least its code point count, so only a long one needs counting.
  if (output.length > MAX_OBSERVATION_LENGTH) {
    const points = Array.from(output);
    if (points.length > MAX_OBSERVATION_LENGTH) {
      const elided = points.length - MAX_OBSERVATION_LENGTH;
      return (
        `Observation: ${points.slice(0, MAX_OBSERVATION_LENGTH).join('')}<response clipped>` +
        `<NOTE>Observations should not exceeded ${MAX_OBSERVATION_LENGTH} characters. ${elided} characters were elided. ` +
        'Please try a different command that produces less output or use head/tail/grep/redirect the output to a file. ' +
        'Do not use interactive pagers.</NOTE>'
      );
    }
  }
  return `${output}\n${PROMPT_LINES}`;
}

export function maskPlaceholder(output: string): string {
  return `Old environment output: (${pythonLineCount(observationMessage(output))} lines omitted)`;
}

/**
 * An item's placeholder, made once per frozen view item: the default and its five sweep variants mask the same old
 * outputs at the same prune point, and counting their lines was most of these conditions' time.
 */
const placeholderOf = frozenMemo((item: ViewItem): string => maskPlaceholder(item.content));

export interface ObservationMaskingParameters {
  readonly keepLast?: number;
  /** The condition's name when it is not the comparator's own (a parameter-sweep variant). */
  readonly name?: string;
  readonly sweepOf?: SweepOf;
}

export function observationMasking(parameters: ObservationMaskingParameters = {}): Condition {
  const n = parameters.keepLast ?? DEFAULT_KEEP_LAST;
  if (!Number.isInteger(n) || n <= 0) throw new Error(`keepLast must be a positive integer, got ${n}`);
  const rule = OBSERVATION_MASKING;
  const verdict = comparatorVerdict(rule);
  return {
    name: parameters.name ?? rule,
    ...(parameters.sweepOf ? { sweepOf: parameters.sweepOf } : {}),
    layer: 'comparator',
    rung: null,
    version: '1.2.0',
    description: `SWE-agent LastNObservations (n=${n}): mask every tool output but the last ${n} (its first observation, which it keeps, is the task prompt) with a line-count placeholder`,
    upperRisk: false,
    consultsObligations: false,
    parameters: { keepLast: n, polling: 1 },
    reference: MASKING_REFERENCE,
    decide(view: PolicyView) {
      const observations = view.items.filter((item) => item.kind === 'tool-result').map((item) => item.id);
      const order = new Map(observations.map((id, index) => [id, index] as const).reverse());
      // SWE-agent masks history observations 1 to len-n, and its observation 0 is the instance template (the task
      // prompt, sent as an observation: agents.py), so every tool output but the last n is masked.
      const lastMasked = Math.max(0, observations.length - n);
      return view.items.map((item) => {
        const index = order.get(item.id) ?? -1;
        if (index < 0) return verdict(item.id, 'keep', 'not an observation');
        if (index >= lastMasked) return verdict(item.id, 'keep', `one of the last ${n} observations`);
        return verdict(
          item.id,
          'eligible',
          `observation ${index + 1} of ${observations.length} is older than the last ${n}`,
          placeholderOf(item),
        );
      });
    },
  };
}

export const definition = defineCondition({
  name: OBSERVATION_MASKING,
  layer: 'comparator',
  rung: null,
  version: '1.2.0',
  description: `SWE-agent LastNObservations (n=${String(DEFAULT_KEEP_LAST)}): mask every tool output but the last ${String(DEFAULT_KEEP_LAST)} (its first observation, which it keeps, is the task prompt) with a line-count placeholder`,
  upperRisk: false,
  consultsObligations: false,
  parameters: { keepLast: DEFAULT_KEEP_LAST, polling: 1 },
  reference: MASKING_REFERENCE,
  sweep: {
    parameter: 'keepLast',
    values: [1, 2, 5, 20, 40],
    variant: (keepLast, as) => observationMasking({ keepLast, ...as }),
  },
  build: () => observationMasking(),
});
