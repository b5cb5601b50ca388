import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCells, csvRow, csvTable } from '../../src/artifacts/csv.js';

describe('csv', () => {
  it('quotes only a field with a comma, quote or line break, doubling quotes, and writes null as empty', () => {
    expect(csvRow(['plain', 'a,b', 'say "hi"', 'cr\r', 3, false, null])).toBe(
      'plain,"a,b","say ""hi""","cr\r",3,false,\n',
    );
    expect(
      csvTable([
        ['h1', 'h2'],
        [1, 'x'],
      ]),
    ).toBe('h1,h2\n1,x\n');
  });

  it('reads back every row it writes (fields without line breaks)', () => {
    const field = fc.string().filter((s) => !/[\n\r]/.test(s));
    fc.assert(
      fc.property(fc.array(field, { minLength: 1, maxLength: 6 }), (values) => {
        expect(csvCells(csvRow(values).slice(0, -1))).toEqual(values);
      }),
    );
  });
});
