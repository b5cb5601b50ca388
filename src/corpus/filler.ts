// Ordinary work between the families' episodes: source reads, searches, edits, passing test runs, git, installs,
// migration logs and short notes. No later step needs any of it (every name it uses is fresh), so it is removable
// at every prune point by construction.
import type { TrajectoryBuilder } from './builder.js';
import type { Rng } from './rng.js';
import type { FamilyContext } from './family.js';
import { install, MANAGERS } from './payloads/installs.js';
import { gitDiff, gitLog, gitStatus } from './payloads/git.js';
import { migrationLog } from './payloads/migrations.js';
import { LANGUAGES, sourceFile, sourcePath } from './payloads/source.js';
import { RUNNERS, testRun, testSuite } from './payloads/tests.js';
import { charsFor, fnName, NOUNS, sha } from './payloads/vocab.js';

export type FillerKind = 'read' | 'grep' | 'edit' | 'test' | 'git' | 'install' | 'migration' | 'note';

const WEIGHTS: readonly [FillerKind, number][] = [
  ['read', 30], ['grep', 10], ['edit', 14], ['test', 10], ['git', 10], ['install', 3], ['migration', 3], ['note', 20],
];

function kindOf(r: Rng): FillerKind {
  const total = WEIGHTS.reduce((s, [, w]) => s + w, 0);
  let x = r.next() * total;
  for (const [k, w] of WEIGHTS) {
    x -= w;
    if (x < 0) return k;
  }
  return 'note';
}

export function declareFillerTools(b: TrajectoryBuilder): void {
  b.tool('read_file', 'read-mutable', 'reads a workspace file');
  b.tool('grep', 'read-mutable', 'ripgrep');
  b.tool('edit_file', 'non-idempotent', 'replaces one string in a file');
  b.tool('run_tests', 'read-mutable', 'runs a test command in a package');
  b.tool('git', 'read-mutable', 'git status, log or diff');
  b.tool('shell', 'read-mutable', 'runs a shell command in the workspace');
}

/**
 * One filler step at the builder's current turn; `readTokens` sizes a read. Returns the item ids it wrote.
 * Each step draws a fresh sub-stream, so one step's size never shifts the next step's choices.
 */
export function filler(b: TrajectoryBuilder, r: Rng, ctx: FamilyContext, id: string, readTokens: number): number {
  const kind = kindOf(r);
  const before = b.items.length;
  switch (kind) {
    case 'read': {
      const language = r.pick(LANGUAGES);
      const path = b.unique(() => sourcePath(r, language, ctx.domain));
      const file = sourceFile(r, language, path, readTokens);
      b.call(id, { tool: 'read_file', arguments: { path }, content: `read_file ${path}` }, { content: file.content, source: { identity: `${ctx.repo}/${path}`, version: { kind: 'content-hash', value: `sha256:${r.hex(16)}` }, mutable: true } });
      break;
    }
    case 'grep': {
      const name = b.unique(() => fnName(r));
      const hits = Array.from({ length: r.int(1, 25) }, () => `${sourcePath(r, r.pick(LANGUAGES), ctx.domain)}:${r.int(1, 900)}:    ${name}(${r.pick(NOUNS)}, opts)`);
      b.call(id, { tool: 'grep', arguments: { pattern: name, path: '.' }, content: `rg -n '${name}' .` }, { content: hits.join('\n'), source: { identity: ctx.repo, version: 'UNKNOWN', mutable: true, selector: `rg ${name}` } });
      break;
    }
    case 'edit': {
      const path = b.unique(() => sourcePath(r, r.pick(LANGUAGES), ctx.domain));
      const old = `${fnName(r)}(${r.pick(NOUNS)})`;
      const neu = `${fnName(r)}(${r.pick(NOUNS)}, { timeoutMs: ${r.int(1, 60) * 500} })`;
      b.call(id, { tool: 'edit_file', arguments: { path, old, new: neu }, content: `edit_file ${path}\n-    ${old};\n+    ${neu};`, effects: [`${ctx.repo}/${path}`] }, { content: `Edited ${path}: 1 line changed` });
      break;
    }
    case 'test': {
      const target = b.unique(() => `packages/${ctx.domain}-${r.pick(NOUNS)}-${r.pick(NOUNS)}`);
      const run = testRun(r, testSuite(r, r.pick(RUNNERS), target, r.int(2, Math.max(2, Math.round(readTokens / 40)))), [], r.int(300, 60_000));
      b.call(id, { tool: 'run_tests', arguments: { cwd: target, command: run.command }, content: `cd ${target} && ${run.command}` }, { content: run.content, covers: run.covers, source: { identity: `workspace:${target}`, version: 'UNKNOWN', mutable: true } });
      break;
    }
    case 'git': {
      const which = r.pick(['status', 'log', 'diff'] as const);
      const branch = `feat/${ctx.domain}-${r.pick(NOUNS)}-${r.int(10, 999)}`;
      const content = which === 'status'
        ? gitStatus(branch, Array.from({ length: r.int(0, 8) }, () => sourcePath(r, r.pick(LANGUAGES), ctx.domain)))
        : which === 'log' ? gitLog(r, sha(r), r.int(3, 30), branch)
        : gitDiff(r, sourcePath(r, r.pick(LANGUAGES), ctx.domain), `${fnName(r)}();`, `${fnName(r)}();`);
      b.call(id, { tool: 'git', arguments: { subcommand: which, ...(which === 'log' ? { max: r.int(3, 30) } : {}) }, content: `git ${which}` }, { content, source: { identity: ctx.repo, version: 'UNKNOWN', mutable: true, selector: which } });
      break;
    }
    case 'install': {
      const inst = install(r, r.pick(MANAGERS), readTokens);
      b.call(id, { tool: 'shell', arguments: { command: inst.command, cwd: b.unique(() => `packages/${ctx.domain}-${r.pick(NOUNS)}`) }, content: inst.command }, { content: inst.content, source: { identity: `workspace:${ctx.service}`, version: 'UNKNOWN', mutable: true, selector: 'install' } });
      break;
    }
    case 'migration': {
      const tool = r.pick(['flyway', 'alembic'] as const);
      const content = migrationLog(r, tool, Math.max(1, Math.round(charsFor(readTokens) / 110)));
      const command = tool === 'flyway' ? `flyway -url=jdbc:postgresql://db:5432/${ctx.domain}_dev migrate` : 'alembic upgrade head';
      b.call(id, { tool: 'shell', arguments: { command }, content: command }, { content, source: { identity: `db:${ctx.domain}_dev`, version: 'UNKNOWN', mutable: true } });
      break;
    }
    case 'note':
      b.note(id, 'model', r.pick(['reasoning', 'plan'] as const), `${r.pick(['Next', 'Then', 'Before that'])} I will ${r.pick(['check', 'read', 'tidy', 'rename'])} ${fnName(r)} in ${r.pick(NOUNS)} ${r.pick(['handling', 'code', 'tests'])}; ${r.pick(['it looks unrelated to the failure', 'it only touches logging', 'the callers pass a default'])}.`);
      break;
  }
  return b.items.length - before;
}
