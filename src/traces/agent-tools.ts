// The file tools Claude Code and OpenCode share by purpose (under different spellings): which read a file, which
// change one, which search. Tool names are compared lower-case; anything unknown is treated as non-idempotent.
import type { SideEffectClass } from '../fixture/schema.js';
import { normalisePath, readShell, type ShellReading } from './shell.js';

const READS = new Set(['read', 'notebookread', 'view']);
const SEARCHES = new Set(['glob', 'grep', 'ls', 'list', 'codesearch']);
const WRITES = new Set(['edit', 'multiedit', 'write', 'notebookedit', 'patch']);
const WEB = new Set(['webfetch', 'websearch']);
const PATCHES = new Set(['apply_patch']);
const PATCH_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm;

export interface AgentTool {
  readonly sideEffect: SideEffectClass;
  /** The file the call reads or changes, when its input names one. */
  readonly path?: string;
  /** Every file a patch names (a patch may change several), when the call is one. */
  readonly patches?: readonly string[];
  readonly writes: boolean;
  readonly search: boolean;
  readonly transient: boolean;
  /** For a shell call: the tool name to record (shell.read or shell.exec). */
  readonly name: string;
  /** For a shell call: everything its command says (files read with their views, files written, parse error). */
  readonly shell?: ShellReading;
}

export async function agentTool(name: string, input: Record<string, unknown>): Promise<AgentTool> {
  const lower = name.toLowerCase();
  const path = [input['file_path'], input['filePath'], input['notebook_path'], input['path']].find(
    (p): p is string => typeof p === 'string',
  );
  if (lower === 'bash') {
    const command = typeof input['command'] === 'string' ? input['command'] : '';
    const s = await readShell(command);
    return {
      sideEffect: s.sideEffect,
      writes: false,
      search: s.search,
      transient: s.transient,
      name: s.kind === 'read' ? 'shell.read' : 'shell.exec',
      shell: s,
      ...(s.path ? { path: s.path } : {}),
    };
  }
  if (PATCHES.has(lower)) {
    // A patch in the envelope OpenCode's and Codex's apply_patch take: each file it adds, updates, deletes or moves to.
    const text = [input['patchText'], input['patch'], input['input']].find((p): p is string => typeof p === 'string');
    const patches = [...(text ?? '').matchAll(PATCH_FILE)].map((m) => (m[1] ?? m[2]!).trim());
    return { sideEffect: 'non-idempotent', writes: true, search: false, transient: false, name, patches };
  }
  if (READS.has(lower))
    return {
      sideEffect: 'read-mutable',
      writes: false,
      search: false,
      transient: false,
      name,
      ...(path ? { path } : {}),
    };
  if (SEARCHES.has(lower) || WEB.has(lower))
    return { sideEffect: 'read-mutable', writes: false, search: SEARCHES.has(lower), transient: false, name };
  if (WRITES.has(lower))
    return {
      sideEffect: 'non-idempotent',
      writes: true,
      search: false,
      transient: false,
      name,
      ...(path ? { path } : {}),
    };
  return { sideEffect: 'non-idempotent', writes: false, search: false, transient: false, name };
}

/** The files a call changes, as its input names them: an edit's file, a patch's files, a shell command's targets. */
export function writtenPaths(tool: AgentTool): string[] {
  const named = tool.writes ? (tool.patches ?? (tool.path ? [tool.path] : [])) : (tool.shell?.writes ?? []);
  return [...new Set(named.map((p) => normalisePath(p)))];
}

/** Whether a search's output says it found nothing. */
export function foundNothing(output: string): boolean {
  return /^(No files found|No matches found|Found 0 (files|matches))/m.test(output.trim()) || output.trim() === '';
}
