// What a changed text in an item's slot is: both sides of each line the mapping draws.
import { describe, expect, it } from 'vitest';
import { carriedContent, classifyChange, PLACEHOLDER_MAX_CHARS } from '../../src/pruners/changed-text.js';

const LOG = [
  'e93b1d0 Add VAT breakdown to invoice PDF',
  '7c2f4aa Cache exchange rates per invoice run',
  "a41f9c2 Switch invoice totals to banker's rounding",
  '58d0e17 Split line items by tax class',
].join('\n');

describe('a changed text in its slot', () => {
  it('is a placeholder when it is short and carries nothing of the original', () => {
    for (const marker of [
      '[cleared]',
      '<MASKED>',
      '[Old tool result content cleared]',
      '',
      'Old output: (4 lines omitted)',
    ])
      expect(classifyChange(LOG, marker)).toEqual({ kind: 'replaced' });
  });

  it('is a truncation when it keeps a prefix, a suffix or both ends, with at most a bare marker between', () => {
    expect(classifyChange(LOG, LOG.slice(0, 40))).toEqual({ kind: 'truncated', kept: 40 });
    expect(classifyChange(LOG, LOG.slice(-30))).toEqual({ kind: 'truncated', kept: 30 });
    expect(classifyChange(LOG, `${LOG.slice(0, 20)}\n[... truncated ...]\n${LOG.slice(-20)}`)).toEqual({
      kind: 'truncated',
      kept: 40,
    });
  });

  it('is transformation when it carries three words in a row of what it replaces (a summary)', () => {
    const change = classifyChange(LOG, 'Summary: the log shows Switch invoice totals happened once.');
    expect(change.kind).toBe('transformed');
  });

  it('is transformation when it carries an identifier of what it replaces (a hash, a path)', () => {
    expect(classifyChange(LOG, 'rounding came from a41f9c2').kind).toBe('transformed');
    expect(classifyChange('read src/billing/invoice.py: 200 lines', 'see src/billing/invoice.py').kind).toBe(
      'transformed',
    );
  });

  it('is transformation when the new text is longer than any placeholder', () => {
    const long = 'x '.repeat(PLACEHOLDER_MAX_CHARS);
    expect(classifyChange(LOG, long).kind).toBe('transformed');
  });

  it('is transformation when it only adds text (a merged message keeps all of the first and adds the second)', () => {
    expect(classifyChange('first message', 'first message\nsecond message').kind).toBe('transformed');
  });

  it('judges a truncation marker on what was cut: a marker that restates the cut part is a summary', () => {
    const cut = `${LOG.slice(0, 20)} [rest: Cache exchange rates per invoice run] ${LOG.slice(-20)}`;
    expect(classifyChange(LOG, cut).kind).toBe('transformed');
  });

  it('reads words regardless of case and punctuation, but lets common short words through', () => {
    expect(carriedContent('[CLEARED: the tool output]', 'the tool output was 3 lines')).not.toBeNull();
    expect(carriedContent('[tool output cleared]', 'the tool output was 3 lines')).toBeNull();
  });
});
