// The same immutable source state (a file at a pinned git sha) read two or three times. Every copy is the same
// bytes of the same state, so any one of them serves the later step: the copies form a redundant group. One
// variant renders the first read with line numbers, so the copies are the same state but not the same bytes.
import { ob, claims, NO_CLAIMS, type FamilyFactory } from '../family.js';
import { LANGUAGES, sourceFile, sourcePath, withLineNumbers } from '../payloads/source.js';
import { sha } from '../payloads/vocab.js';

export const immutableDuplicateRead: FamilyFactory = (r, p, ctx) => {
  const variant = r.pick(['identical-copies', 'numbered-and-plain'] as const);
  const copies = r.int(2, 3);
  const language = r.pick(LANGUAGES);
  const rev = sha(r);
  let path = '';
  let file: ReturnType<typeof sourceFile> | undefined;
  const reads: { id: string; turn: number }[] = [];
  const tokens = r.logNormal(900, 0.6, 200, 5000);
  const line = () =>
    file!.content
      .split('\n')
      .find((l) => l.includes(file!.symbol))!
      .trim();
  return {
    family: 'immutable-duplicate-read',
    variant,
    span: copies,
    exercises: ['exact-redundancy', 'source-identity', 'same-tool-args-dedup'],
    open(b, at) {
      path = b.unique(() => `vendor/${sourcePath(r, language, ctx.domain)}`);
      file = sourceFile(r, language, path, tokens);
      b.tool('git_show', 'pure', 'git show <sha>:<path>; a fixed sha names fixed bytes');
      b.tool('read_file', 'read-mutable', 'reads a workspace file');
      const source = {
        identity: `${ctx.repo}/${path}`,
        version: { kind: 'git-sha' as const, value: rev, of: 'commit' as const },
        mutable: false,
      };
      for (let i = 0; i < copies; i += 1) {
        b.at(at.start + i);
        const numbered = variant === 'numbered-and-plain' && i === 0;
        const pair = numbered
          ? b.call(
              {
                tool: 'read_file',
                arguments: { path, lineNumbers: true },
                content: `read_file ${path} (with line numbers)`,
              },
              { content: withLineNumbers(file.content), source },
            )
          : b.call(
              { tool: 'git_show', arguments: { rev, path }, content: `git show ${rev.slice(0, 7)}:${path}` },
              { content: file.content, source },
            );
        reads.push({ id: pair.result, turn: b.turn });
      }
    },
    use(b) {
      b.note(
        'model',
        'reasoning',
        `The call site has to match ${line()} from ${path} at ${rev.slice(0, 7)}; adjusting the caller, not the vendored code.`,
      );
    },
    claimsAt(turn, at) {
      const inContext = reads.filter((x) => x.turn <= turn).map((x) => x.id);
      if (inContext.length === 0 || turn >= at.needAt) return NO_CLAIMS;
      const need = ob(
        `ob-${p}-vendored`,
        `The caller is changed against the exact declaration in ${path} at ${rev.slice(0, 7)}.`,
        at.needAt,
        inContext,
        [line()],
        { question: `What does ${path} at ${rev.slice(0, 7)} declare for ${file!.symbol}?`, expectedAnswer: line() },
      );
      return claims({
        downstream: [need],
        ...(inContext.length >= 2 ? { groups: [{ items: inContext, keep: 1 }] } : { necessary: inContext }),
        rationale: `${inContext.length} read(s) of ${path} at one pinned sha: ${inContext.length >= 2 ? 'any one copy serves the later step' : 'the only copy is needed'}.`,
      });
    },
  };
};
