// Builds small fixtures in code for the policy tests: items are written with only the fields a test cares about,
// the whole fixture goes through the zod `Fixture` schema (so defaults apply exactly as for JSON fixtures), and the
// view is built with one token per character so budgets are easy to reason about.
import { Fixture } from '../../src/fixture/schema.js';
import type { PolicyView } from '../../src/fixture/view.js';
import { buildView } from '../../src/fixture/view.js';
import { getCondition } from '../../src/policy/registry.js';
import type { Condition, Eligibility } from '../../src/policy/types.js';

type Loose = Record<string, unknown>;

export interface ItemSpec extends Loose {
  id: string;
  turn: number;
  kind?: string;
  origin?: string;
  content?: string;
}

export interface ViewSpec {
  items: ItemSpec[];
  tools?: { name: string; sideEffect: string }[];
  turn?: number;
  subgoal?: string;
  budgetTokens?: number;
  visible?: Loose;
  downstream?: Loose[];
}

export function timeOf(turn: number): string {
  const minutes = String(turn % 60).padStart(2, '0');
  const hours = String(10 + Math.floor(turn / 60)).padStart(2, '0');
  return `2026-03-04T${hours}:${minutes}:00Z`;
}

/** The raw fixture object before parsing, for tests that need to vary it. */
export function fixtureObject(spec: ViewSpec): Loose {
  const turn = spec.turn ?? Math.max(0, ...spec.items.map((i) => i.turn));
  const named = new Set<string>();
  for (const item of spec.items) {
    const tool = item.tool as { name?: string } | undefined;
    if (tool?.name) named.add(tool.name);
  }
  const declared = spec.tools ?? [];
  const tools = [
    ...declared,
    ...[...named]
      .sort()
      .filter((n) => !declared.some((t) => t.name === n))
      .map((name) => ({ name, sideEffect: 'read-mutable' })),
  ];
  return {
    schemaVersion: 1,
    id: 'test-fixture',
    title: 'test fixture',
    description: 'built in code by test/policy/build-view.ts',
    tools,
    items: spec.items.map((item) => ({
      origin: item.kind === 'tool-result' ? 'environment' : item.kind === 'tool-call' ? 'model' : 'user',
      kind: 'instruction',
      content: '',
      time: timeOf(item.turn),
      ...item,
    })),
    prunePoints: [
      {
        id: 'pp',
        turn,
        time: timeOf(turn),
        budgetTokens: spec.budgetTokens ?? 1_000_000,
        subgoal: spec.subgoal ?? 'finish the task',
        visible: spec.visible ?? {},
        downstream: spec.downstream ?? [],
      },
    ],
  };
}

export function makeView(spec: ViewSpec): PolicyView {
  const fixture = Fixture.parse(fixtureObject(spec));
  return buildView(fixture, 'pp', (text) => text.length);
}

const ok = { state: 'ok' } as const;

/** A tool call and its result, sharing a call id; `result` fields override the defaults. */
export function callAndResult(
  base: string,
  turn: number,
  tool: string,
  args: Loose,
  result: Loose & { content?: string } = {},
  call: Loose = {},
): ItemSpec[] {
  const invocation = { name: tool, arguments: args, callId: `call-${base}` };
  return [
    {
      id: `c${base}`,
      turn,
      kind: 'tool-call',
      origin: 'model',
      content: `${tool} ${JSON.stringify(args)}`,
      tool: invocation,
      ...call,
    },
    {
      id: `r${base}`,
      turn,
      kind: 'tool-result',
      origin: 'environment',
      content: '',
      tool: invocation,
      status: ok,
      ...result,
    },
  ];
}

/** A lone tool result (its call omitted when a test does not need it). */
export function result(id: string, turn: number, content: string, extra: Loose = {}): ItemSpec {
  return {
    id,
    turn,
    kind: 'tool-result',
    origin: 'environment',
    content,
    tool: { name: 'read_file', arguments: { path: 'a.txt' }, callId: `call-${id}` },
    status: ok,
    ...extra,
  };
}

export function note(id: string, turn: number, content: string, extra: Loose = {}): ItemSpec {
  return { id, turn, kind: 'reasoning', origin: 'model', content, ...extra };
}

/** A closed work unit over `traceItems` whose consequence item `record` holds `strings`. */
export function closedUnit(id: string, traceItems: string[], record: string, strings: string[]): Loose {
  return { id, description: `work unit ${id}`, state: 'closed', traceItems, consequence: { itemId: record, strings } };
}

export function obligation(id: string, needs: { itemIds?: string[]; strings?: string[] }): Loose {
  return {
    id,
    description: `obligation ${id}`,
    neededAtTurn: 99,
    needs,
    probe: { question: 'q?', expectedAnswer: 'a' },
  };
}

/**
 * Every condition behind the regenerability gate: the gated singles, the ladders (rung 4 of ladder-0-4 included) and
 * the guard. predictive-semantic and its sweeps are the ungated ablation; the comparators have no gate.
 */
export const GATED: readonly string[] = [
  'exact-redundancy',
  'source-identity',
  'errored-input-residue',
  'checked-supersession',
  'verified-completion',
  'regenerability-guard',
  'ladder-0',
  'ladder-0-1',
  'ladder-0-2',
  'ladder-0-3',
  'ladder-0-4',
];

export function condition(name: string): Condition {
  const found = getCondition(name);
  if (!found) throw new Error(`no condition ${name}`);
  return found;
}

/** The verdicts of a condition on a view, by item id, for terse assertions. */
export function decideById(c: Condition, view: PolicyView): Map<string, Eligibility> {
  return new Map(c.decide(view).map((e) => [e.itemId, e]));
}

export function verdicts(c: Condition, view: PolicyView): Record<string, Eligibility['verdict']> {
  return Object.fromEntries(c.decide(view).map((e) => [e.itemId, e.verdict]));
}

export function at(map: Map<string, Eligibility>, id: string): Eligibility {
  const e = map.get(id);
  if (!e) throw new Error(`no eligibility for ${id}`);
  return e;
}

/**
 * A user constraint inside a closed work unit's trace, its text echoed by model notes outside the unit (ids in
 * `echoes`, from turn 5), and an unrelated result q1 after them. Rung 3 removes the constraint while an echo stays, so
 * the gate then leans on the echoes: the last one left must stay, which only the gate (not the unit's record) says.
 */
export function echoedConstraintView(echoes: readonly string[]): PolicyView {
  return makeView({
    items: [
      { id: 'u', turn: 1, kind: 'constraint', origin: 'user', content: 'never restart the primary database' },
      result('r2', 2, 'replica status: 3 healthy'),
      note('n3', 3, 'Decision: restart replicas only'),
      ...echoes.map((id, i) => note(id, 5 + i, `reminder (${id}): never restart the primary database`)),
      result('q1', 5 + echoes.length, 'unrelated listing'),
    ],
    subgoal: 'restart the replicas',
    visible: { workUnits: [closedUnit('wu1', ['u', 'r2', 'n3'], 'n3', ['restart replicas only'])] },
  });
}
