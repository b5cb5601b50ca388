// Held-out review G (7 December): the regenerability gate's "sole record of a user constraint, credential or
// preference" counted another item as holding a user record when it repeated the record's content whole, whatever else
// the record showed. A preference given with an image ("match this layout" and the screenshot) then went, at rung 3 and
// on prediction, because a note repeated its words; the image was nowhere else in context. The rule now: another item
// holds a user record only where it repeats each text the record shows (its content and each text block) as a unit
// (`holdsAsUnit`) and shows each of its other blocks (an image, a binary, by hash; `showsBlocksOf`). Both sides,
// through the gate, the predictor's withholding, the guard, rung 3 and the ladders.
import { describe, expect, it } from 'vitest';
import { classifierCandidates } from '../../src/policy/mechanisms/predictive-semantic.js';
import { regenerabilityGate } from '../../src/policy/regenerability.js';
import type { ItemSpec } from './build-view.js';
import { at, closedUnit, condition, decideById, makeView, note, result } from './build-view.js';

type View = ReturnType<typeof makeView>;
const V = (name: string, view: View, id: string) => at(decideById(condition(name), view), id);

const SHOT = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
const image = (sha256: string) => ({ type: 'image', mediaType: 'image/png', sha256 });
const WORDS = 'match this layout';

/** The user's preference: its words and a screenshot. */
const preference = (turn = 1): ItemSpec => ({
  id: 'u',
  turn,
  kind: 'preference',
  origin: 'user',
  content: WORDS,
  blocks: [{ type: 'text', text: WORDS }, image(SHOT)],
});

/** A note that repeats the preference's words whole (a sentence after a colon), with `blocks` when given. */
const echo = (id: string, turn: number, blocks?: unknown[]): ItemSpec =>
  note(
    id,
    turn,
    `deploy server. User asked: ${WORDS}`,
    blocks ? { blocks: [{ type: 'text', text: `deploy server. User asked: ${WORDS}` }, ...blocks] } : {},
  );

/** The preference, a note echoing it relevant to the subgoal (so the predictor keeps the note), and an unrelated result. */
const predictorView = (blocks?: unknown[]) =>
  makeView({
    items: [preference(), echo('n2', 2, blocks), result('q3', 3, 'zzz unrelated listing')],
    subgoal: 'deploy the server',
  });

/** The preference inside a closed unit's trace; the echo outside it. Rung 3 would remove the trace. */
const closureView = (blocks?: unknown[]) =>
  makeView({
    items: [
      preference(),
      result('r2', 2, 'layout check: 3 panels'),
      note('n3', 3, 'Decision: three panels'),
      echo('n5', 5, blocks),
    ],
    subgoal: 'deploy the server',
    visible: { workUnits: [closedUnit('wu1', ['u', 'r2', 'n3'], 'n3', ['three panels'])] },
  });

describe('the gate: a user record is held elsewhere only with every block it shows', () => {
  it('refuses a preference whose words a note repeats but whose image nothing else shows', () => {
    const refused = regenerabilityGate(predictorView(), ['u']).get('u');
    expect(refused).toContain('sole record of a user preference');
    expect(regenerabilityGate(predictorView([image(OTHER)]), ['u']).get('u')).toContain('sole record');
  });
  it('lets it go where the holder repeats the words and shows the same image', () => {
    expect(regenerabilityGate(predictorView([image(SHOT)]), ['u']).has('u')).toBe(false);
  });
  it('a text-only record still goes on a holder of its text', () => {
    const view = makeView({
      items: [{ id: 'u', turn: 1, kind: 'constraint', origin: 'user', content: WORDS }, echo('n2', 2)],
    });
    expect(regenerabilityGate(view, ['u']).has('u')).toBe(false);
  });
  it('refuses a record whose second text block nothing repeats; lets it go where a holder repeats each text', () => {
    const record: ItemSpec = {
      id: 'u',
      turn: 1,
      kind: 'constraint',
      origin: 'user',
      content: 'use tabs',
      blocks: [
        { type: 'text', text: 'use tabs' },
        { type: 'text', text: 'never push to main' },
      ],
    };
    const view = (holder: string) => makeView({ items: [record, note('n2', 2, holder)] });
    expect(regenerabilityGate(view('Rules: use tabs.'), ['u']).get('u')).toContain('sole record of a user constraint');
    expect(regenerabilityGate(view('Rules:\nuse tabs\nnever push to main'), ['u']).has('u')).toBe(false);
  });
  it('an image-only record has no holder', () => {
    const view = makeView({
      items: [
        { id: 'u', turn: 1, kind: 'preference', origin: 'user', content: '', blocks: [image(SHOT)] },
        note('n2', 2, 'see the image', { blocks: [{ type: 'text', text: 'see the image' }, image(SHOT)] }),
      ],
    });
    expect(regenerabilityGate(view, ['u']).get('u')).toContain('sole record of a user preference');
  });
  it('the holder of a record with an image is leaned on once the record goes', () => {
    const view = predictorView([image(SHOT)]);
    expect(regenerabilityGate(view, ['n2'], new Set(['u'])).get('n2')).toContain('sole record of a user preference');
  });
});

describe('rung 4: what the predictor may be shown and remove', () => {
  it('never shows the gated predictor the preference when its image is held nowhere else', () => {
    expect(classifierCandidates(predictorView(), ['u', 'n2', 'q3'], 'gated')).not.toContain('u');
    expect(classifierCandidates(predictorView([image(SHOT)]), ['u', 'n2', 'q3'], 'gated')).toContain('u');
  });
  for (const name of ['ladder-0-4', 'regenerability-guard']) {
    it(`${name} keeps the preference with its image; removes it where the holder shows the image`, () => {
      expect(V(name, predictorView(), 'u').verdict).not.toBe('eligible');
      expect(V(name, predictorView([image(SHOT)]), 'u').verdict).toBe('eligible');
      expect(V(name, predictorView(), 'q3').verdict).toBe('eligible');
    });
  }
});

describe('rung 3: a closed unit trace holding the preference', () => {
  for (const name of ['verified-completion', 'ladder-0-3', 'ladder-0-4']) {
    it(`${name} keeps the preference with its image, removes the rest of the trace`, () => {
      const d = decideById(condition(name), closureView());
      expect(at(d, 'u').verdict, at(d, 'u').reason).not.toBe('eligible');
      expect(at(d, 'u').reason).toContain('sole record of a user preference');
      expect(at(d, 'r2').verdict).toBe('eligible');
    });
    it(`${name} removes it where the echo shows the image too`, () => {
      const d = decideById(condition(name), closureView([image(SHOT)]));
      expect(at(d, 'u'), at(d, 'u').reason).toMatchObject({ verdict: 'eligible', rule: 'verified-completion' });
    });
  }
});
