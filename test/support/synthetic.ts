// Small synthetic corpora for the leak audit and the feature-reading controls: every item is drawn from one
// distribution (kind, tool, phrasing, length) whatever its label, except for the one leak a corpus is built with.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { Fixture, Oracle } from '../../src/fixture/schema.js';
import { timeOf } from '../policy/build-view.js';

/**
 * `id`: removable items are named drop-N, necessary ones keep-N; `position`: the older half is removable; `layout`:
 * a removable item shares its turn with the removable item before it when that one stands alone, a necessary item
 * always has a turn of its own; `order`: every turn holds two items, and where one is removable and the other not,
 * the removable one comes first; `pairs`: every turn holds two items in no order that follows the label (`order`'s
 * layout without its leak); `lines`: a removable item repeats the text of the last removable item before it, so
 * neither holds a line no other item holds, while its words are drawn as every item's are; `none`: labels drawn independently of everything (ids are a random word and a counter,
 * one item per turn).
 */
export type Leak = 'id' | 'position' | 'layout' | 'order' | 'pairs' | 'lines' | 'none';

export interface SyntheticOptions {
  readonly leak: Leak;
  readonly fixtures: number;
  readonly items: number;
  readonly seed: string;
  /** Share of removable items when labels are drawn (`id`, `none`). */
  readonly removableShare?: number;
}

const ID_WORDS = ['read', 'run', 'note', 'edit', 'grep', 'plan'];
const VOCABULARY = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'build',
  'test',
  'config',
  'read',
  'file',
  'port',
  'retry',
  'cache',
  'error',
  'ok',
  'node',
  'path',
];

export function syntheticCorpus(o: SyntheticOptions): { fixture: Fixture; oracle: Oracle }[] {
  const random = seedrandom(o.seed);
  const share = o.removableShare ?? 0.5;
  return Array.from({ length: o.fixtures }, (_, f) => {
    const id = `syn-${o.leak}-${f}`;
    const labels = Array.from({ length: o.items }, (_, i) =>
      o.leak === 'position' ? i < o.items / 2 : random() < share,
    );
    if (o.leak === 'order')
      for (let i = 0; i + 1 < labels.length; i += 2)
        if (!labels[i] && labels[i + 1]) [labels[i], labels[i + 1]] = [true, false];
    // The turn of each item: one each, except that under `layout` removable items pair up within a turn, and under
    // `order` and `pairs` every two items share one.
    const turns: number[] = [];
    labels.forEach((removable, i) => {
      const previous = turns[i - 1];
      const pairs =
        o.leak === 'order' || o.leak === 'pairs'
          ? i % 2 === 1
          : o.leak === 'layout' &&
            removable &&
            i > 0 &&
            labels[i - 1] &&
            turns.filter((t) => t === previous).length === 1;
      turns.push(pairs ? previous! : (previous ?? -1) + 1);
    });
    let lastRemovable: string | undefined;
    const items = labels.map((removable, i) => {
      const words = Array.from(
        { length: 3 + Math.floor(random() * 12) },
        () => VOCABULARY[Math.floor(random() * VOCABULARY.length)]!,
      );
      const content = o.leak === 'lines' && removable && lastRemovable !== undefined ? lastRemovable : words.join(' ');
      if (removable) lastRemovable = content;
      return {
        // Without an id leak, ids are a word drawn independently of the label, and a counter.
        id:
          o.leak === 'id'
            ? `${removable ? 'drop' : 'keep'}-${i}`
            : `${ID_WORDS[Math.floor(random() * ID_WORDS.length)]!}-${i}`,
        turn: turns[i]!,
        time: timeOf(turns[i]!),
        origin: 'environment',
        kind: 'tool-result',
        content,
        tool: { name: 'shell', arguments: { n: i }, callId: `k${i}` },
        status: { state: 'ok' },
      };
    });
    const turn = turns[turns.length - 1]!;
    const fixture = Fixture.parse({
      schemaVersion: 1,
      id,
      title: id,
      description: 'synthetic corpus for the leak audit',
      tools: [{ name: 'shell', sideEffect: 'read-mutable' }],
      items,
      prunePoints: [{ id: 'p1', turn, time: timeOf(turn), budgetTokens: 100_000, subgoal: 'finish the task' }],
    });
    const oracle = Oracle.parse({
      schemaVersion: 1,
      fixtureId: id,
      points: [{ prunePoint: 'p1', removable: items.filter((_, i) => labels[i]).map((item) => item.id) }],
    });
    return { fixture, oracle };
  });
}

/** Writes a synthetic corpus as fixture files and oracles into a fresh folder; returns the folder. */
export function writeSynthetic(o: SyntheticOptions): string {
  const dir = mkdtempSync(join(tmpdir(), 'prunelab-synthetic-'));
  mkdirSync(join(dir, 'oracles'));
  for (const { fixture, oracle } of syntheticCorpus(o)) {
    writeFileSync(join(dir, `${fixture.id}.json`), JSON.stringify(fixture, null, 2));
    writeFileSync(join(dir, 'oracles', `${fixture.id}.oracle.json`), JSON.stringify(oracle, null, 2));
  }
  return dir;
}
