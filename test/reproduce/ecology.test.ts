// The committed results/ecology/ is exactly what npm run ecology:real produces from data/real-traces/, every file
// compared byte for byte. test/traces/ecology.test.ts measures one session of each format in npm test.
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

describe('the committed results/ecology/', () => {
  it('is exactly what npm run ecology:real produces from data/real-traces/', async () => {
    const r = await cli(['ecology', '--real', '--check']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('results/ecology matches a fresh regeneration (41 files, 27 traces,');
  });
});
