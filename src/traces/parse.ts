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
  // V8 gives no position when the input simply ends: that is a truncated file, at its end.
  return m ? Number(m[1]) : text.length;
}

function detail(err: Error): string {
  const m = err.message.replace(/ in JSON at position \d+.*$/s, '').replace(/^Unexpected end of JSON input$/, 'the text ends before the JSON does: truncated?');
  return m.length > 0 ? m : 'invalid JSON';
}

export function parseJsonText(text: string, file: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch (err) {
    throw input('PL_TRACE_JSON', file, position(text, offsetOf(err as Error, text)), detail(err as Error));
  }
}

/**
 * JSON for a whole-document record, JSON Lines for a line-per-event one. A text whose first line is a JSON object
 * and which has more lines is read as JSON Lines, so a truncated JSONL file is reported by line, not by byte.
 */
export function parseTrace(text: string, file: string): Parsed {
  const stripped = text.replace(/^\uFEFF/, '');
  const lines = stripped.split('\n');
  const first = lines[0]?.trim() ?? '';
  const nonEmpty = lines.filter((l) => l.trim() !== '').length;
  const firstIsObject = first.startsWith('{') && first.endsWith('}') && nonEmpty > 1 && isJson(first);
  if (!firstIsObject || file.endsWith('.json') || file.endsWith('.traj')) {
    try {
      return { kind: 'json', value: JSON.parse(stripped) as Json };
    } catch (err) {
      if (!firstIsObject) throw input('PL_TRACE_JSON', file, position(stripped, offsetOf(err as Error, stripped)), detail(err as Error));
    }
  }
  const out: { line: number; value: Json }[] = [];
  lines.forEach((raw, i) => {
    if (raw.trim() === '') return;
    try {
      out.push({ line: i + 1, value: JSON.parse(raw) as Json });
    } catch (err) {
      const last = i === lines.length - 1 || lines.slice(i + 1).every((l) => l.trim() === '');
      const why = detail(err as Error);
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
  return path.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : /^[A-Za-z_$][\w$]*$/.test(k) ? `${acc}.${k}` : `${acc}[${JSON.stringify(k)}]`), '$');
}

export type JsonObject = { [key: string]: Json };

/** Typed reads of a parsed record whose failures name the file and the JSON path (or line) of the bad value. */
export class Reader {
  constructor(readonly file: string, private readonly prefix: string = '') {}

  fail(path: readonly (string | number)[], problem: string): never {
    throw input('PL_TRACE_SHAPE', this.file, `${this.prefix}${jsonPath(path)}`, problem);
  }

  /** A reader whose paths start at a JSON Lines line. */
  atLine(line: number): Reader {
    return new Reader(this.file, `line ${line}, `);
  }

  object(v: Json | undefined, path: readonly (string | number)[]): JsonObject {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) this.fail(path, `expected an object, found ${kindOf(v)}`);
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
