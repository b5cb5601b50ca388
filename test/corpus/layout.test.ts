// Turn layout is not a label: every unit shares turns and the pieces of one turn are laid out in a drawn order
// (generator 4). Under generator 3 episodes owned their turns and generic steps piled into the rest, so items per
// turn and their kinds told episode items (mostly removable) from generic work (mostly needed). Both sides: what the
// builder must still hold (a unit's own items in order, a call before its result) and what it must no longer do.
import { describe, expect, it } from 'vitest';
import { TrajectoryBuilder } from '../../src/corpus/builder.js';
import { composeFixture, GENERIC_WORK } from '../../src/corpus/compose.js';
import { rng } from '../../src/corpus/rng.js';
import { Fixture } from '../../src/fixture/schema.js';

function builder(order?: number): TrajectoryBuilder {
  const b = new TrajectoryBuilder(0, rng('ids'), order === undefined ? undefined : rng(`order-${order}`));
  b.tool('run', 'pure', 'runs a command');
  return b;
}

describe('the builder lays out shared turns', () => {
  it('lets another unit write into a turn an opening unit has passed, and puts it back in turn order', () => {
    const b = builder(3);
    b.writingFor('f0').at(4);
    b.note('model', 'reasoning', 'a');
    b.at(5).note('model', 'reasoning', 'b');
    b.writingFor('g0').at(4);
    b.note('model', 'reasoning', 'c');
    b.arrange();
    expect(b.items.map((it) => it.turn)).toEqual([4, 4, 5]);
    expect(b.items.find((it) => it.content === 'b')!.turn).toBe(5);
  });

  it('still refuses a unit going back to a turn before its own last one', () => {
    const b = builder(3);
    b.writingFor('f0').at(5);
    b.writingFor('g0').at(2);
    b.writingFor('f0');
    expect(() => b.at(4)).toThrow(/moved back from turn 5 to 4/);
  });

  it("keeps one unit's piece of a turn together and in writing order, a call before its result", () => {
    for (let order = 0; order < 20; order += 1) {
      const b = builder(order);
      for (const unit of ['f0', 'g0', 'g1', 'g2']) {
        b.writingFor(unit).at(1);
        b.note('model', 'reasoning', `${unit} note`);
        b.call({ tool: 'run', arguments: { u: unit }, content: `${unit} call` }, { content: `${unit} result` });
      }
      b.arrange();
      const units = b.items.map((it) => it.content.split(' ')[0]);
      for (let k = 0; k < units.length; k += 3) {
        expect(units.slice(k, k + 3)).toEqual([units[k], units[k], units[k]]);
        expect(b.items.slice(k, k + 3).map((it) => it.content.split(' ')[1])).toEqual(['note', 'call', 'result']);
      }
    }
  });

  it('draws where each piece sits from the order stream: no unit is always first', () => {
    const firsts = new Set<string>();
    for (let order = 0; order < 30; order += 1) {
      const b = builder(order);
      for (const unit of ['f0', 'g0', 'g1']) b.writingFor(unit).at(1).note('model', 'reasoning', unit);
      b.arrange();
      firsts.add(b.items[0]!.content);
    }
    expect([...firsts].sort()).toEqual(['f0', 'g0', 'g1']);
  });

  it('without an order stream keeps writing order (scratch builders)', () => {
    const b = builder();
    for (const unit of ['f0', 'g0', 'g1']) b.writingFor(unit).at(1).note('model', 'reasoning', unit);
    b.arrange();
    expect(b.items.map((it) => it.content)).toEqual(['f0', 'g0', 'g1']);
  });
});

describe('composed fixtures share turns between episodes and generic work', () => {
  const composed = Array.from({ length: 24 }, (_, i) => {
    const c = composeFixture(11, i);
    return { units: c.units, fixture: Fixture.parse(c.fixture) };
  });

  it('puts generic work into turns an episode writes, and an episode piece after generic work in some of them', () => {
    let shared = 0;
    let episodeNotFirst = 0;
    for (const c of composed) {
      const unitOf = new Map<string, 'episode' | 'generic'>();
      for (const e of c.units)
        for (const id of e.items) unitOf.set(id, e.family === GENERIC_WORK ? 'generic' : 'episode');
      const byTurn = new Map<number, ('episode' | 'generic' | undefined)[]>();
      for (const it of c.fixture.items) byTurn.set(it.turn, [...(byTurn.get(it.turn) ?? []), unitOf.get(it.id)]);
      for (const kinds of byTurn.values()) {
        if (kinds.includes('episode') && kinds.includes('generic')) {
          shared += 1;
          if (kinds[0] === 'generic') episodeNotFirst += 1;
        }
      }
    }
    expect(shared).toBeGreaterThan(20);
    expect(episodeNotFirst).toBeGreaterThan(5);
  });

  it('keeps the trajectory in turn order with every result after its call', () => {
    for (const c of composed) {
      const items = c.fixture.items;
      for (let k = 1; k < items.length; k += 1) expect(items[k]!.turn).toBeGreaterThanOrEqual(items[k - 1]!.turn);
      const callAt = new Map<string, number>();
      items.forEach((it, k) => {
        if (it.kind === 'tool-call') callAt.set(it.tool!.callId, k);
        if (it.kind === 'tool-result') expect(callAt.get(it.tool!.callId)).toBeLessThan(k);
      });
    }
  });
});
