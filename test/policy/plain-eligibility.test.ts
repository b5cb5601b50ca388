// The engine's plain check of a condition's output stands in for EligibilitySchema on the common path, so it must
// never accept what the schema refuses (nor accept something the schema would change), and it must still accept
// the ordinary eligibilities every built-in condition returns.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EligibilitySchema, isPlainEligibility } from '../../src/policy/types.js';

const valid = {
  itemId: 'i1',
  verdict: 'eligible',
  rule: 'exact-redundancy',
  rung: 0,
  reason: 'an identical copy stays',
  obligationsConsulted: ['ob-1'],
};

/** Values that are right for some field and wrong for others. */
const anyValue = fc.oneof(
  fc.constantFrom('', 'i1', 'keep', 'eligible', 'abstain', 'KEEP', 'payload', 'fields.exit_code', 'fields.', 'bulk'),
  fc.constantFrom(0, 1, 4, 5, -1, 1.5, null, undefined, Number.NaN, true),
  fc.array(fc.constantFrom('tool', 'payload', 'x', 'ob-1', 3 as unknown as string), { maxLength: 3 }),
  fc.constant({}),
);
const key = fc.constantFrom(
  'itemId',
  'verdict',
  'rule',
  'rung',
  'reason',
  'obligationsConsulted',
  'residue',
  'replacement',
  'step',
  'extra',
);

describe('isPlainEligibility', () => {
  it('accepts only what EligibilitySchema accepts, and exactly as the schema would give it back', () => {
    fc.assert(
      fc.property(fc.dictionary(key, anyValue, { maxKeys: 10 }), fc.boolean(), (fields, onValid) => {
        const raw = onValid ? { ...valid, ...fields } : fields;
        if (!isPlainEligibility(raw)) return;
        const parsed = EligibilitySchema.safeParse(raw);
        expect(parsed.success).toBe(true);
        expect(parsed.data).toEqual(raw);
      }),
      { numRuns: 3000 },
    );
  });

  it('accepts the eligibilities conditions return: keep, abstain, residue, replacement, step', () => {
    expect(isPlainEligibility(valid)).toBe(true);
    expect(isPlainEligibility({ ...valid, verdict: 'keep', rung: null, obligationsConsulted: [] })).toBe(true);
    expect(isPlainEligibility({ ...valid, residue: ['tool', 'errorType', 'fields.exit_code'] })).toBe(true);
    expect(isPlainEligibility({ ...valid, replacement: '', step: 2 })).toBe(true);
  });

  it('refuses what the schema refuses: extra keys, empty ids, bad rungs, bad residue fields, a step of 0', () => {
    for (const bad of [
      { ...valid, extra: 1 },
      { ...valid, itemId: '' },
      { ...valid, rung: 5 },
      { ...valid, verdict: 'PRUNE' },
      { ...valid, residue: ['bulk'] },
      { ...valid, step: 0 },
      { ...valid, obligationsConsulted: [1] },
      null,
      [valid],
    ]) {
      expect(isPlainEligibility(bad)).toBe(false);
      expect(EligibilitySchema.safeParse(bad).success).toBe(false);
    }
    // Left to the schema (which accepts it), since the plain check does not decide it.
    expect(isPlainEligibility({ ...valid, replacement: undefined })).toBe(false);
  });
});
