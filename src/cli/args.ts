// Turns argv into options, or a usage error that names the offending flag and the valid choices; and the checks of
// values a flag's definition cannot express (integers, shares, seconds).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { usage } from '../errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parsing, strict: every parse error becomes a usage error with its stable code. */
export function parseStrict<O extends Options>(argv: readonly string[], options: O, allowPositionals: boolean) {
  const valid = Object.keys(options)
    .map((k) => `--${k}`)
    .sort();
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals });
  } catch (err) {
    const e = err as Error & { code?: string };
    const flag = /'([^']+)'/.exec(e.message)?.[1] ?? argv.join(' ');
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw usage('PL_USAGE_UNKNOWN_FLAG', flag, valid);
    if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') throw usage('PL_USAGE_POSITIONAL', flag);
    if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const name = flag.split(' ')[0]!;
      throw e.message.includes('does not take an argument')
        ? usage('PL_USAGE_NO_VALUE', name)
        : usage('PL_USAGE_MISSING_VALUE', name);
    }
    throw err;
  }
}

export function integerFlag(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
    throw usage('PL_USAGE_BAD_VALUE', flag, text, 'an integer of at most 15 digits');
  return Number(text);
}

/** A decimal fraction from 0 to 1 (a share). */
export function fractionFlag(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^(0|1)?(\.\d+)?$/.test(text) || text === '' || text === '.' || !(value >= 0 && value <= 1))
    throw usage('PL_USAGE_BAD_VALUE', flag, text, 'a decimal from 0 to 1');
  return value;
}

export function choiceFlag<T extends string>(
  flag: string,
  text: string | undefined,
  choices: readonly T[],
  fallback: T,
): T {
  if (text === undefined) return fallback;
  if (!(choices as readonly string[]).includes(text))
    throw usage('PL_USAGE_BAD_VALUE', flag, text, `one of ${choices.join(', ')}`);
  return text as T;
}

/** A positive number of seconds, whole or decimal. */
export function secondsFlag(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+(\.\d+)?$/.test(text) || Number(text) <= 0)
    throw usage('PL_USAGE_BAD_VALUE', flag, text, 'a positive number of seconds');
  return Number(text);
}
