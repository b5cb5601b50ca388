// Identifier vocabulary for payloads: service, module and domain words combined by the RNG into names that look
// like a real codebase's (never filler prose). Lists are data, kept sorted by nothing in particular.
import type { Rng } from '../rng.js';

export const DOMAINS = [
  'billing',
  'ledger',
  'orders',
  'inventory',
  'payments',
  'shipping',
  'catalog',
  'search',
  'auth',
  'notifications',
  'reporting',
  'telemetry',
  'checkout',
  'pricing',
  'accounts',
  'scheduler',
  'webhooks',
  'exports',
  'audit',
  'fleet',
] as const;
export const NOUNS = [
  'invoice',
  'reservation',
  'session',
  'token',
  'cart',
  'refund',
  'batch',
  'cursor',
  'quota',
  'tenant',
  'ticket',
  'shipment',
  'payout',
  'balance',
  'entry',
  'schedule',
  'webhook',
  'export',
  'vehicle',
  'order',
  'user',
  'price',
  'discount',
  'ledger',
  'statement',
  'partition',
  'rate',
  'retry',
  'lock',
  'window',
  'snapshot',
  'manifest',
] as const;
export const VERBS = [
  'create',
  'apply',
  'resolve',
  'validate',
  'compute',
  'load',
  'persist',
  'reserve',
  'release',
  'expire',
  'sync',
  'parse',
  'render',
  'schedule',
  'cancel',
  'settle',
  'refresh',
  'merge',
  'split',
  'retry',
  'lookup',
  'emit',
  'flush',
] as const;
export const ADJECTIVES = [
  'pending',
  'active',
  'stale',
  'partial',
  'current',
  'default',
  'cached',
  'remote',
  'local',
  'legacy',
] as const;
export const PEOPLE = [
  'priya',
  'jonas',
  'mei',
  'tomasz',
  'amara',
  'diego',
  'hannah',
  'kwame',
  'lucia',
  'ravi',
  'sofia',
  'yuki',
] as const;

export const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);
export const camel = (...words: string[]): string => words.map((w, i) => (i === 0 ? w : cap(w))).join('');
export const pascal = (...words: string[]): string => words.map(cap).join('');
export const snake = (...words: string[]): string => words.join('_');
export const kebab = (...words: string[]): string => words.join('-');

export function fnName(r: Rng): string {
  return camel(r.pick(VERBS), r.pick(NOUNS), ...(r.chance(0.3) ? [r.pick(NOUNS)] : []));
}

export function typeName(r: Rng): string {
  return pascal(
    ...(r.chance(0.4) ? [r.pick(ADJECTIVES)] : []),
    r.pick(NOUNS),
    r.pick(['', 'Record', 'Request', 'State', 'Event', 'Config']),
  );
}

export function service(r: Rng): string {
  return kebab(r.pick(DOMAINS), r.pick(['api', 'worker', 'service', 'gateway', 'core', 'sync']));
}

/** A git sha of 40 hex digits. */
export function sha(r: Rng): string {
  return r.hex(40);
}

export function semver(r: Rng): string {
  return `${r.int(0, 12)}.${r.int(0, 30)}.${r.int(0, 20)}`;
}

/** A clock time HH:MM:SS from seconds after midnight. */
export function clock(seconds: number): string {
  const s = ((seconds % 86400) + 86400) % 86400;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** Roughly how many characters a payload of `tokens` tokens takes: generated code and logs run 3.6 to 4 characters a token, so 4 keeps a read at or above the tokens asked for. */
export function charsFor(tokens: number): number {
  return Math.round(tokens * 4);
}

/** Lines from `line` until the text reaches `chars` characters (at least one line). */
export function linesUpTo(chars: number, line: (i: number) => string): string[] {
  const out: string[] = [];
  let size = 0;
  for (let i = 0; out.length === 0 || size < chars; i += 1) {
    const l = line(i);
    out.push(l);
    size += l.length + 1;
    if (i > 200_000) break;
  }
  return out;
}
