import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/fixture/canonical.js';
import { REDACTION_KINDS, SecretNumbering, emptyCounts, isSecretName, marker, redactJson, redactText, type RedactionKind } from '../../src/traces/redact.js';
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
    'basic-auth': { text: `curl -H "Authorization: Basic ${Buffer.from('deploy:' + 'tr0ub4dor').toString('base64')}" https://x.example`, secret: Buffer.from('deploy:tr0ub4dor').toString('base64') },
    'secret-assignment': { text: `DB_PASSWORD=${'correct' + '-horse-9'}`, secret: 'correct-horse-9' },
  };
})();

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? allFiles(join(dir, n)) : [join(dir, n)]));
}

/** One text redacted with its own numbering. */
const redact = (text: string, counts = emptyCounts()) => redactText(text, counts, new SecretNumbering());

describe('redaction', () => {
  it('replaces each kind with a marker naming the kind, and counts it', () => {
    for (const kind of REDACTION_KINDS) {
      const { text, secret } = SECRETS[kind];
      const counts = emptyCounts();
      const out = redact(text, counts);
      expect(out, kind).not.toContain(secret);
      expect(out, kind).toContain(marker(kind, 1));
      expect(counts[kind], kind).toBe(1);
      expect(Object.values(counts).reduce((s, n) => s + n, 0), `${kind} counted once`).toBe(1);
    }
  });

  it('keeps what is around a secret readable (the user and host of a URL, the header name)', () => {
    const counts = emptyCounts();
    expect(redact(SECRETS['url-password'].text, counts)).toBe('DATABASE_URL=postgres://admin:[REDACTED:url-password:1]@db.internal:5432/app');
    expect(redact(SECRETS['bearer-token'].text, counts)).toMatch(/Authorization: Bearer \[REDACTED:bearer-token:1\]"/);
    expect(redact(SECRETS['basic-auth'].text, counts)).toBe('curl -H "Authorization: Basic [REDACTED:basic-auth:1]" https://x.example');
    expect(redact(SECRETS['secret-assignment'].text, counts)).toBe('DB_PASSWORD=[REDACTED:secret-assignment:1]');
  });

  it('puts nothing derived from the secret in the marker: a weak password cannot be found by hashing guesses', () => {
    for (const kind of REDACTION_KINDS) {
      const { text, secret } = SECRETS[kind];
      const out = redact(text);
      for (const n of [6, 8, 10, 12]) expect(out, kind).not.toContain(sha256(secret).slice(0, n));
      expect(out.match(/\[REDACTED:[^\]]*\]/g), kind).toEqual([marker(kind, 1)]);
    }
  });

  it('gives the same secret the same marker and different secrets different markers; redacting twice changes nothing', () => {
    const k1 = SECRETS['github-token'].secret;
    const k2 = k1.replace(/Z$/, 'Y');
    const counts = emptyCounts();
    const numbering = new SecretNumbering();
    const once = redactText(`${k2} ${k1} ${k2}`, counts, numbering);
    expect(once).toBe('[REDACTED:github-token:1] [REDACTED:github-token:2] [REDACTED:github-token:1]');
    expect(counts['github-token']).toBe(3);
    // The numbering carries over to the next text of the same import, and numbers each kind on its own.
    expect(redactText(`${k1} ${SECRETS['url-password'].text}`, counts, numbering)).toBe('[REDACTED:github-token:2] DATABASE_URL=postgres://admin:[REDACTED:url-password:1]@db.internal:5432/app');
    expect(redactText(once, emptyCounts(), numbering)).toBe(once);
  });

  it('leaves ordinary text alone', () => {
    const counts = emptyCounts();
    const text = 'see https://example.com/a:b@c? no; task-boundary sk-short ghp_short AKIA123 Bearer abc';
    expect(redactText(text, counts, new SecretNumbering())).toBe(text);
    expect(Object.values(counts).every((n) => n === 0)).toBe(true);
  });

  // [text, the secret in it, what the text becomes]; values built at run time like SECRETS above.
  const pw = 'Pa' + 'ss-w0rd';
  const b64 = Buffer.from(`ann:${pw}`).toString('base64');
  const FORMS: [string, string, string][] = [
    [`API_KEY=${pw}`, pw, 'API_KEY=[REDACTED:secret-assignment:1]'],
    [`export OPENAI_API_KEY=${pw}`, pw, 'export OPENAI_API_KEY=[REDACTED:secret-assignment:1]'],
    [`export GITHUB_TOKEN="${pw}"; make`, pw, 'export GITHUB_TOKEN="[REDACTED:secret-assignment:1]"; make'],
    [`{"user": "ann", "password": "${pw}"}`, pw, '{"user": "ann", "password": "[REDACTED:secret-assignment:1]"}'],
    [`config = {'client_secret': '${pw}'}`, pw, "config = {'client_secret': '[REDACTED:secret-assignment:1]'}"],
    [`db:\n  host: localhost\n  secret: ${pw} # prod\n`, pw, 'db:\n  host: localhost\n  secret: [REDACTED:secret-assignment:1] # prod\n'],
    [`- apiKey: ${pw}`, pw, '- apiKey: [REDACTED:secret-assignment:1]'],
    [`X-Api-Key: ${pw}`, pw, 'X-Api-Key: [REDACTED:secret-assignment:1]'],
    [`token=${pw}`, pw, 'token=[REDACTED:secret-assignment:1]'],
    [`GET https://h.example/cb?code=1&access_token=${pw}&x=2`, pw, 'GET https://h.example/cb?code=1&access_token=[REDACTED:secret-assignment:1]&x=2'],
    [`url=https://h.example/?token=${pw}`, pw, 'url=https://h.example/?token=[REDACTED:secret-assignment:1]'],
    [`mysql --user root --password ${pw} app`, pw, 'mysql --user root --password [REDACTED:secret-assignment:1] app'],
    [`tool --api-key=${pw}`, pw, 'tool --api-key=[REDACTED:secret-assignment:1]'],
    [`AWS_SECRET_ACCESS_KEY = "${pw}"`, pw, 'AWS_SECRET_ACCESS_KEY = "[REDACTED:secret-assignment:1]"'],
    [`headers = {"Authorization": "Basic ${b64}"}`, b64, 'headers = {"Authorization": "Basic [REDACTED:basic-auth:1]"}'],
    [`Proxy-Authorization: basic ${b64}`, b64, 'Proxy-Authorization: basic [REDACTED:basic-auth:1]'],
  ];
  for (const [text, secret, want] of FORMS) {
    it(`redacts the secret-named assignment or header in ${JSON.stringify(text.replace(pw, '…').replace(b64, '…'))}`, () => {
      const out = redact(text);
      expect(out).toBe(want);
      expect(out).not.toContain(secret);
    });
  }

  it('leaves ordinary words, non-secret keys and references to secrets alone', () => {
    const texts = [
      'Implement the password reset flow; the tokenizer splits words; see secret_santa.py and token_count',
      'token_count=512 max_tokens: 100 password_reset_url=https://h.example/reset secret_santa=true',
      '"token_count": "512", "tokenizer": "o200k_base", "primary_key": "id", "key": "value"',
      'Basic configuration: Authorization header absent',
      'password: $DB_PASSWORD\ntoken=${TOKEN}\nsecret: <your secret here>\napi_key: null',
      'const token = getToken();\nif password == expected: pass\nThe password is required.\nPassword reset: see the docs',
      'mytool --token-file ./t.txt --password-stdin --secret --verbose',
    ];
    for (const text of texts) {
      const counts = emptyCounts();
      expect(redact(text, counts)).toBe(text);
      expect(Object.values(counts).every((n) => n === 0), text).toBe(true);
    }
  });

  it('knows a secret-named key by its last word', () => {
    for (const k of ['password', 'DB_PASSWORD', 'apiKey', 'OPENAI_API_KEY', 'AWS_SECRET_ACCESS_KEY', 'csrf-token', 'client.secret', 'db_pass']) expect(isSecretName(k), k).toBe(true);
    for (const k of ['tokenizer', 'token_count', 'max_tokens', 'secret_santa', 'password_reset_url', 'primary_key', 'key', 'passport', 'PGPASS']) expect(isSecretName(k), k).toBe(false);
  });

  it('redacts the value of a secret-named key in the parsed record itself (a tool call with {"password": ...})', () => {
    const counts = emptyCounts();
    const numbering = new SecretNumbering();
    const record = { tool: 'login', input: { user: 'ann', password: pw, token_count: 3, apiKey: '$KEY' } };
    const out = redactJson(record, counts, numbering);
    expect(out).toEqual({ tool: 'login', input: { user: 'ann', password: '[REDACTED:secret-assignment:1]', token_count: 3, apiKey: '$KEY' } });
    expect(counts['secret-assignment']).toBe(1);
    // The same secret met later as text in the same import gets the same marker.
    expect(redactText(`password=${pw}`, counts, numbering)).toBe('password=[REDACTED:secret-assignment:1]');
  });

  it('numbers secrets across every file of one import in order of first appearance, the same on every run', async () => {
    const dir = tempDir();
    const base = readFileSync(sample('opencode-export.json'), 'utf8');
    const other = SECRETS['github-token'].secret.replace(/Z$/, 'Y');
    const write = (name: string, text: string) => {
      const session = JSON.parse(base) as { messages: { parts: Record<string, unknown>[] }[] };
      session.messages[0]!.parts[0]!['text'] = text;
      writeFileSync(join(dir, name), JSON.stringify(session));
    };
    write('a.json', `use ${SECRETS['github-token'].secret}`);
    write('b.json', `use ${other} then ${SECRETS['github-token'].secret}`);
    const runs: string[][] = [];
    for (const out of ['o1', 'o2']) {
      const r = await cli(['import', join(dir, 'a.json'), join(dir, 'b.json'), '--out', join(dir, out)]);
      expect(r.code).toBe(0);
      runs.push(['opencode.a.json', 'opencode.b.json'].map((f) => readFileSync(join(dir, out, f), 'utf8')));
    }
    const [a, b] = runs[0]!;
    expect(a).toContain('use [REDACTED:github-token:1]');
    expect(b).toContain('use [REDACTED:github-token:2] then [REDACTED:github-token:1]');
    expect(runs[1]).toEqual(runs[0]);
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
