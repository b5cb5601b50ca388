// The multipliers the economics model bills at are the caching table's, and the table agrees with the dated pricing
// table wherever both speak of the same model.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  cacheProfile,
  CachingTable,
  CACHING_FILE,
  isModelled,
  missingFigures,
  modelledProfiles,
} from '../../src/economics/caching.js';
import { pricingTable } from '../../src/providers/pricing.js';

const table = CachingTable.parse(JSON.parse(readFileSync(CACHING_FILE, 'utf8')));

describe('caching table', () => {
  it('pins Anthropic: 5-minute write 1.25×, 1-hour write 2×, read 0.1×, TTL refreshed on a hit, minimum prefix per model', () => {
    expect(cacheProfile('anthropic-5m', table)).toMatchObject({
      ttlSeconds: 300,
      writeMultiplier: 1.25,
      readMultiplier: 0.1,
      refreshOnHit: true,
      minPrefixTokens: 1024,
    });
    expect(cacheProfile('anthropic-1h', table)).toMatchObject({
      ttlSeconds: 3600,
      writeMultiplier: 2,
      readMultiplier: 0.1,
      refreshOnHit: true,
      minPrefixTokens: 1024,
    });
    expect(cacheProfile('anthropic-5m-4096', table)).toMatchObject({
      writeMultiplier: 1.25,
      readMultiplier: 0.1,
      minPrefixTokens: 4096,
    });
  });

  it('pins OpenAI: automatic, no write surcharge, 1,024-token minimum in 128-token steps', () => {
    expect(cacheProfile('openai-in-memory', table)).toMatchObject({
      mode: 'automatic',
      writeMultiplier: 1,
      minPrefixTokens: 1024,
      prefixStepTokens: 128,
    });
  });

  it("pins Gemini implicit caching's minimum prefix and leaves what no source gave unknown, so it is not billed", () => {
    const gemini = cacheProfile('gemini-implicit', table)!;
    expect(gemini).toMatchObject({ mode: 'automatic', minPrefixTokens: 2048, ttlSeconds: null, readMultiplier: null });
    expect(isModelled(gemini)).toBe(false);
    expect(missingFigures(gemini)).toEqual(['ttlSeconds', 'readMultiplier']);
    expect(modelledProfiles(table).map((p) => p.id)).toEqual([
      'anthropic-5m',
      'anthropic-1h',
      'anthropic-5m-4096',
      'openai-in-memory',
    ]);
  });

  it('dates every figure and names its source', () => {
    for (const p of table.profiles)
      for (const s of p.sources) {
        expect(s.date <= table.retrieved).toBe(true);
        expect(s.url).toMatch(/^(https:\/\/|src\/)/);
      }
  });

  it("agrees with the pricing table on every confirmed Anthropic row it covers, and on OpenAI's read discount", () => {
    const pricing = pricingTable();
    let checked = 0;
    for (const p of modelledProfiles(table)) {
      for (const id of p.models) {
        const row = pricing.models.find((m) => m.ids.includes(id));
        if (!row || row.input === null || row.cacheRead === null) continue;
        expect(row.cacheRead / row.input, `${p.id} ${id} read`).toBeCloseTo(p.readMultiplier, 9);
        if (p.provider === 'anthropic' && p.ttlSeconds === 300 && row.cacheWrite !== null)
          expect(row.cacheWrite / row.input, `${id} write`).toBeCloseTo(p.writeMultiplier, 9);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(4);
  });
});
