import { describe, expect, it } from 'vitest';
import { conditionNames } from '../../src/policy/registry.js';
import { cli } from '../support/cli.js';

describe('the committed results/', () => {
  it('is exactly what the current code and fixtures produce (npm run experiment -- --check)', async () => {
    const r = await cli(['experiment', '--check']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const n = conditionNames().length;
    expect(r.stdout).toContain(`results matches a fresh regeneration (${n * 4} files, ${n} conditions,`);
  });
});
