import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REDACTION_KINDS, emptyCounts, marker, redactText, type RedactionKind } from '../../src/traces/redact.js';
import { cli } from '../support/cli.js';
import { sample, tempDir } from './support.js';

// Built at run time so the repository holds no string a secret scanner would flag.
const SECRETS: Record<RedactionKind, { text: string; secret: string }> = (() => {
  const a = (n: number, c = 'A') => c.repeat(n);
  const pem = ['-----BEGIN ', 'RSA PRIVATE KEY-----\nMIIEow', a(40, 'b'), '\n-----END RSA ', 'PRIVATE KEY-----'].join('');
  return {
    'private-key': { text: `key:\n${pem}\n`, secret: pem },
    'anthropic-key': { text: `ANTHROPIC_API_KEY=${'sk-' + 'ant-api03-' + a(30, 'x')}`, secret: `sk-ant-api03-${a(30, 'x')}` },
    'openai-key': { text: `export OPENAI_API_KEY=${'sk-' + 'proj-' + a(28, 'Q')}`, secret: `sk-proj-${a(28, 'Q')}` },
    'github-token': { text: `token ${'gh' + 'p_' + a(36, 'Z')} used`, secret: `ghp_${a(36, 'Z')}` },
    'aws-access-key': { text: `aws_access_key_id = ${'AK' + 'IA' + a(16, 'K')}`, secret: `AKIA${a(16, 'K')}` },
    'slack-token': { text: `SLACK=${'xo' + 'xb-' + '1234567890-' + a(12, 'q')}`, secret: `xoxb-1234567890-${a(12, 'q')}` },
    'google-api-key': { text: `key=${'AI' + 'za' + a(35, 'g')}`, secret: `AIza${a(35, 'g')}` },
    'bearer-token': { text: `curl -H "Authorization: Bearer ${'eyJ' + a(30, 'h')}" https://api.example.com`, secret: `eyJ${a(30, 'h')}` },
    'url-password': { text: `DATABASE_URL=postgres://admin:${'hunter' + '2secret'}@db.internal:5432/app`, secret: 'hunter2secret' },
  };
})();

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? allFiles(join(dir, n)) : [join(dir, n)]));
}

describe('redaction', () => {
  it('replaces each kind with a marker naming the kind, and counts it', () => {
    for (const kind of REDACTION_KINDS) {
      const { text, secret } = SECRETS[kind];
      const counts = emptyCounts();
      const out = redactText(text, counts);
      expect(out, kind).not.toContain(secret);
      expect(out, kind).toContain(marker(kind, secret));
      expect(out, kind).toMatch(new RegExp(`\\[REDACTED:${kind}:[0-9a-f]{10}\\]`));
      expect(counts[kind], kind).toBe(1);
      expect(Object.values(counts).reduce((s, n) => s + n, 0), `${kind} counted once`).toBe(1);
    }
  });

  it('keeps what is around a secret readable (the user and host of a URL, the header name)', () => {
    const counts = emptyCounts();
    expect(redactText(SECRETS['url-password'].text, counts)).toMatch(/^DATABASE_URL=postgres:\/\/admin:\[REDACTED:url-password:[0-9a-f]{10}\]@db\.internal:5432\/app$/);
    expect(redactText(SECRETS['bearer-token'].text, counts)).toMatch(/Authorization: Bearer \[REDACTED:bearer-token:/);
  });

  it('gives the same secret the same marker and different secrets different markers; redacting twice changes nothing', () => {
    const k1 = SECRETS['github-token'].secret;
    const k2 = k1.replace(/Z$/, 'Y');
    const counts = emptyCounts();
    const once = redactText(`${k1} ${k1} ${k2}`, counts);
    const [m1, m1again, m2] = once.split(' ');
    expect(m1).toBe(m1again);
    expect(m1).not.toBe(m2);
    expect(counts['github-token']).toBe(3);
    expect(redactText(once, emptyCounts())).toBe(once);
  });

  it('leaves ordinary text alone', () => {
    const counts = emptyCounts();
    const text = 'see https://example.com/a:b@c? no; task-boundary sk-short ghp_short AKIA123 Bearer abc';
    expect(redactText(text, counts)).toBe(text);
    expect(Object.values(counts).every((n) => n === 0)).toBe(true);
  });

  it('no redacted secret reaches any file an import, a run of every condition or the ecology writes', async () => {
    const dir = tempDir();
    const session = JSON.parse(readFileSync(sample('opencode-export.json'), 'utf8')) as { messages: { parts: Record<string, unknown>[] }[] };
    const leak = REDACTION_KINDS.map((k) => SECRETS[k].text).join('\n');
    session.messages[0]!.parts[0]!['text'] = `Deploy with these:\n${leak}`;
    (session.messages[1]!.parts[4]!['state'] as Record<string, unknown>)['output'] = leak;
    writeFileSync(join(dir, 'leaky.json'), JSON.stringify(session, null, 2));
    const fixtures = join(dir, 'fixtures');
    const imp = await cli(['import', join(dir, 'leaky.json'), '--out', fixtures]);
    expect(imp.code).toBe(0);
    for (const kind of REDACTION_KINDS) expect(imp.stdout).toContain(`${kind} 2`);
    const run = await cli(['experiment', '--fixtures', fixtures, '--out', join(dir, 'run')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const eco = await cli(['ecology', fixtures, '--out', join(dir, 'eco')]);
    expect(eco.code).toBe(0);
    const written = allFiles(dir).filter((f) => !f.endsWith('leaky.json'));
    expect(written.length).toBeGreaterThan(10);
    for (const file of written) {
      const text = readFileSync(file).toString('latin1');
      for (const kind of REDACTION_KINDS) expect(text.includes(SECRETS[kind].secret), `${kind} in ${file}`).toBe(false);
    }
    const fixture = JSON.parse(readFileSync(join(fixtures, 'opencode.leaky.json'), 'utf8')) as { imported: { redaction: { enabled: boolean; counts: Record<string, number> } }; items: { flags: { oneTimeSecret: boolean } }[] };
    expect(fixture.imported.redaction.enabled).toBe(true);
    expect(fixture.imported.redaction.counts['aws-access-key']).toBe(2);
    expect(fixture.items[0]!.flags.oneTimeSecret).toBe(true);
    for (const stdout of [imp.stdout, run.stdout, eco.stdout]) for (const kind of REDACTION_KINDS) expect(stdout).not.toContain(SECRETS[kind].secret);
  });

  it('--no-redact keeps the strings, warns on stderr and records that redaction was off', async () => {
    const dir = tempDir();
    const session = JSON.parse(readFileSync(sample('opencode-export.json'), 'utf8')) as { messages: { parts: Record<string, unknown>[] }[] };
    session.messages[0]!.parts[0]!['text'] = SECRETS['openai-key'].text;
    writeFileSync(join(dir, 's.json'), JSON.stringify(session));
    const r = await cli(['import', '--no-redact', join(dir, 's.json'), '--out', join(dir, 'out')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: --no-redact');
    expect(r.stdout).toContain('OFF (--no-redact)');
    const written = readFileSync(join(dir, 'out', 'opencode.s.json'), 'utf8');
    expect(written).toContain(SECRETS['openai-key'].secret);
    expect(JSON.parse(written).imported.redaction.enabled).toBe(false);
    expect(JSON.parse(written).items[0].flags.oneTimeSecret).toBe(true);
  });
});
