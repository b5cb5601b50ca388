// Credential-looking strings are replaced before anything of an imported session is written. The marker names the
// kind of secret and a number: distinct secrets of a kind are numbered in the order they first appear across one
// import, so the same secret keeps one marker in every file of that import (duplicates stay duplicates for the
// ecology) while the marker carries nothing derived from the secret (a hash of a weak password can be reversed by
// guessing; a number cannot).
//
// Two rule sets run: this module's own patterns first (they keep what is around a secret readable: the key of an
// assignment, the user and host of a URL), then secretlint's recommended preset, run in-process over every string of
// the record at once, for the vendor formats it maintains; whatever it still finds is replaced whole.
import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import type { Json } from './parse.js';

export const REDACTION_KINDS = [
  'private-key',
  'anthropic-key',
  'openai-key',
  'github-token',
  'aws-access-key',
  'aws-secret-key',
  'slack-token',
  'google-api-key',
  'jwt',
  'bearer-token',
  'url-password',
  'basic-auth',
  'secret-assignment',
  'vendor-token',
] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];

/** What every marker looks like, so a text already redacted is recognised (and never redacted twice). */
const MARKER = /\[REDACTED:[a-z-]+:[0-9]+\]/;

export function marker(kind: RedactionKind, n: number): string {
  return `[REDACTED:${kind}:${n}]`;
}

/**
 * The numbers of one import: the first distinct secret of a kind is 1, the next 2, and so on, in the order the
 * import meets them. Share one across every file of an import; the same inputs in the same order give the same numbers.
 */
export class SecretNumbering {
  private readonly numbers = new Map<RedactionKind, Map<string, number>>();

  markerFor(kind: RedactionKind, secret: string): string {
    let ofKind = this.numbers.get(kind);
    if (!ofKind) this.numbers.set(kind, (ofKind = new Map()));
    let n = ofKind.get(secret);
    if (n === undefined) ofKind.set(secret, (n = ofKind.size + 1));
    return marker(kind, n);
  }
}

// A key names a secret when its last word is one of these (words split at _ . - and camelCase humps), or it ends in
// "key" after one of KEY_QUALIFIERS: DB_PASSWORD, apiKey, AWS_SECRET_ACCESS_KEY, csrf-token. Judging the last word
// keeps token_count, password_reset_url, secret_santa and max_tokens out.
const SECRET_WORDS = new Set(['password', 'passwd', 'pwd', 'pass', 'passphrase', 'secret', 'token', 'apikey']);
const KEY_QUALIFIERS = new Set([
  'api',
  'access',
  'secret',
  'private',
  'signing',
  'encryption',
  'client',
  'master',
  'auth',
]);

/** Words that name a secret also when glued to a prefix: PGPASSWORD, MYSQLPASSWD, CSRFTOKEN, VAULTSECRET. */
const GLUED = /^[a-z0-9]+(password|passwd|passphrase|secret|token|apikey)$/;

export function isSecretName(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[_.-]+/)
    .filter((w) => w !== '');
  const last = words[words.length - 1];
  if (last === undefined) return false;
  if (SECRET_WORDS.has(last) || GLUED.test(last)) return true;
  return last === 'key' && words.length > 1 && KEY_QUALIFIERS.has(words[words.length - 2]!);
}

/** A value that is not itself a secret: a reference ($VAR, ${VAR}, <placeholder>, {{ template }}), a literal, a marker. */
function isPlaceholder(value: string): boolean {
  return (
    value === '' || /^(\$|<|%|\{\{|\[REDACTED:)/.test(value) || /^(null|none|nil|true|false|undefined)$/i.test(value)
  );
}

interface Pattern {
  readonly kind: RedactionKind;
  /** Global, with the `d` flag so the secret's group has indices. */
  readonly re: RegExp;
  /** The capture group holding the secret; 0 is the whole match. The rest of the match stays readable. */
  readonly group: number;
  /** The capture group holding a key that must name a secret (see isSecretName) for the match to count. */
  readonly key?: number;
}

const KEY = '([A-Za-z_][A-Za-z0-9_.-]*)';
/** The text inside quotes opened by group q (backslash escapes allowed, one line). */
const quoted = (q: number) => `((?:(?!\\${q})[^\\\\\\n]|\\\\.)*)\\${q}`;
/**
 * A value after a key: quoted (group q holds the quote, q+1 the text) or bare (group q+2), by default a word up to
 * whitespace, a quote or shell punctuation. The secret is whichever of the last two groups matched.
 */
const value = (q: number, bare = '[^\\s"\'`;&|(),]+') => `(?:(["'])${quoted(q)}|(${bare}))`;

// Order matters: a PEM block first (it may contain anything), vendor keys before the generic forms, so a key of a
// known vendor keeps its vendor's name, and the key = value forms last, where an earlier marker is skipped.
/** A line break as text shows it: a real one, or the two characters `\n` of a quoted or escaped string. */
const NL = '(?:\\r?\\n|\\\\n)';

const PATTERNS: readonly Pattern[] = [
  // PEM, OpenSSH and PGP armour: through the END line when there is one; without it (output cut short), through
  // every following line that looks like key material (base64, an armour header, a checksum).
  {
    kind: 'private-key',
    re: new RegExp(
      `-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----(?:[\\s\\S]*?-----END \\1-----|(?:${NL}(?:[A-Za-z-]+: [^\\n]*|[A-Za-z0-9+/=]*)(?=${NL}|$))*)`,
      'dg',
    ),
    group: 0,
  },
  { kind: 'anthropic-key', re: /\bsk-ant-[A-Za-z0-9_-]{20,}/dg, group: 0 },
  { kind: 'openai-key', re: /\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}/dg, group: 0 },
  { kind: 'github-token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/dg, group: 0 },
  { kind: 'aws-access-key', re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b/dg, group: 0 },
  // The secret half of an AWS key pair in any of its config forms (INI, env, JSON, YAML), spaces around = allowed.
  {
    kind: 'aws-secret-key',
    re: /\baws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/dgi,
    group: 1,
  },
  // A JSON Web Token anywhere (a cookie, a header, a log line): header and payload are base64url JSON objects.
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/dg, group: 0 },
  { kind: 'slack-token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/dg, group: 0 },
  { kind: 'google-api-key', re: /\bAIza[0-9A-Za-z_-]{35}/dg, group: 0 },
  { kind: 'bearer-token', re: /\b[Bb]earer\s+([A-Za-z0-9._~+/-]{16,}=*)/dg, group: 1 },
  { kind: 'url-password', re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@'"]+:([^\s@/'"]+)@/dgi, group: 1 },
  // An HTTP header (curl -H, a request dump, a JSON headers object): only after "Authorization", so the word
  // "Basic" in prose is left alone.
  {
    kind: 'basic-auth',
    re: /\bAuthorization["']?[ \t]*[:=][ \t]*["']?Basic[ \t]+([A-Za-z0-9+/]{4,}={0,2})/dgi,
    group: 1,
  },
  // "password": "..." or 'token': '...' (JSON, Python dicts), anywhere in a line.
  {
    kind: 'secret-assignment',
    re: new RegExp(`(["'])${KEY}\\1[ \\t]*:[ \\t]*(["'])${quoted(3)}`, 'dg'),
    group: 4,
    key: 2,
  },
  // KEY=value (env files, shell, export, ini, query strings) with nothing around "="; with spaces, only a quoted
  // value, since code such as `token = getToken()` assigns no secret.
  { kind: 'secret-assignment', re: new RegExp(`(?<![\\w.$-])${KEY}=(?!=)${value(2)}`, 'dg'), group: 0, key: 1 },
  {
    kind: 'secret-assignment',
    re: new RegExp(`(?<![\\w.$-])${KEY}[ \\t]+=[ \\t]*(["'])${quoted(2)}`, 'dg'),
    group: 3,
    key: 1,
  },
  // key = value as a whole line (INI, TOML, .pgpass-style config), spaces allowed, when the value looks like a
  // credential (no spaces, brackets or calls, and a digit in it): `token = getToken()` and `secret = None` stay.
  {
    kind: 'secret-assignment',
    re: new RegExp(
      `^[ \\t]*${KEY}[ \\t]*=[ \\t]*([A-Za-z0-9+/=_~!@#%^*.-]*[0-9][A-Za-z0-9+/=_~!@#%^*.-]*)[ \\t]*$`,
      'dgm',
    ),
    group: 2,
    key: 1,
  },
  // key: value at the start of a line (YAML, HTTP headers such as X-Api-Key), up to the end of the line or a comment.
  {
    kind: 'secret-assignment',
    re: new RegExp(`^[ \\t]*(?:-[ \\t]+)?${KEY}:[ \\t]+${value(2, '[^\\s#"\'][^\\n#]*?(?=[ \\t]*(?:#|$))')}`, 'dgm'),
    group: 0,
    key: 1,
  },
  // --password X, --api-key=X on a command line.
  {
    kind: 'secret-assignment',
    re: new RegExp(`(?<![\\w-])--${KEY}(?:=|[ \\t]+)(?!-)${value(2)}`, 'dg'),
    group: 0,
    key: 1,
  },
];

export type RedactionCounts = Record<RedactionKind, number>;

export function emptyCounts(): RedactionCounts {
  return Object.fromEntries(REDACTION_KINDS.map((k) => [k, 0])) as RedactionCounts;
}

/** Where the secret of one match is: the pattern's group, or for the key = VALUE forms whichever value group matched. */
function secretSpan(p: Pattern, m: RegExpExecArray): [number, number] | undefined {
  if (p.group !== 0) return m.indices![p.group];
  if (p.key === undefined) return m.indices![0];
  return m.indices![m.length - 2] ?? m.indices![m.length - 1];
}

/** The text with every credential-looking string replaced by its marker; counts are added to `counts`. */
export function redactText(text: string, counts: RedactionCounts, numbering: SecretNumbering): string {
  let out = text;
  for (const p of PATTERNS) {
    let result = '';
    let at = 0;
    const re = new RegExp(p.re);
    for (let m = re.exec(out); m !== null; m = re.exec(out)) {
      const span = p.key !== undefined && !isSecretName(m[p.key]!) ? undefined : secretSpan(p, m);
      const secret = span ? out.slice(span[0], span[1]) : '';
      if (!span || secret.startsWith('[REDACTED:') || (p.key !== undefined && isPlaceholder(secret))) {
        // Not a secret here; look again from the next character, so `url=https://h/?token=...` still finds the token.
        re.lastIndex = m.index + 1;
        continue;
      }
      counts[p.kind] += 1;
      result += out.slice(at, span[0]) + numbering.markerFor(p.kind, secret);
      at = span[1];
    }
    out = result + out.slice(at);
  }
  return out;
}

/** Whether a text holds anything redaction would replace (used to flag one-time secrets, redacted or not). */
export function holdsSecret(text: string): boolean {
  if (MARKER.test(text)) return true;
  const counts = emptyCounts();
  redactText(text, counts, new SecretNumbering());
  return Object.values(counts).some((n) => n > 0);
}

/** Own patterns, and the whole string value of a secret-named key, over every string of a record (keys too). */
function redactOwn(value: Json, counts: RedactionCounts, numbering: SecretNumbering): Json {
  if (typeof value === 'string') return redactText(value, counts, numbering);
  if (Array.isArray(value)) return value.map((v) => redactOwn(v, counts, numbering));
  if (value !== null && typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const [k, v] of Object.entries(value)) {
      const key = redactText(k, counts, numbering);
      if (typeof v === 'string' && isSecretName(k) && !isPlaceholder(v) && !MARKER.test(v)) {
        counts['secret-assignment'] += 1;
        out[key] = numbering.markerFor('secret-assignment', v);
      } else {
        out[key] = redactOwn(v, counts, numbering);
      }
    }
    return out;
  }
  return value;
}

/** Every string of a record, keys included, in one fixed walk order; `rebuild` puts replacements back in that order. */
function strings(value: Json, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, into);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      into.push(k);
      strings(v, into);
    }
}

function rebuild(value: Json, next: () => string): Json {
  if (typeof value === 'string') return next();
  if (Array.isArray(value)) return value.map((v) => rebuild(v, next));
  if (value !== null && typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const [, v] of Object.entries(value)) {
      const key = next();
      out[key] = rebuild(v, next);
    }
    return out;
  }
  return value;
}

/** Which of this module's kinds a secretlint finding is; a vendor format this module does not name is a vendor token. */
function kindOf(ruleId: string, messageId: string): RedactionKind {
  const rule = ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
  if (rule === 'aws')
    return /secret/i.test(messageId)
      ? 'aws-secret-key'
      : /accesskey/i.test(messageId)
        ? 'aws-access-key'
        : 'vendor-token';
  const known: Record<string, RedactionKind> = {
    privatekey: 'private-key',
    gcp: 'private-key',
    github: 'github-token',
    anthropic: 'anthropic-key',
    openai: 'openai-key',
    slack: 'slack-token',
    basicauth: 'basic-auth',
    'database-connection-string': 'url-password',
  };
  return known[rule] ?? 'vendor-token';
}

// The preset's comment filter would let a recorded `secretlint-disable` comment switch detection off: it is disabled.
const CONFIG = {
  rules: [
    {
      id: '@secretlint/secretlint-rule-preset-recommend',
      rule: recommended,
      rules: [{ id: '@secretlint/secretlint-rule-filter-comments', disabled: true }],
    },
  ],
};
/** Between two strings of one record: no rule's match can run across it. */
const SEPARATOR = '\n\u0000\u0000\n';

/** secretlint's recommended rules over a list of strings at once (one lint per record, not per string). */
async function redactMaintained(
  texts: readonly string[],
  counts: RedactionCounts,
  numbering: SecretNumbering,
): Promise<string[]> {
  const starts: number[] = [];
  let at = 0;
  for (const t of texts) {
    starts.push(at);
    at += t.length + SEPARATOR.length;
  }
  const content = texts.join(SEPARATOR);
  if (content.trim() === '') return [...texts];
  const result = await lintSource({
    source: { content, filePath: 'record.txt', ext: '.txt', contentType: 'text' },
    options: { config: CONFIG, noPhysicFilePath: true },
  });
  const cuts = new Map<number, { from: number; to: number; kind: RedactionKind }[]>();
  for (const m of result.messages) {
    const [from, to] = m.range;
    // The string the finding starts in; a finding is cut at that string's end.
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= from) lo = mid;
      else hi = mid - 1;
    }
    const local = from - starts[lo]!;
    const end = Math.min(to - starts[lo]!, texts[lo]!.length);
    const found = texts[lo]!.slice(local, end);
    if (end <= local || MARKER.test(found)) continue;
    const list = cuts.get(lo) ?? [];
    list.push({ from: local, to: end, kind: kindOf(m.ruleId, m.messageId) });
    cuts.set(lo, list);
  }
  return texts.map((t, i) => {
    const list = (cuts.get(i) ?? []).sort((a, b) => a.from - b.from || b.to - a.to);
    let out = '';
    let pos = 0;
    for (const c of list) {
      if (c.from < pos) continue;
      counts[c.kind] += 1;
      out += t.slice(pos, c.from) + numbering.markerFor(c.kind, t.slice(c.from, c.to));
      pos = c.to;
    }
    return out + t.slice(pos);
  });
}

/**
 * Every string of a parsed record redacted (keys too, since a key can be a token), and the whole string value of a
 * secret-named key ({"password": "..."} in a tool call's arguments), since no text pattern sees key and value together;
 * then secretlint's recommended rules over what is left.
 */
export async function redactJson(value: Json, counts: RedactionCounts, numbering: SecretNumbering): Promise<Json> {
  const own = redactOwn(value, counts, numbering);
  const texts: string[] = [];
  strings(own, texts);
  const done = await redactMaintained(texts, counts, numbering);
  let k = 0;
  return rebuild(own, () => done[k++]!);
}
