import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/fixture/canonical.js';
import {
  REDACTION_KINDS,
  SecretNumbering,
  emptyCounts,
  isSecretName,
  marker,
  redactJson,
  redactText,
  type RedactionKind,
} from '../../src/traces/redact.js';
import { cli } from '../support/cli.js';
import { sample, tempDir } from './support.js';

// Built at run time so the repository holds no string a secret scanner would flag.
const SECRETS: Record<RedactionKind, { text: string; secret: string }> = (() => {
  const a = (n: number, c = 'A') => c.repeat(n);
  const pem = ['-----BEGIN ', 'RSA PRIVATE KEY-----\nMIIEow', a(40, 'b'), '\n-----END RSA ', 'PRIVATE KEY-----'].join(
    '',
  );
  return {
    'private-key': { text: `key:\n${pem}\n`, secret: pem },
    'anthropic-key': {
      text: `ANTHROPIC_API_KEY=${'sk-' + 'ant-api03-' + a(30, 'x')}`,
      secret: `sk-ant-api03-${a(30, 'x')}`,
    },
    'openai-key': { text: `export OPENAI_API_KEY=${'sk-' + 'proj-' + a(28, 'Q')}`, secret: `sk-proj-${a(28, 'Q')}` },
    'github-token': { text: `token ${'gh' + 'p_' + a(36, 'Z')} used`, secret: `ghp_${a(36, 'Z')}` },
    'aws-access-key': { text: `aws_access_key_id = ${'AK' + 'IA' + a(16, 'K')}`, secret: `AKIA${a(16, 'K')}` },
    'slack-token': {
      text: `SLACK=${'xo' + 'xb-' + '1234567890-' + a(12, 'q')}`,
      secret: `xoxb-1234567890-${a(12, 'q')}`,
    },
    'google-api-key': { text: `key=${'AI' + 'za' + a(35, 'g')}`, secret: `AIza${a(35, 'g')}` },
    'bearer-token': {
      text: `curl -H "Authorization: Bearer ${'eyJ' + a(30, 'h')}" https://api.example.com`,
      secret: `eyJ${a(30, 'h')}`,
    },
    'url-password': {
      text: `DATABASE_URL=postgres://admin:${'hunter' + '2secret'}@db.internal:5432/app`,
      secret: 'hunter2secret',
    },
    'basic-auth': {
      text: `curl -H "Authorization: Basic ${Buffer.from('deploy:' + 'tr0ub4dor').toString('base64')}" https://x.example`,
      secret: Buffer.from('deploy:tr0ub4dor').toString('base64'),
    },
    'secret-assignment': { text: `DB_PASSWORD=${'correct' + '-horse-9'}`, secret: 'correct-horse-9' },
    'aws-secret-key': {
      text: `[default]\naws_secret_access_key = ${'wJalrXUtnFEMI/K7MDENG/' + a(18, 'k')}\n`,
      secret: `wJalrXUtnFEMI/K7MDENG/${a(18, 'k')}`,
    },
    jwt: {
      text: `Cookie: session=${'ey' + 'JhbGciOiJIUzI1NiJ9.' + 'ey' + 'JzdWIiOiIxIn0.' + a(20, 's')}; theme=dark`,
      secret: `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.${a(20, 's')}`,
    },
    'vendor-token': { text: `npm token ${'np' + 'm_' + a(36, 'n')}`, secret: `npm_${a(36, 'n')}` },
  };
})();

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) =>
    statSync(join(dir, n)).isDirectory() ? allFiles(join(dir, n)) : [join(dir, n)],
  );
}

/** One text redacted by both rule sets with its own numbering. */
const redact = async (text: string, counts = emptyCounts()) =>
  (await redactJson(text, counts, new SecretNumbering())) as string;

describe('redaction', () => {
  it('replaces each kind with a marker naming the kind, and counts it', async () => {
    for (const kind of REDACTION_KINDS) {
      const { text, secret } = SECRETS[kind];
      const counts = emptyCounts();
      const out = await redact(text, counts);
      expect(out, kind).not.toContain(secret);
      expect(out, kind).toContain(marker(kind, 1));
      expect(counts[kind], kind).toBe(1);
      expect(
        Object.values(counts).reduce((s, n) => s + n, 0),
        `${kind} counted once`,
      ).toBe(1);
    }
  });

  it('keeps what is around a secret readable (the user and host of a URL, the header name)', async () => {
    const counts = emptyCounts();
    expect(await redact(SECRETS['url-password'].text, counts)).toBe(
      'DATABASE_URL=postgres://admin:[REDACTED:url-password:1]@db.internal:5432/app',
    );
    expect(await redact(SECRETS['bearer-token'].text, counts)).toMatch(
      /Authorization: Bearer \[REDACTED:bearer-token:1\]"/,
    );
    expect(await redact(SECRETS['basic-auth'].text, counts)).toBe(
      'curl -H "Authorization: Basic [REDACTED:basic-auth:1]" https://x.example',
    );
    expect(await redact(SECRETS['secret-assignment'].text, counts)).toBe('DB_PASSWORD=[REDACTED:secret-assignment:1]');
  });

  it('puts nothing derived from the secret in the marker: a weak password cannot be found by hashing guesses', async () => {
    for (const kind of REDACTION_KINDS) {
      const { text, secret } = SECRETS[kind];
      const out = await redact(text);
      for (const n of [6, 8, 10, 12]) expect(out, kind).not.toContain(sha256(secret).slice(0, n));
      expect(out.match(/\[REDACTED:[^\]]*\]/g), kind).toEqual([marker(kind, 1)]);
    }
  });

  it('gives the same secret the same marker and different secrets different markers; redacting twice changes nothing', async () => {
    const k1 = SECRETS['github-token'].secret;
    const k2 = k1.replace(/Z$/, 'Y');
    const counts = emptyCounts();
    const numbering = new SecretNumbering();
    const once = redactText(`${k2} ${k1} ${k2}`, counts, numbering);
    expect(once).toBe('[REDACTED:github-token:1] [REDACTED:github-token:2] [REDACTED:github-token:1]');
    expect(counts['github-token']).toBe(3);
    // The numbering carries over to the next text of the same import, and numbers each kind on its own.
    expect(redactText(`${k1} ${SECRETS['url-password'].text}`, counts, numbering)).toBe(
      '[REDACTED:github-token:2] DATABASE_URL=postgres://admin:[REDACTED:url-password:1]@db.internal:5432/app',
    );
    expect(redactText(once, emptyCounts(), numbering)).toBe(once);
  });

  it('leaves ordinary text alone', async () => {
    const counts = emptyCounts();
    const text = 'see https://example.com/a:b@c? no; task-boundary sk-short ghp_short AKIA123 Bearer abc';
    expect(await redact(text, counts)).toBe(text);
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
    [
      `db:\n  host: localhost\n  secret: ${pw} # prod\n`,
      pw,
      'db:\n  host: localhost\n  secret: [REDACTED:secret-assignment:1] # prod\n',
    ],
    [`- apiKey: ${pw}`, pw, '- apiKey: [REDACTED:secret-assignment:1]'],
    [`X-Api-Key: ${pw}`, pw, 'X-Api-Key: [REDACTED:secret-assignment:1]'],
    [`token=${pw}`, pw, 'token=[REDACTED:secret-assignment:1]'],
    [
      `GET https://h.example/cb?code=1&access_token=${pw}&x=2`,
      pw,
      'GET https://h.example/cb?code=1&access_token=[REDACTED:secret-assignment:1]&x=2',
    ],
    [`url=https://h.example/?token=${pw}`, pw, 'url=https://h.example/?token=[REDACTED:secret-assignment:1]'],
    [`mysql --user root --password ${pw} app`, pw, 'mysql --user root --password [REDACTED:secret-assignment:1] app'],
    [`tool --api-key=${pw}`, pw, 'tool --api-key=[REDACTED:secret-assignment:1]'],
    [`AWS_SECRET_ACCESS_KEY = "${pw}"`, pw, 'AWS_SECRET_ACCESS_KEY = "[REDACTED:secret-assignment:1]"'],
    [
      `headers = {"Authorization": "Basic ${b64}"}`,
      b64,
      'headers = {"Authorization": "Basic [REDACTED:basic-auth:1]"}',
    ],
    [`Proxy-Authorization: basic ${b64}`, b64, 'Proxy-Authorization: basic [REDACTED:basic-auth:1]'],
  ];
  for (const [text, secret, want] of FORMS) {
    it(`redacts the secret-named assignment or header in ${JSON.stringify(text.replace(pw, '…').replace(b64, '…'))}`, async () => {
      const out = await redact(text);
      expect(out).toBe(want);
      expect(out).not.toContain(secret);
    });
  }

  it('leaves ordinary words, non-secret keys and references to secrets alone', async () => {
    const texts = [
      'Implement the password reset flow; the tokenizer splits words; see secret_santa.py and token_count',
      'token_count=512 max_tokens: 100 password_reset_url=https://h.example/reset secret_santa=true',
      '"token_count": "512", "tokenizer": "o200k_base", "primary_key": "id", "key": "value"',
      'Basic configuration: Authorization header absent',
      'password: $DB_PASSWORD\ntoken=${TOKEN}\nsecret: <your secret here>\napi_key: null',
      'const token = getToken();\nif password == expected: pass\nThe password is required.\nPassword reset: see the docs',
      'mytool --token-file ./t.txt --password-stdin --secret --verbose',
      // The whole-line INI form wants a credential-looking value; the glued names want a secret word at the end.
      'token = get_token(cfg)\nsecret = None\nretries = 3\npassword = ${DB_PASSWORD}\n[aws]\nregion = us-east-1',
      'PGHOST=db PGPORT=5432 PGUSER=app PGPASSFILE=/run/pgpass psql',
      'a header starts eyJhbGciOiJIUzI1NiJ9 and that is all; -----BEGIN PUBLIC KEY-----',
    ];
    for (const text of texts) {
      const counts = emptyCounts();
      expect(await redact(text, counts)).toBe(text);
      expect(
        Object.values(counts).every((n) => n === 0),
        text,
      ).toBe(true);
    }
  });

  it('knows a secret-named key by its last word', async () => {
    for (const k of ['PGPASSWORD', 'MYSQLPASSWD', 'csrftoken']) expect(isSecretName(k), k).toBe(true);
    for (const k of [
      'password',
      'DB_PASSWORD',
      'apiKey',
      'OPENAI_API_KEY',
      'AWS_SECRET_ACCESS_KEY',
      'csrf-token',
      'client.secret',
      'db_pass',
    ])
      expect(isSecretName(k), k).toBe(true);
    for (const k of [
      'tokenizer',
      'token_count',
      'max_tokens',
      'secret_santa',
      'password_reset_url',
      'primary_key',
      'key',
      'passport',
      'PGPASS',
    ])
      expect(isSecretName(k), k).toBe(false);
  });

  it('redacts the value of a secret-named key in the parsed record itself (a tool call with {"password": ...})', async () => {
    const counts = emptyCounts();
    const numbering = new SecretNumbering();
    const record = { tool: 'login', input: { user: 'ann', password: pw, token_count: 3, apiKey: '$KEY' } };
    const out = await redactJson(record, counts, numbering);
    expect(out).toEqual({
      tool: 'login',
      input: { user: 'ann', password: '[REDACTED:secret-assignment:1]', token_count: 3, apiKey: '$KEY' },
    });
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
    const session = JSON.parse(readFileSync(sample('opencode-export.json'), 'utf8')) as {
      messages: { parts: Record<string, unknown>[] }[];
    };
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
    const written = allFiles(dir).filter((f) => f !== join(dir, 'leaky.json'));
    expect(written).toContain(join(fixtures, 'opencode.leaky.json'));
    expect(written.length).toBeGreaterThan(10);
    for (const file of written) {
      const text = readFileSync(file).toString('latin1');
      for (const kind of REDACTION_KINDS) expect(text.includes(SECRETS[kind].secret), `${kind} in ${file}`).toBe(false);
    }
    const fixture = JSON.parse(readFileSync(join(fixtures, 'opencode.leaky.json'), 'utf8')) as {
      imported: { redaction: { enabled: boolean; counts: Record<string, number> } };
      items: { flags: { oneTimeSecret: boolean } }[];
    };
    expect(fixture.imported.redaction.enabled).toBe(true);
    expect(fixture.imported.redaction.counts['aws-access-key']).toBe(2);
    expect(fixture.items[0]!.flags.oneTimeSecret).toBe(true);
    for (const stdout of [imp.stdout, run.stdout, eco.stdout])
      for (const kind of REDACTION_KINDS) expect(stdout).not.toContain(SECRETS[kind].secret);
  });

  // Forms the issue found missed, and more: each [name, text, secret], built at run time (no literal secret in the repo).
  const PLANTED: [string, string, string][] = (() => {
    const a = (n: number, c = 'A') => c.repeat(n);
    const b64 = (n: number) => 'b3BlbnNzaC1rZXktdjEAAAAA' + a(n, 'Q');
    const armour = (label: string, body: string, end: boolean) =>
      `-----BEGIN ${label}-----\n${body}${end ? `\n-----END ${label}-----` : ''}`;
    const ssh = b64(60);
    const pgp = `Version: GnuPG v2\n\nlQOYBF${a(58, 'p')}\n=Xq3r`;
    const jwt = `${'ey' + 'JhbGciOiJIUzI1NiJ9'}.${'ey' + 'JzdWIiOiI0MiJ9'}.${a(22, 'j')}`;
    const awsSecret = 'wJalrXUtnFEMI/K7MDENG/' + a(18, 'w');
    const pw = 'Sup3r' + '-s3cret';
    return [
      ['RSA private key', armour('RSA PRIVATE KEY', 'MIIEow' + a(60, 'r'), true), 'MIIEow' + a(60, 'r')],
      ['OpenSSH private key', armour('OPENSSH PRIVATE KEY', ssh, true), ssh],
      [
        'OpenSSH private key cut before its END line',
        `$ cat ~/.ssh/id_ed25519\n${armour('OPENSSH PRIVATE KEY', ssh, false)}`,
        ssh,
      ],
      ['PGP private key block', armour('PGP PRIVATE KEY BLOCK', pgp, true), `lQOYBF${a(58, 'p')}`],
      ['PGP private key block without END', armour('PGP PRIVATE KEY BLOCK', pgp, false), `lQOYBF${a(58, 'p')}`],
      ['Anthropic key', `export ANTHROPIC_API_KEY=${'sk-' + 'ant-api03-' + a(40, 'x')}`, `ant-api03-${a(40, 'x')}`],
      ['OpenAI key', `client = OpenAI(api_key="${'sk-' + 'proj-' + a(40, 'o')}")`, `proj-${a(40, 'o')}`],
      ['GitHub classic token', `git clone https://${'gh' + 'p_' + a(36, 'G')}@github.com/o/r`, a(36, 'G')],
      ['GitHub fine-grained token', `GH=${'github' + '_pat_' + a(60, 'f')}`, a(60, 'f')],
      [
        'bare AWS access key id',
        `aws configure set aws_access_key_id ${'AK' + 'IA' + 'Q3EGRJ5KZ7NXUP2W'}`,
        'Q3EGRJ5KZ7NXUP2W',
      ],
      [
        'INI aws_secret_access_key',
        `[default]\naws_access_key_id = x\naws_secret_access_key = ${awsSecret}\nregion = us-east-1`,
        awsSecret,
      ],
      [
        'env AWS_SECRET_ACCESS_KEY',
        `AWS_SECRET_ACCESS_KEY=${awsSecret.replace(/w$/, 'v')} aws s3 ls`,
        awsSecret.replace(/w$/, 'v'),
      ],
      ['Slack bot token', `SLACK=${'xo' + 'xb-' + '1234567890-1234567890123-' + a(24, 'q')}`, a(24, 'q')],
      ['Google API key', `https://maps.example/api?key=${'AI' + 'za' + a(35, 'g')}`, a(35, 'g')],
      [
        'bearer token',
        `curl -H "Authorization: Bearer ${a(12, 'T')}.${a(20, 'u')}" https://api.example`,
        `${a(12, 'T')}.${a(20, 'u')}`,
      ],
      ['password in a database URL', `psql postgres://app:${pw}@db.internal:5432/prod`, pw],
      [
        'basic auth header',
        `Authorization: Basic ${Buffer.from('ci:' + pw).toString('base64')}`,
        Buffer.from('ci:' + pw).toString('base64'),
      ],
      ['env password assignment', `DB_PASSWORD=${pw}1 ./migrate`, `${pw}1`],
      ['PGPASSWORD', `PGPASSWORD=${pw}2 psql -h db -U app -c 'select 1'`, `${pw}2`],
      ['bare JWT in a cookie', `curl -b "session=${jwt}; theme=dark" https://app.example/me`, jwt],
      ['npm token', `//registry.npmjs.org/:_authToken=${'np' + 'm_' + a(36, 'N')}`, a(36, 'N')],
      ['Stripe live key', `STRIPE=${'sk' + '_live_' + a(30, 'S')}`, a(30, 'S')],
      ['GitLab token', `git push https://oauth2:${'gl' + 'pat-' + a(20, 'L')}@gitlab.example/o/r`, a(20, 'L')],
      ['Hugging Face token', `huggingface-cli login --token ${'h' + 'f_' + a(34, 'H')}`, a(34, 'H')],
      ['JSON password', `{"user": "ann", "password": "${pw}3"}`, `${pw}3`],
      ['--password flag', `mysql -u root --password ${pw}4 app`, `${pw}4`],
    ];
  })();

  it(`none of ${PLANTED.length} secret forms, planted in tool outputs and arguments, reaches the fixture, any condition's reasons or the ecology`, async () => {
    expect(PLANTED.length).toBeGreaterThanOrEqual(20);
    const dir = tempDir();
    const session = JSON.parse(readFileSync(sample('opencode-export.json'), 'utf8')) as {
      messages: { info: Record<string, unknown>; parts: Record<string, unknown>[] }[];
    };
    const parts = session.messages[1]!.parts;
    const finish = parts.pop()!;
    PLANTED.forEach(([, text], i) => {
      // Twice the same call, so the dedup comparator decides on a pair of calls whose arguments hold the secret.
      for (const n of [0, 1]) {
        parts.push({
          type: 'tool',
          tool: 'bash',
          callID: `leak-${i}-${n}`,
          state: {
            status: 'completed',
            input: { command: text, description: 'run' },
            output: `$ ${text}\n${text}`,
            metadata: { exit: 0 },
            time: { start: 1_700_000_000_000 + i * 10 + n, end: 1_700_000_000_001 + i * 10 + n },
          },
        });
      }
      parts.push({
        type: 'tool',
        tool: 'read',
        callID: `leak-${i}-r`,
        state: {
          status: 'completed',
          input: { filePath: `/repo/conf-${i}.txt` },
          output: text,
          time: { start: 1_700_000_000_005 + i * 10, end: 1_700_000_000_006 + i * 10 },
        },
      });
    });
    parts.push(finish);
    writeFileSync(join(dir, 'planted.json'), JSON.stringify(session, null, 2));
    const fixtures = join(dir, 'fixtures');
    const imp = await cli(['import', join(dir, 'planted.json'), '--out', fixtures]);
    expect(imp.stderr).toBe('');
    expect(imp.code).toBe(0);
    const run = await cli(['experiment', '--fixtures', fixtures, '--out', join(dir, 'run')]);
    expect(run.code).toBe(0);
    const eco = await cli(['ecology', fixtures, '--out', join(dir, 'eco')]);
    expect(eco.code).toBe(0);
    // Every file but the planted session itself (its fixture, opencode.planted.json, is checked).
    const written = allFiles(dir).filter((f) => f !== join(dir, 'planted.json'));
    expect(written).toContain(join(fixtures, 'opencode.planted.json'));
    const decisions = written.filter((f) => /decisions/.test(f));
    expect(decisions.length).toBeGreaterThan(0);
    expect(decisions.map((f) => readFileSync(f, 'utf8')).join('')).toMatch(
      /same tool \(shell\.(read|exec)\) and arguments as/,
    );
    for (const file of written) {
      const text = readFileSync(file).toString('latin1');
      for (const [name, , secret] of PLANTED) expect(text.includes(secret), `${name} in ${file}`).toBe(false);
    }
    for (const stdout of [imp.stdout, run.stdout, eco.stdout])
      for (const [name, , secret] of PLANTED) expect(stdout.includes(secret), name).toBe(false);
  });

  it('--no-redact keeps the strings, warns on stderr and records that redaction was off', async () => {
    const dir = tempDir();
    const session = JSON.parse(readFileSync(sample('opencode-export.json'), 'utf8')) as {
      messages: { parts: Record<string, unknown>[] }[];
    };
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
