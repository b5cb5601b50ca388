// Credential-looking strings are replaced before anything of an imported session is written. The marker is stable
// (the same secret always gives the same marker, so duplicates stay duplicates for the ecology) and says which kind
// of secret stood there; its short hash identifies, it does not hide a weak password from a determined guesser.
import { sha256 } from '../fixture/canonical.js';
import type { Json } from './parse.js';

export const REDACTION_KINDS = [
  'private-key', 'anthropic-key', 'openai-key', 'github-token', 'aws-access-key', 'slack-token', 'google-api-key',
  'bearer-token', 'url-password',
] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];

interface Pattern {
  readonly kind: RedactionKind;
  readonly re: RegExp;
  /** The capture group holding the secret; 0 is the whole match. The rest of the match stays readable. */
  readonly group: number;
}

// Order matters: a PEM block first (it may contain anything), vendor keys before the generic bearer token.
const PATTERNS: readonly Pattern[] = [
  { kind: 'private-key', re: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----[\s\S]*?-----END \1PRIVATE KEY-----/g, group: 0 },
  { kind: 'anthropic-key', re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g, group: 0 },
  { kind: 'openai-key', re: /\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}/g, group: 0 },
  { kind: 'github-token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g, group: 0 },
  { kind: 'aws-access-key', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, group: 0 },
  { kind: 'slack-token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, group: 0 },
  { kind: 'google-api-key', re: /\bAIza[0-9A-Za-z_-]{35}/g, group: 0 },
  { kind: 'bearer-token', re: /\b[Bb]earer\s+([A-Za-z0-9._~+/-]{16,}=*)/g, group: 1 },
  { kind: 'url-password', re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@'"]+:([^\s@/'"]+)@/gi, group: 1 },
];

export function marker(kind: RedactionKind, secret: string): string {
  return `[REDACTED:${kind}:${sha256(secret).slice(0, 10)}]`;
}

export type RedactionCounts = Record<RedactionKind, number>;

export function emptyCounts(): RedactionCounts {
  return Object.fromEntries(REDACTION_KINDS.map((k) => [k, 0])) as RedactionCounts;
}

/** The text with every credential-looking string replaced by its marker; counts are added to `counts`. */
export function redactText(text: string, counts: RedactionCounts): string {
  let out = text;
  for (const p of PATTERNS) {
    out = out.replace(p.re, (match: string, ...groups: unknown[]) => {
      const secret = p.group === 0 ? match : String(groups[p.group - 1]);
      if (secret.startsWith('[REDACTED:')) return match;
      counts[p.kind] += 1;
      return p.group === 0 ? marker(p.kind, secret) : match.replace(secret, marker(p.kind, secret));
    });
  }
  return out;
}

/** Whether a text holds anything redaction would replace (used to flag one-time secrets, redacted or not). */
export function holdsSecret(text: string): boolean {
  if (/\[REDACTED:[a-z-]+:[0-9a-f]{10}\]/.test(text)) return true;
  const counts = emptyCounts();
  redactText(text, counts);
  return Object.values(counts).some((n) => n > 0);
}

/** Every string of a parsed record (keys too, since a key can be a token), redacted. */
export function redactJson(value: Json, counts: RedactionCounts): Json {
  if (typeof value === 'string') return redactText(value, counts);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, counts));
  if (value !== null && typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const [k, v] of Object.entries(value)) out[redactText(k, counts)] = redactJson(v, counts);
    return out;
  }
  return value;
}
