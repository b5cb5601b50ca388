import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_OBSERVATION_LENGTH,
  maskPlaceholder,
  observationMasking,
  pythonLineCount,
} from '../../src/policy/comparators/observation-masking.js';
import type { ItemSpec } from './build-view.js';
import { at, condition, decideById, makeView, note, result, verdicts } from './build-view.js';

const masking = condition('observation-masking');
const observations = (count: number): ItemSpec[] =>
  Array.from({ length: count }, (_, i) =>
    result(`o${i + 1}`, i + 1, Array.from({ length: i + 1 }, (_, l) => `line ${l}`).join('\n')),
  );

describe('pythonLineCount (str.splitlines)', () => {
  it('counts lines as Python does', () => {
    expect(pythonLineCount('')).toBe(0);
    expect(pythonLineCount('a')).toBe(1);
    expect(pythonLineCount('a\n')).toBe(1);
    expect(pythonLineCount('a\nb')).toBe(2);
    expect(pythonLineCount('a\r\nb\r\n')).toBe(2);
    expect(pythonLineCount('\n\n')).toBe(2);
    expect(pythonLineCount('a\rb\u2028c')).toBe(3);
  });

  it('is the number of parts str.splitlines gives, for any text of line breaks and other characters', () => {
    // The definition the counting loop stands in for: split at every boundary, no empty part after a final one.
    const BOUNDARIES = ['\n', '\r', '\v', '\f', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029'].join('');
    const splitlines = (text: string) => {
      if (text === '') return 0;
      const parts = text.split(new RegExp(`\r\n|[${BOUNDARIES}]`));
      return parts[parts.length - 1] === '' ? parts.length - 1 : parts.length;
    };
    const chars = [
      'a',
      ' ',
      '\t',
      '\n',
      '\r',
      '\v',
      '\f',
      '\x1c',
      '\x1d',
      '\x1e',
      '\x1f',
      '\x85',
      '\u2028',
      '\u2029',
      '\u2030',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...chars), { maxLength: 12 }), (cs) => {
        expect(pythonLineCount(cs.join(''))).toBe(splitlines(cs.join('')));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('observation-masking (SWE-agent LastNObservations, M = 10)', () => {
  it("masks every tool output but the last 10 (SWE-agent's first observation is the task prompt), with the line-count placeholder", () => {
    const view = makeView({ items: [note('task', 0, 'the issue'), ...observations(13)] });
    const d = decideById(masking, view);
    const eligible = masking
      .decide(view)
      .filter((e) => e.verdict === 'eligible')
      .map((e) => e.itemId);
    // The first tool output is masked too: upstream keeps history index 0, the instance template (the task).
    expect(eligible).toEqual(['o1', 'o2', 'o3']);
    // Two lines of output and the three prompt lines of the paper's next_step_template.
    expect(at(d, 'o2').replacement).toBe('Old environment output: (5 lines omitted)');
    expect(at(d, 'o3').replacement).toBe(maskPlaceholder('line 0\nline 1\nline 2'));
    expect(at(d, 'o4').reason).toBe('one of the last 10 observations');
    expect(at(d, 'o4').replacement).toBeUndefined();
    expect(at(d, 'task').reason).toBe('not an observation');
    expect(masking.parameters).toEqual({ keepLast: 10, polling: 1 });
  });

  it('masks nothing with at most 10 tool outputs, and the oldest of 11', () => {
    expect(Object.values(verdicts(masking, makeView({ items: observations(10) }))).every((v) => v === 'keep')).toBe(
      true,
    );
    expect(verdicts(masking, makeView({ items: observations(11) })).o1).toBe('eligible');
  });

  it('ignores protection, as the published processor does', () => {
    const two = observationMasking({ keepLast: 2 });
    const view = makeView({ items: observations(5), visible: { pinned: ['o2'] } });
    expect(verdicts(two, view)).toEqual({ o1: 'eligible', o2: 'eligible', o3: 'eligible', o4: 'keep', o5: 'keep' });
  });

  it('gives every sweep variant the placeholder of the base condition', () => {
    const view = makeView({ items: observations(13) });
    const base = decideById(masking, view);
    for (const keepLast of [1, 2, 5]) {
      const variant = decideById(condition(`observation-masking@${keepLast}`), view);
      expect(at(variant, 'o3').replacement, String(keepLast)).toBe(at(base, 'o3').replacement);
    }
  });
});

// The paper's configuration (the-complexity-trap config/default_no_demo_N=1_M=10.yaml @ adfaa1a) renders an output
// as `{{observation}}` and three prompt lines; SWE-agent counts the lines of that message, not of the output.
describe("observation-masking's placeholder: the lines of the observation message SWE-agent held", () => {
  const lines = (output: string) => Number(/\((\d+) lines omitted\)$/.exec(maskPlaceholder(output))![1]);

  it("counts the output's lines and the template's three prompt lines, no more and no fewer", () => {
    expect(lines('one line')).toBe(4);
    expect(lines('a\nb\nc')).toBe(6);
    // The template puts its own break after the output, so an output's final break leaves an empty line.
    expect(lines('a\n')).toBe(5);
    expect(lines('a\r\nb\r\n')).toBe(6);
    expect(maskPlaceholder('a\nb')).toBe('Old environment output: (5 lines omitted)');
  });

  it("counts a blank output (by Python's str.strip) as the no-output sentence and the prompt, and nothing else as blank", () => {
    expect(lines('')).toBe(4);
    expect(lines('  \n\t\n')).toBe(4);
    // Python strips U+0085 and U+001C, which JS's trim() keeps, and keeps U+FEFF, which trim() strips.
    expect(lines('\x85\n')).toBe(4);
    expect(lines('\x1c')).toBe(4);
    expect(lines('\ufeff\n\ufeff')).toBe(5);
    expect(lines('.\n\n')).toBe(6);
  });

  it('sends an output over 100,000 Python characters through the truncation template, which has no prompt lines', () => {
    expect(MAX_OBSERVATION_LENGTH).toBe(100_000);
    // 50,001 lines of two characters: cut to the first 50,000 lines, the note joining the last of them.
    expect(lines('x\n'.repeat(50_001))).toBe(50_001);
    // Exactly 100,000 characters is not over the limit: 50,000 lines, the empty one and the three prompt lines.
    expect(lines('x\n'.repeat(50_000))).toBe(50_004);
    // Python counts code points: 100,000 emoji are 200,000 UTF-16 units and still not over the limit.
    expect(lines('\u{1F600}'.repeat(100_000))).toBe(4);
    expect(lines(`${'\u{1F600}'.repeat(100_000)}!`)).toBe(1);
  });
});
