// A pruner condition reads each item as a piece; the piece of a frozen item is made once and shared by every view
// and format that asks for it, and one of an item that can still change is made afresh.
import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../src/fixture/freeze.js';
import { pieceOf, piecesOf } from '../../src/pruners/pieces.js';
import { callAndResult, makeView, note } from '../policy/build-view.js';

const spec = () => ({ items: [note('task', 0, 'the issue'), ...callAndResult('1', 1, 'read_file', { path: 'a.ts' })] });

describe('piecesOf', () => {
  it('gives each item its piece, in view order', () => {
    const view = makeView(spec());
    expect(piecesOf(view)).toEqual(view.items.map(pieceOf));
    expect(piecesOf(view).map((p) => p.kind)).toEqual(['reasoning', 'tool-call', 'tool-result']);
  });

  it('shares one frozen piece per frozen item with every view that holds that item', () => {
    const view = deepFreeze(makeView(spec()));
    const [first, again] = [piecesOf(view), piecesOf(view)];
    first.forEach((p, i) => expect(again[i]).toBe(p));
    for (const p of first) expect(Object.isFrozen(p)).toBe(true);
    // Another view holding the same item objects: the same pieces.
    const later = deepFreeze({ ...view, items: view.items.slice(0, 2) });
    expect(piecesOf(later)).toEqual(first.slice(0, 2));
    piecesOf(later).forEach((p, i) => expect(p).toBe(first[i]));
  });

  it('makes a fresh piece for an item that is not frozen, which sees the item as it is now', () => {
    const view = makeView(spec());
    const items = view.items.map((i) => ({ ...i }));
    const open = { ...view, items };
    const before = piecesOf(open)[0]!;
    (items[0] as { content: string }).content = 'edited';
    expect(piecesOf(open)[0]!.text).toBe('edited');
    expect(before.text).toBe('the issue');
  });
});
