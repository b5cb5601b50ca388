// Generic work: source reads, searches, edits, passing test runs, git, installs, migration logs and short notes.
// A step is written the same way whatever its role; only the composer decides, from its own role stream, whether a
// later step quotes it (live) or nothing ever does (decoy). So tool, phrasing, length and position of generic work
// say nothing about whether it will be needed: if removable work had its own tools or phrases, a classifier on
// them would find the oracle's label without reading the work at all.
import type { TrajectoryBuilder } from './builder.js';
import { pickWeighted, type Rng } from './rng.js';
import type { FamilyContext } from './family.js';
import { install, MANAGERS } from './payloads/installs.js';
import { gitDiff, gitLog, gitStatus } from './payloads/git.js';
import { migrationLog } from './payloads/migrations.js';
import { LANGUAGES, sourceFile, sourcePath } from './payloads/source.js';
import { RUNNERS, testRun, testSuite } from './payloads/tests.js';
import { charsFor, fnName, NOUNS, sha } from './payloads/vocab.js';
import { freeM, kubectlPods, psAux } from './payloads/system.js';
import { stackTrace, TRACE_LANGUAGES } from './payloads/traces.js';

export type GenericKind =
  | 'read'
  | 'grep'
  | 'edit'
  | 'test'
  | 'git'
  | 'install'
  | 'migration'
  | 'note'
  | 'pods'
  | 'ps'
  | 'free'
  | 'logs'
  | 'show'
  | 'patch';

const WEIGHTS: readonly [GenericKind, number][] = [
  ['read', 30],
  ['grep', 10],
  ['edit', 14],
  ['test', 10],
  ['git', 10],
  ['install', 3],
  ['migration', 3],
  ['note', 20],
  // The families' own tools, written by the same payload builders, so no tool name is the mark of an episode.
  ['pods', 4],
  ['ps', 3],
  ['free', 3],
  ['logs', 5],
  ['show', 6],
  ['patch', 5],
];

export function declareGenericTools(b: TrajectoryBuilder): void {
  b.tool('kubectl_get', 'read-mutable', 'kubectl get <kind>');
  b.tool('ps', 'read-mutable', 'ps aux on a pod');
  b.tool('free', 'read-mutable', 'free -m on a node');
  b.tool('read_logs', 'read-mutable', 'reads recent log lines of a service');
  b.tool('git_show', 'pure', 'git show <sha>:<path>; a fixed sha names fixed bytes');
  b.tool('apply_patch', 'non-idempotent', 'applies a unified diff');
  b.tool('read_file', 'read-mutable', 'reads a workspace file');
  b.tool('grep', 'read-mutable', 'ripgrep');
  b.tool('edit_file', 'non-idempotent', 'replaces one string in a file');
  b.tool('run_tests', 'read-mutable', 'runs a test command in a package');
  b.tool('git', 'read-mutable', 'git status, log or diff');
  b.tool('shell', 'read-mutable', 'runs a shell command in the workspace');
}

/**
 * One generic step at the builder's current turn; `readTokens` sizes a read. Returns the ids it wrote, in order.
 * Each step draws a fresh sub-stream, so one step's size never shifts the next step's choices.
 */
export function genericStep(
  b: TrajectoryBuilder,
  r: Rng,
  ctx: FamilyContext,
  readTokens: number,
): { kind: GenericKind; items: string[] } {
  const kind = pickWeighted(r, WEIGHTS);
  const before = b.items.length;
  switch (kind) {
    case 'read': {
      const language = r.pick(LANGUAGES);
      const path = b.unique(() => sourcePath(r, language, ctx.domain));
      const file = sourceFile(r, language, path, readTokens);
      b.call(
        { tool: 'read_file', arguments: { path }, content: `read_file ${path}` },
        {
          content: file.content,
          source: {
            identity: `${ctx.repo}/${path}`,
            version: { kind: 'content-hash', value: `sha256:${r.hex(16)}` },
            mutable: true,
          },
        },
      );
      break;
    }
    case 'grep': {
      const name = b.unique(() => fnName(r));
      const hits = Array.from(
        { length: r.int(1, 25) },
        () => `${sourcePath(r, r.pick(LANGUAGES), ctx.domain)}:${r.int(1, 900)}:    ${name}(${r.pick(NOUNS)}, opts)`,
      );
      b.call(
        { tool: 'grep', arguments: { pattern: name, path: '.' }, content: `rg -n '${name}' .` },
        {
          content: hits.join('\n'),
          source: { identity: ctx.repo, version: 'UNKNOWN', mutable: true, selector: `rg ${name}` },
        },
      );
      break;
    }
    case 'edit': {
      const path = b.unique(() => sourcePath(r, r.pick(LANGUAGES), ctx.domain));
      const old = `${fnName(r)}(${r.pick(NOUNS)})`;
      const neu = `${fnName(r)}(${r.pick(NOUNS)}, { timeoutMs: ${r.int(1, 60) * 500} })`;
      b.call(
        {
          tool: 'edit_file',
          arguments: { path, old, new: neu },
          content: `edit_file ${path}\n-    ${old};\n+    ${neu};`,
          effects: [`${ctx.repo}/${path}`],
        },
        { content: `Edited ${path}: 1 line changed` },
      );
      break;
    }
    case 'test': {
      const target = b.unique(() => `packages/${ctx.domain}-${r.pick(NOUNS)}-${r.pick(NOUNS)}`);
      const run = testRun(
        r,
        testSuite(r, r.pick(RUNNERS), target, r.int(2, Math.max(2, Math.round(readTokens / 40)))),
        [],
        r.int(300, 60_000),
      );
      b.call(
        {
          tool: 'run_tests',
          arguments: { cwd: target, command: run.command },
          content: `cd ${target} && ${run.command}`,
        },
        {
          content: run.content,
          covers: run.covers,
          source: { identity: `workspace:${target}`, version: 'UNKNOWN', mutable: true },
        },
      );
      break;
    }
    case 'git': {
      const which = r.pick(['status', 'log', 'diff'] as const);
      const branch = `feat/${ctx.domain}-${r.pick(NOUNS)}-${r.int(10, 999)}`;
      const logMax = r.int(3, 30);
      const statusDir = b.unique(() => `packages/${ctx.domain}-${r.pick(NOUNS)}`);
      const diffPath = sourcePath(r, r.pick(LANGUAGES), ctx.domain);
      const content =
        which === 'status'
          ? gitStatus(
              branch,
              Array.from({ length: r.int(0, 8) }, () => sourcePath(r, r.pick(LANGUAGES), ctx.domain)),
            )
          : which === 'log'
            ? gitLog(r, sha(r), logMax, branch)
            : gitDiff(r, diffPath, `${fnName(r)}();`, `${fnName(r)}();`);
      b.call(
        {
          tool: 'git',
          arguments: {
            subcommand: which,
            ...(which === 'log' ? { max: logMax } : which === 'diff' ? { path: diffPath } : { path: statusDir }),
          },
          content:
            which === 'status'
              ? `git status --short --branch -- ${statusDir}`
              : which === 'log'
                ? `git log --oneline -n ${logMax} ${branch}`
                : `git diff -- ${diffPath}`,
        },
        { content, source: { identity: ctx.repo, version: 'UNKNOWN', mutable: true, selector: which } },
      );
      break;
    }
    case 'install': {
      const inst = install(r, r.pick(MANAGERS), readTokens);
      // The folder is in the command line as run, so the call has a line of its own a later step can quote.
      const cwd = b.unique(() => `packages/${ctx.domain}-${r.pick(NOUNS)}`);
      b.call(
        { tool: 'shell', arguments: { command: inst.command, cwd }, content: `cd ${cwd} && ${inst.command}` },
        {
          content: inst.content,
          source: { identity: `workspace:${ctx.service}`, version: 'UNKNOWN', mutable: true, selector: 'install' },
        },
      );
      break;
    }
    case 'migration': {
      const tool = r.pick(['flyway', 'alembic'] as const);
      const content = migrationLog(r, tool, Math.max(1, Math.round(charsFor(readTokens) / 110)));
      const command =
        tool === 'flyway' ? `flyway -url=jdbc:postgresql://db:5432/${ctx.domain}_dev migrate` : 'alembic upgrade head';
      const cwd = b.unique(() => `services/${ctx.domain}-${r.pick(NOUNS)}`);
      b.call(
        { tool: 'shell', arguments: { command, cwd }, content: `cd ${cwd} && ${command}` },
        { content, source: { identity: `db:${ctx.domain}_dev`, version: 'UNKNOWN', mutable: true } },
      );
      break;
    }
    case 'pods': {
      // Names drawn unique, so each command line is one a later step could quote.
      const app = b.unique(() => `${ctx.service}-${r.pick(NOUNS)}`);
      b.call(
        {
          tool: 'kubectl_get',
          arguments: { kind: 'pods', selector: `app=${app}` },
          content: `kubectl get pods -l app=${app}`,
        },
        {
          content: kubectlPods(r, app, r.int(3, 12)).content,
          source: { identity: `k8s:${app}/kubectl_get`, version: 'UNKNOWN', mutable: true },
        },
      );
      break;
    }
    case 'ps': {
      const pod = b.unique(() => `${ctx.service}-${r.int(0, 9)}`);
      b.call(
        { tool: 'ps', arguments: { pod, command: 'ps aux' }, content: `kubectl exec ${pod} -- ps aux` },
        {
          content: psAux(r, `node dist/${r.pick(NOUNS)}.js`, r.int(4, 20)).content,
          source: { identity: `k8s:${pod}/ps`, version: 'UNKNOWN', mutable: true },
        },
      );
      break;
    }
    case 'free': {
      const node = b.unique(() => `node-${r.int(1, 40)}`);
      b.call(
        { tool: 'free', arguments: { node }, content: `free -m # on ${node}` },
        { content: freeM(r).content, source: { identity: `k8s:${node}/free`, version: 'UNKNOWN', mutable: true } },
      );
      break;
    }
    case 'logs': {
      const t = stackTrace(r, r.pick(TRACE_LANGUAGES), ctx.domain, r.int(4, 30));
      const since = b.unique(() => `${r.int(2, 60)}m`);
      b.call(
        {
          tool: 'read_logs',
          arguments: { service: ctx.service, since },
          content: `read_logs ${ctx.service} --since ${since}`,
        },
        { content: t.content, source: { identity: `logs:${ctx.service}`, version: 'UNKNOWN', mutable: true } },
      );
      break;
    }
    case 'show': {
      const rev = sha(r);
      const language = r.pick(LANGUAGES);
      const path = b.unique(() => `vendor/${sourcePath(r, language, ctx.domain)}`);
      const file = sourceFile(r, language, path, readTokens);
      b.call(
        { tool: 'git_show', arguments: { rev, path }, content: `git show ${rev.slice(0, 7)}:${path}` },
        {
          content: file.content,
          source: {
            identity: `${ctx.repo}/${path}`,
            version: { kind: 'git-sha', value: rev, of: 'commit' },
            mutable: false,
          },
        },
      );
      break;
    }
    case 'patch': {
      const path = b.unique(() => sourcePath(r, r.pick(LANGUAGES), ctx.domain));
      const patch = gitDiff(r, path, `${fnName(r)}(${r.pick(NOUNS)})`, `${fnName(r)}(${r.pick(NOUNS)})`);
      b.call(
        {
          tool: 'apply_patch',
          arguments: { patch },
          content: `apply_patch\n${patch}`,
          effects: [`${ctx.repo}/${path}`],
        },
        { content: `Applied patch to ${path}` },
      );
      break;
    }
    case 'note': {
      // Besides plain plans, the shapes the families' notes take (a rejected hypothesis, a pin, a fixed ticket, a
      // root cause), so that no phrasing is the mark of an episode.
      const fn = fnName(r);
      const noun = r.pick(NOUNS);
      const shape = r.pick(['plan', 'plan', 'plan', 'hypothesis', 'pin', 'fixed', 'cause', 'ask'] as const);
      if (shape === 'ask') {
        // A user's follow-up in the words of the task statement, which is always needed: without it those words
        // would mark an item as necessary.
        b.note(
          'user',
          'instruction',
          `${r.pick(['Also', 'While you are there,', 'When you get to it,'])} ${r.pick(['make', 'get'])} ${fn} in the ${noun} ${r.pick(['handling', 'code', 'tests'])} ${r.pick(['green again', 'stable', 'ready for the Thursday release'])}. Work through what you find; do not push ${fn} directly, open it in the same pull request.`,
        );
      } else if (shape === 'hypothesis') {
        b.note(
          'model',
          'hypothesis',
          `Hypothesis: ${fn} in the ${noun} code is the slow path. Checked with ${r.pick(['kubectl get pods', 'ps aux', 'free -m', 'the request log'])}: the output does not show it, so this is rejected.`,
          { verdict: 'rejected' },
        );
      } else if (shape === 'pin') {
        b.note(
          'model',
          'reasoning',
          `Pinned ${noun}-${r.pick(['client', 'parser', 'driver', 'codec'])} to ${r.int(0, 12)}.${r.int(0, 30)}.${r.int(0, 20)}; the ${r.pick(['warning', 'crash', 'timeout'])} is gone. Workaround only: revisit when ${fn} moves.`,
        );
      } else if (shape === 'fixed') {
        b.note(
          'model',
          'reasoning',
          `${ctx.domain.slice(0, 3).toUpperCase()}-${r.int(100, 9999)} fixed: ${fn} no longer drops the ${noun} on retry. Tests pass.`,
        );
      } else if (shape === 'cause') {
        b.note('model', 'reasoning', `Root cause candidate: one query per ${noun} in ${fn} (N+1).`);
      } else {
        b.note(
          'model',
          r.pick(['reasoning', 'plan'] as const),
          `${r.pick(['Next', 'Then', 'Before that'])} I will ${r.pick(['check', 'read', 'tidy', 'rename'])} ${fn} in ${noun} ${r.pick(['handling', 'code', 'tests'])}; ${r.pick(['it looks unrelated to the failure', 'it only touches logging', 'the callers pass a default'])}.`,
        );
      }
      break;
    }
  }
  return { kind, items: b.items.slice(before).map((it) => it.id) };
}

/**
 * Strings a later step could quote from an item: its lines (trimmed, 12 to 200 characters), longest first, since a
 * long line is the likeliest to be held by this item alone.
 */
export function quotable(content: string): string[] {
  const lines = [
    ...new Set(
      content
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.length >= 12 && l.length <= 200),
    ),
  ];
  return lines.sort((a, c) => c.length - a.length || (a < c ? -1 : a > c ? 1 : 0));
}

/** What a later step writes when it quotes a generic step: the quoted strings in one of a few ordinary phrasings. */
export function genericUse(b: TrajectoryBuilder, r: Rng, quotes: readonly string[]): string {
  const joined = quotes.map((q) => `"${q}"`).join(' and ');
  const text = r.pick([
    `Going back to what I saw earlier: ${joined}.`,
    `This depends on ${joined}, from earlier in the session.`,
    `Checking the change against ${joined}.`,
    `The earlier output matters here: ${joined}.`,
  ]);
  return b.note('model', r.pick(['reasoning', 'plan'] as const), text);
}
