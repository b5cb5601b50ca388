// Turns recorded session files into fixtures, all in memory: every file is read, detected, redacted, imported and
// validated against the fixture schema before the caller writes anything, so a bad file stops the whole import.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { TokenCounter } from '../accounting/tokens.js';
import { input } from '../errors.js';
import { sha256 } from '../fixture/canonical.js';
import { duplicateId } from '../fixture/load.js';
import { Fixture, type Fixture as FixtureT } from '../fixture/schema.js';
import { TraceBuilder, safeId, type Format } from './build.js';
import { importClaudeCode } from './claude-code.js';
import { requireFormat } from './detect.js';
import { importMiniSweAgent } from './mini-swe-agent.js';
import { importOpenCode } from './opencode.js';
import { foldOpenCodeEvents, isOpenCodeEventStream } from './opencode-events.js';
import { importOpenHands } from './openhands.js';
import { importOpenHandsV1, openHandsV1Events } from './openhands-v1.js';
import { Reader, parseTrace, type Json, type Parsed } from './parse.js';
import { emptyCounts, redactJson, SecretNumbering, type RedactionCounts } from './redact.js';
import { importSweAgent } from './swe-agent.js';

export interface ImportOptions {
  /** The format the user named; the detected one must match it. */
  readonly format?: Format;
  readonly redact: boolean;
  readonly tokens: TokenCounter;
  /** Shared by every file of one import, so a secret keeps its marker across files; a fresh one when absent. */
  readonly numbering?: SecretNumbering;
}

export interface ImportedTrace {
  /** The path as the user gave it (for messages), and the fixture built from it. */
  readonly file: string;
  readonly fixture: FixtureT;
  readonly format: Format;
  readonly redactions: RedactionCounts;
  readonly tokens: number;
  /** Which session of the file this is, when the file holds several (an instance, a sub-agent, a context after a compaction). */
  readonly session?: string;
  /**
   * Records of the file's conversation left out as on a branch it abandoned (a Claude Code /rewind or edited prompt),
   * on the session that conversation starts, when there are any.
   */
  readonly abandoned?: number;
}

/** The fixture id of a session file: its format and its name without the recorder's extensions. */
export function traceId(format: Format, file: string): string {
  const stem = basename(file).replace(/\.(traj\.json|traj|jsonl|json)$/i, '');
  return safeId(`${format}.${stem}`);
}

/** The file text of an imported fixture, as `import` writes it and `ecology --real` reproduces it. */
export function fixtureText(fixture: FixtureT): string {
  return `${JSON.stringify(fixture, null, 2)}\n`;
}

async function redactParsed(parsed: Parsed, counts: RedactionCounts, numbering: SecretNumbering): Promise<Parsed> {
  if (parsed.kind === 'json') return { kind: 'json', value: await redactJson(parsed.value, counts, numbering) };
  const lines = [];
  for (const l of parsed.lines) lines.push({ line: l.line, value: await redactJson(l.value, counts, numbering) });
  return { kind: 'jsonl', lines };
}

/** One session of a file being imported: the builder its importer fills and the name that tells it apart. */
interface Session {
  readonly builder: TraceBuilder;
  readonly name?: string;
}

/** Runs the format's importer over a parsed file; formats that hold several sessions in one file open one each. */
async function importSessions(format: Format, parsed: Parsed, reader: Reader): Promise<Session[]> {
  const sessions: Session[] = [];
  const open = (name?: string): TraceBuilder => {
    const builder = new TraceBuilder(format);
    sessions.push({ builder, ...(name ? { name } : {}) });
    return builder;
  };
  if (parsed.kind === 'jsonl') {
    if (format === 'claude-code') await importClaudeCode(parsed, reader, open);
    else if (format === 'openhands') {
      // An evaluation output.jsonl: one instance and its history per line, each its own session.
      for (const { line, value } of parsed.lines) {
        const r = reader.atLine(line);
        const id =
          value && typeof value === 'object' && !Array.isArray(value)
            ? (value['instance_id'] ?? value['id'])
            : undefined;
        const instance =
          parsed.lines.length === 1
            ? undefined
            : typeof id === 'string' || typeof id === 'number'
              ? String(id)
              : `line-${line}`;
        // A condensation opens the instance's next session: `<instance>.after-condensation-N`.
        await importOpenHands(value, r, (session) =>
          open(instance === undefined ? session : session === undefined ? instance : `${instance}.${session}`),
        );
      }
    } else throw new Error(`internal: ${format} detected on JSON Lines`);
    return sessions;
  }
  const importers: Record<Exclude<Format, 'claude-code' | 'openhands' | 'opencode'>, typeof importSweAgent> = {
    'swe-agent': importSweAgent,
    'mini-swe-agent': importMiniSweAgent,
  };
  if (format === 'claude-code') throw new Error('internal: claude-code detected on JSON');
  if (format === 'opencode' && isOpenCodeEventStream(parsed.value)) {
    // A recorded event stream: each session it carries (a sub-agent's too) folded to its export and read as one.
    const folded = foldOpenCodeEvents(parsed.value, reader);
    for (const { id, export: session } of folded) {
      const builders: TraceBuilder[] = [];
      // A compaction opens the session's next context: `<session>.after-compaction-N`.
      await importOpenCode(session, new Reader(reader.file, `session ${id} as folded from its events, `), (s) => {
        const name = folded.length === 1 ? s : s === undefined ? id : `${id}.${s}`;
        const builder = open(name);
        builders.push(builder);
        return builder;
      });
      for (const builder of builders) builder.formatVersion = `${builder.formatVersion ?? 'opencode'}, event stream`;
    }
    return sessions;
  }
  if (format === 'opencode') {
    // An export: each compaction OpenCode honoured ends the model's context and opens the next session.
    await importOpenCode(parsed.value, reader, open);
    return sessions;
  }
  if (format === 'openhands' && openHandsV1Events(parsed.value) !== undefined) {
    // A V1 conversation: each condensation ends the model's context and opens the next session.
    await importOpenHandsV1(parsed.value, reader, open);
    return sessions;
  }
  if (format === 'openhands') {
    // A V0 event stream or evaluation output: each condensation ends the model's context and opens the next session.
    await importOpenHands(parsed.value, reader, open);
    return sessions;
  }
  await importers[format](parsed.value, reader, open());
  return sessions;
}

/**
 * Every session a recorded file holds, one fixture each (most files hold one; an OpenHands output.jsonl holds one
 * per instance, a Claude Code file its main session and each sub-agent's sidechain).
 */
export async function importFile(path: string, shownAs: string, options: ImportOptions): Promise<ImportedTrace[]> {
  if (!existsSync(path) || !statSync(path).isFile()) throw input('PL_TRACE_MISSING', shownAs);
  const bytes = readFileSync(path);
  const raw = parseTrace(bytes.toString('utf8'), shownAs);
  const format = requireFormat(raw, shownAs, options.format);
  const counts = emptyCounts();
  // Redaction runs on the parsed record, before any item exists, so no later step can see an unredacted secret.
  const numbering = options.numbering ?? new SecretNumbering();
  const parsed = options.redact ? await redactParsed(raw, counts, numbering) : raw;
  const sessions = (await importSessions(format, parsed, new Reader(shownAs))).filter((s) => s.builder.size > 0);
  if (sessions.length === 0) throw input('PL_TRACE_EMPTY', shownAs);
  const out: ImportedTrace[] = [];
  for (const { builder, name } of sessions) {
    const draft = builder.build({
      id: name ? safeId(`${traceId(format, path)}.${name}`) : traceId(format, path),
      sourceFile: basename(path),
      sourceSha256: sha256(bytes),
      redaction: { enabled: options.redact, counts },
      tokens: options.tokens,
      ...(name ? { session: name } : {}),
    });
    // Importers derive strings the record never held whole (a shell word with its quotes removed joins `'sk-'"..."`,
    // a selector quotes a pattern): the built fixture is redacted once more, with the same numbering and counts.
    const built = options.redact
      ? ((await redactJson(draft as unknown as Json, counts, numbering)) as unknown as typeof draft)
      : draft;
    const checked = Fixture.safeParse(built);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      throw new Error(
        `internal: the ${format} importer built an invalid fixture from ${shownAs} at ${issue.path.join('.')}: ${issue.message}`,
      );
    }
    out.push({
      file: shownAs,
      fixture: checked.data,
      format,
      redactions: counts,
      tokens: checked.data.items.reduce((s, i) => s + options.tokens(i.content), 0),
      ...(name ? { session: name } : {}),
      ...(builder.abandoned > 0 ? { abandoned: builder.abandoned } : {}),
    });
  }
  // The counts cover the whole file, after every session's second pass.
  for (const t of out) if (t.fixture.imported) t.fixture.imported.redaction.counts = { ...counts };
  return out;
}

/** The one session of a recorded file (the main one, when the file holds several: see importFile). */
export async function importTrace(path: string, shownAs: string, options: ImportOptions): Promise<ImportedTrace> {
  return (await importFile(path, shownAs, options))[0]!;
}

/** Imports every file or none: the first bad file stops the import before anything is returned for writing. */
export async function importTraces(
  files: readonly { path: string; shownAs: string }[],
  options: ImportOptions,
): Promise<ImportedTrace[]> {
  const shared = { ...options, numbering: options.numbering ?? new SecretNumbering() };
  // One file after another: secret numbering is shared, so the order of imports decides the markers.
  const out: ImportedTrace[] = [];
  for (const f of files) out.push(...(await importFile(f.path, f.shownAs, shared)));
  const dup = duplicateId(out);
  if (dup) throw input('PL_TRACE_DUPLICATE_ID', dup.file, dup.id, dup.other);
  return out;
}
