// Gateway construction: keys and endpoints come from the environment by provider; replay builds no client.
import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { credentialsOf, gatewayFor, KEY_VARIABLE, URL_VARIABLE } from '../../src/providers/connect.js';

describe('credentialsOf', () => {
  it("reads each provider's own variables and no other provider's", () => {
    const env = { OPENAI_API_KEY: 'sk-o', OPENAI_BASE_URL: 'http://o', ANTHROPIC_API_KEY: 'sk-a' };
    expect(credentialsOf('openai', env)).toEqual({ apiKey: 'sk-o', baseURL: 'http://o' });
    expect(credentialsOf('anthropic', env)).toEqual({ apiKey: 'sk-a', baseURL: undefined });
    expect(KEY_VARIABLE.anthropic).toBe('ANTHROPIC_API_KEY');
    expect(URL_VARIABLE.openai).toBe('OPENAI_BASE_URL');
  });

  it('counts an empty variable, or no environment, as unset', () => {
    expect(credentialsOf('openai', { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' })).toEqual({
      apiKey: null,
      baseURL: undefined,
    });
    expect(credentialsOf('anthropic', undefined)).toEqual({ apiKey: null, baseURL: undefined });
  });
});

describe('gatewayFor', () => {
  const settings = {
    provider: 'openai',
    model: 'gpt-4o-mini',
    apiKey: null,
    baseURL: undefined,
    timeoutMs: 1000,
    cacheMode: 'replay',
    cacheDir: '/nonexistent-cache',
    resume: false,
    maxCostUsd: null,
  } as const;

  it('builds a gateway for the provider and model the settings name, calling nothing', () => {
    const g = gatewayFor(settings, tokenCounter(), 1);
    expect(g.label).toBe('openai/gpt-4o-mini');
    expect(g.stats.networkCalls).toBe(0);
    expect(gatewayFor({ ...settings, provider: 'anthropic', model: 'claude-x' }, tokenCounter(), 1).label).toBe(
      'anthropic/claude-x',
    );
  });
});
