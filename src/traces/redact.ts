// Credential-looking strings are replaced before anything of an imported session is written. The marker names the
// kind of secret and a number: distinct secrets of a kind are numbered in the order they first appear across one
// import, so the same secret keeps one marker in every file of that import (duplicates stay duplicates for the
// ecology) while the marker carries nothing derived from the secret (a hash of a weak password can be reversed by
// guessing; a number cannot).
import type { Json } from './parse.js';

export const REDACTION_KINDS = [
  'private-key', 'anthropic-key', 'openai-key', 'github-token', 'aws-access-key', 'slack-token', 'google-api-key',
  'bearer-token', 'url-password', 'basic-auth', 'secret-assignment',
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
const KEY_QUALIFIERS = new Set(['api', 'access', 'secret', 'private', 'signing', 'encryption', 'client', 'master', 'auth']);

export function isSecretName(key: string): boolean {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().split(/[_.-]+/).filter((w) => w !== '');
  const last = words[words.length - 1];
  if (last === undefined) return false;
  if (SECRET_WORDS.has(last)) return true;
  return last === 'key' && words.length > 1 && KEY_QUALIFIERS.has(words[words.length - 2]!);
}

/** A value that is not itself a secret: a reference ($VAR, ${VAR}, <placeholder>, {{ template }}), a literal, a marker. */
function isPlaceholder(value: string): boolean {
  return value === '' || /^(\$|<|%|\{\{|\[REDACTED:)/.test(value) || /^(null|none|nil|true|false|undefined)$/i.test(value);
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
const PATTERNS: readonly Pattern[] = [
  { kind: 'private-key', re: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----[\s\S]*?-----END \1PRIVATE KEY-----/dg, group: 0 },
  { kind: 'anthropic-key', re: /\bsk-ant-[A-Za-z0-9_-]{20,}/dg, group: 0 },
  { kind: 'openai-key', re: /\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}/dg, group: 0 },
  { kind: 'github-token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/dg, group: 0 },
  { kind: 'aws-access-key', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/dg, group: 0 },
  { kind: 'slack-token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/dg, group: 0 },
  { kind: 'google-api-key', re: /\bAIza[0-9A-Za-z_-]{35}/dg, group: 0 },
  { kind: 'bearer-token', re: /\b[Bb]earer\s+([A-Za-z0-9._~+/-]{16,}=*)/dg, group: 1 },
  { kind: 'url-password', re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@'"]+:([^\s@/'"]+)@/dgi, group: 1 },
  // An HTTP header (curl -H, a request dump, a JSON headers object): only after "Authorization", so the word
  // "Basic" in prose is left alone.
  { kind: 'basic-auth', re: /\bAuthorization["']?[ \t]*[:=][ \t]*["']?Basic[ \t]+([A-Za-z0-9+/]{4,}={0,2})/dgi, group: 1 },
  // "password": "..." or 'token': '...' (JSON, Python dicts), anywhere in a line.
  { kind: 'secret-assignment', re: new RegExp(`(["'])${KEY}\\1[ \\t]*:[ \\t]*(["'])${quoted(3)}`, 'dg'), group: 4, key: 2 },
  // KEY=value (env files, shell, export, ini, query strings) with nothing around "="; with spaces, only a quoted
  // value, since code such as `token = getToken()` assigns no secret.
  { kind: 'secret-assignment', re: new RegExp(`(?<![\\w.$-])${KEY}=(?!=)${value(2)}`, 'dg'), group: 0, key: 1 },
  { kind: 'secret-assignment', re: new RegExp(`(?<![\\w.$-])${KEY}[ \\t]+=[ \\t]*(["'])${quoted(2)}`, 'dg'), group: 3, key: 1 },
  // key: value at the start of a line (YAML, HTTP headers such as X-Api-Key), up to the end of the line or a comment.
  { kind: 'secret-assignment', re: new RegExp(`^[ \\t]*(?:-[ \\t]+)?${KEY}:[ \\t]+${value(2, '[^\\s#"\'][^\\n#]*?(?=[ \\t]*(?:#|$))')}`, 'dgm'), group: 0, key: 1 },
  // --password X, --api-key=X on a command line.
  { kind: 'secret-assignment', re: new RegExp(`(?<![\\w-])--${KEY}(?:=|[ \\t]+)(?!-)${value(2)}`, 'dg'), group: 0, key: 1 },
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

/**
 * Every string of a parsed record redacted (keys too, since a key can be a token), and the whole string value of a
 * secret-named key ({"password": "..."} in a tool call's arguments), since no text pattern sees key and value together.
 */
export function redactJson(value: Json, counts: RedactionCounts, numbering: SecretNumbering): Json {
  if (typeof value === 'string') return redactText(value, counts, numbering);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, counts, numbering));
  if (value !== null && typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const [k, v] of Object.entries(value)) {
      const key = redactText(k, counts, numbering);
      if (typeof v === 'string' && isSecretName(k) && !isPlaceholder(v) && !MARKER.test(v)) {
        counts['secret-assignment'] += 1;
        out[key] = numbering.markerFor('secret-assignment', v);
      } else {
        out[key] = redactJson(v, counts, numbering);
      }
    }
    return out;
  }
  return value;
}
