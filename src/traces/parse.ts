// Reads a recorded session's text as JSON or JSON Lines. Every error names the file and the position: the byte
// offset with line and column for JSON, the line for JSON Lines, and the JSON path for a record of the wrong shape.
import { input } from '../errors.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export type Parsed =
  | { readonly kind: 'json'; readonly value: Json }
  | { readonly kind: 'jsonl'; readonly lines: readonly { readonly line: number; readonly value: Json }[] };

/** Where a char offset sits, as a byte offset with its line and column (1-based), for the error message. */
function position(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `byte ${Buffer.byteLength(before, 'utf8')} (line ${line}, column ${column})`;
}

function offsetOf(err: Error, text: string): number {
  const m = /position (\d+)/.exec(err.message);
  return m ? Number(m[1]) : firstError(text);
}

/** V8's reason, without the snippet of input it sometimes quotes (which could be a secret not yet redacted). */
function detail(err: Error, text: string, offset: number): string {
  const reason = err.message
    .split(/ in JSON at position| \(line \d+|,\s*(?:\.\.\.)?"/)[0]!
    .replace(/^Unexpected end of JSON input$/, 'unexpected end of input');
  const atEnd = text.slice(offset).trim() === '';
  return `${reason || 'invalid JSON'}${atEnd ? '; the text ends before the JSON does: truncated?' : ''}`;
}

/**
 * Where a text stops being JSON, for the errors V8 reports without a position: a small recursive-descent scan that
 * only finds the offset (JSON.parse has already said the text is invalid).
 */
function firstError(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const lit = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const str = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20) fail();
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        str();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail();
      }
    }
    if (c === '"') return str();
    if (c === 't') return lit('true');
    if (c === 'f') return lit('false');
    if (c === 'n') return lit('null');
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += m![0].length;
  };
  try {
    value();
    ws();
    return i;
  } catch (at) {
    return Math.min(typeof at === 'number' ? at : i, text.length);
  }
}

/**
 * JSON for a whole-document record, JSON Lines for a line-per-event one. A text whose first line is a JSON object
 * and which has more lines (or any `.jsonl` file) is read as JSON Lines, so a truncated JSONL file is reported by
 * line, not by byte.
 */
export function parseTrace(text: string, file: string): Parsed {
  const stripped = text.replace(/^\uFEFF/, '');
  const lines = stripped.split('\n');
  const first = lines[0]?.trim() ?? '';
  const nonEmpty = lines.filter((l) => l.trim() !== '').length;
  const firstIsObject =
    file.endsWith('.jsonl') || (first.startsWith('{') && first.endsWith('}') && nonEmpty > 1 && isJson(first));
  if (!firstIsObject || file.endsWith('.json') || file.endsWith('.traj')) {
    try {
      return { kind: 'json', value: JSON.parse(stripped) as Json };
    } catch (err) {
      if (!firstIsObject) {
        const at = offsetOf(err as Error, stripped);
        throw input('PL_TRACE_JSON', file, position(stripped, at), detail(err as Error, stripped, at));
      }
    }
  }
  const out: { line: number; value: Json }[] = [];
  lines.forEach((raw, i) => {
    if (raw.trim() === '') return;
    try {
      out.push({ line: i + 1, value: JSON.parse(raw) as Json });
    } catch (err) {
      const last = i === lines.length - 1 || lines.slice(i + 1).every((l) => l.trim() === '');
      const why = detail(err as Error, raw, offsetOf(err as Error, raw)).replace(
        /; the text ends before the JSON does: truncated\?$/,
        '',
      );
      throw input('PL_TRACE_JSONL', file, i + 1, last ? `${why}; the last line looks truncated` : why);
    }
  });
  return { kind: 'jsonl', lines: out };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A JSON path in the usual $.a[0].b notation. */
export function jsonPath(path: readonly (string | number)[]): string {
  return path.reduce<string>(
    (acc, k) =>
      typeof k === 'number'
        ? `${acc}[${k}]`
        : /^[A-Za-z_$][\w$]*$/.test(k)
          ? `${acc}.${k}`
          : `${acc}[${JSON.stringify(k)}]`,
    '$',
  );
}

export type JsonObject = { [key: string]: Json };

/** An optional nested object of a record (`extra`, `metadata`, `toolUseResult`): the object, or nothing. */
export const objectOr = (v: Json | undefined): JsonObject | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : undefined;

/** An integer field as recorded, or nothing (a line number, an exit code, an offset). */
export const intOr = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

/** Typed reads of a parsed record whose failures name the file and the JSON path (or line) of the bad value. */
export class Reader {
  constructor(
    readonly file: string,
    private readonly prefix: string = '',
  ) {}

  fail(path: readonly (string | number)[], problem: string): never {
    throw input('PL_TRACE_SHAPE', this.file, `${this.prefix}${jsonPath(path)}`, problem);
  }

  /** A reader whose paths start at a JSON Lines line. */
  atLine(line: number): Reader {
    return new Reader(this.file, `line ${line}, `);
  }

  object(v: Json | undefined, path: readonly (string | number)[]): JsonObject {
    if (v === null || typeof v !== 'object' || Array.isArray(v))
      this.fail(path, `expected an object, found ${kindOf(v)}`);
    return v as JsonObject;
  }

  array(v: Json | undefined, path: readonly (string | number)[]): Json[] {
    if (!Array.isArray(v)) this.fail(path, `expected an array, found ${kindOf(v)}`);
    return v as Json[];
  }

  string(v: Json | undefined, path: readonly (string | number)[]): string {
    if (typeof v !== 'string') this.fail(path, `expected a string, found ${kindOf(v)}`);
    return v as string;
  }

  optString(v: Json | undefined, path: readonly (string | number)[]): string | undefined {
    return v === undefined || v === null ? undefined : this.string(v, path);
  }

  optNumber(v: Json | undefined, path: readonly (string | number)[]): number | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number') this.fail(path, `expected a number, found ${kindOf(v)}`);
    return v as number;
  }
}

function kindOf(v: Json | undefined): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
