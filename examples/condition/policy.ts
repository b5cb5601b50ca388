// A Condition: the whole decision, gate included, is the module's own. This one reproduces the keep-the-last-N rule of
// the context editors that clear old tool results (without their token trigger), so it is a comparator: it cites
// what it reproduces, and is neither upper-risk nor a Layer A mechanism.
import type { Condition } from '../../src/policy/types.js';

const KEEP = 3;

const keepLastToolResults: Condition = {
  name: 'keep-last-tool-results',
  layer: 'comparator',
  rung: null,
  version: '0.1.0',
  description: `clear every tool result but the last ${KEEP}, oldest first, with no check of what they hold`,
  upperRisk: false,
  consultsObligations: false,
  parameters: { keep: KEEP },
  reference:
    'the keep-the-last-N-tool-results rule of context editors (Anthropic clear_tool_uses_20250919 keeps 3 by default), without its trigger',
  decide(view) {
    const results = view.items.filter((item) => item.kind === 'tool-result').map((item) => item.id);
    const kept = new Set(results.slice(-KEEP));
    return view.items.map((item) => ({
      itemId: item.id,
      rule: 'keep-last-tool-results',
      rung: null,
      obligationsConsulted: [],
      ...(item.kind === 'tool-result' && !kept.has(item.id)
        ? { verdict: 'eligible' as const, reason: `older than the last ${KEEP} tool results`, replacement: '[cleared]' }
        : { verdict: 'keep' as const, reason: 'one of the last tool results, or not a tool result' }),
    }));
  },
};

export default keepLastToolResults;
