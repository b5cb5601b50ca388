// Small fixtures in code for the oracle tests: items with only the fields a test cares about, one prune point after
// them, parsed through the one schema so defaults apply as for JSON fixtures.
import { Fixture, Oracle } from '../../src/fixture/schema.js';
import { buildView } from '../../src/fixture/view.js';
import { obligationsAt, type RemovalLeft } from '../../src/oracle/obligations.js';

type Loose = Record<string, unknown>;

export const time = (turn: number) => `2026-03-04T10:${String(turn).padStart(2, '0')}:00Z`;

/** A model's reasoning item. */
export function item(id: string, turn: number, content: string, extra: Loose = {}): Loose {
  return { id, turn, time: time(turn), origin: 'model', kind: 'reasoning', content, ...extra };
}

/** A result of the `run` tool with its status. */
export function result(
  id: string,
  turn: number,
  content: string,
  status: Loose = { state: 'ok' },
  extra: Loose = {},
): Loose {
  return item(id, turn, content, {
    origin: 'environment',
    kind: 'tool-result',
    tool: { name: 'run', arguments: { cmd: id }, callId: `c-${id}` },
    status,
    ...extra,
  });
}

export function obligation(id: string, needs: Loose, extra: Loose = {}): Loose {
  return {
    id,
    description: `needs ${id}`,
    neededAtTurn: 20,
    needs,
    probe: { question: 'q', expectedAnswer: 'a' },
    ...extra,
  };
}

export function fixture(items: Loose[], downstream: Loose[], visible: Loose = {}, world: Loose = {}): Fixture {
  const turn = Math.max(...items.map((i) => i.turn as number));
  return Fixture.parse({
    schemaVersion: 1,
    id: 'f',
    title: 't',
    description: 'd',
    tools: [{ name: 'run', sideEffect: 'read-mutable' }],
    items,
    world,
    prunePoints: [{ id: 'p', turn, time: time(turn), budgetTokens: 100, subgoal: 'go on', visible, downstream }],
  });
}

export function oracle(point: Loose): Oracle {
  return Oracle.parse({ schemaVersion: 1, fixtureId: 'f', points: [{ prunePoint: 'p', ...point }] });
}

/** The obligations after removing `removed` (each leaving `leftBehind`, default nothing), by id: preserved or not. */
export function judged(f: Fixture, removed: (string | RemovalLeft)[]): Record<string, boolean> {
  const point = f.prunePoints[0]!;
  const view = buildView(f, point.id, () => 1);
  const removals = removed.map((r) => (typeof r === 'string' ? { itemId: r, leftBehind: '' } : r));
  return Object.fromEntries(obligationsAt({ fixture: f, point, view, removals }).map((o) => [o.id, o.preserved]));
}
