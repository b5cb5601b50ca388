// A large read. Reconstructible: a file at a pinned sha, stored durably with a pointer, so a re-read or the
// pointer returns the same bytes and the read may go even though a later step needs part of it. Not
// reconstructible: a live endpoint's large response that changes afterwards, with nothing stored.
import { ob, claims, NO_CLAIMS, type FamilyFactory } from '../family.js';
import { configFile } from '../payloads/configs.js';
import { LANGUAGES, sourceFile, sourcePath } from '../payloads/source.js';
import { sha } from '../payloads/vocab.js';

export interface LargeReadOptions {
  readonly maxTokens: number;
}

export const largeReconstructibleRead: FamilyFactory = (r, p, ctx) => {
  const variant = r.pick(['pointer-and-reread', 'not-reconstructible'] as const);
  const tokens = r.logNormal(4500, 0.5, 2500, 11500);
  let id = '';
  let turn = 0;
  let quote = '';
  let what = '';
  return {
    family: 'large-reconstructible-read',
    variant,
    span: 1,
    exercises: [
      'regenerability-guard',
      'durable-pointer recovery',
      're-read recovery',
      'oldest-first',
      'predictive-semantic',
    ],
    open(b, at) {
      b.at(at.start);
      turn = b.turn;
      if (variant === 'pointer-and-reread') {
        const language = r.pick(LANGUAGES);
        const path = b.unique(() => sourcePath(r, language, `${ctx.domain}-sdk`));
        const rev = sha(r);
        const file = sourceFile(r, language, path, tokens);
        what = path;
        quote = file.content
          .split('\n')
          .find((l) => l.includes(file.symbol))!
          .trim();
        const identity = `${ctx.repo}/${path}`;
        b.tool('git_show', 'pure', 'git show <sha>:<path>; a fixed sha names fixed bytes');
        b.sourceState(identity, 0, file.content);
        const pointer = b.stored(`artifacts/${path}@${rev.slice(0, 7)}`, file.content);
        id = b.call(
          { tool: 'git_show', arguments: { rev, path }, content: `git show ${rev.slice(0, 7)}:${path}` },
          {
            content: file.content,
            source: { identity, version: { kind: 'git-sha', value: rev, of: 'commit' }, mutable: false },
            flags: { durablePointer: pointer },
          },
        ).result;
      } else {
        const url = `https://${ctx.domain}.staging.internal/v2/${r.pick(['catalog', 'limits', 'flags', 'routes'])}`;
        what = url;
        const body = configFile(
          r,
          'json',
          ctx.service,
          { key: 'RATE_LIMIT_PER_MINUTE', value: String(r.int(60, 6000)) },
          tokens,
        );
        quote = `"RATE_LIMIT_PER_MINUTE": ${body.setting.value}`;
        b.tool('http_get', 'read-mutable', 'GET a URL');
        b.sourceState(`http:${url}`, 0, body.content);
        b.sourceState(
          `http:${url}`,
          turn + 1,
          body.content.replace(quote, `"RATE_LIMIT_PER_MINUTE": ${Number(body.setting.value) + 1}`),
        );
        id = b.call(
          { tool: 'http_get', arguments: { url }, content: `GET ${url}` },
          { content: body.content, source: { identity: `http:${url}`, version: 'UNKNOWN', mutable: true } },
        ).result;
      }
    },
    use(b) {
      b.note('model', 'reasoning', `Implementing against ${quote} from ${what}.`);
    },
    claimsAt(t, at) {
      if (t < turn || t >= at.needAt) return NO_CLAIMS;
      if (variant === 'pointer-and-reread') {
        return claims({
          downstream: [
            ob(
              `ob-${p}-spec`,
              `The client change needs a declaration from ${what}; the pinned file can be re-read or fetched from the store.`,
              at.needAt,
              [id],
              [quote],
              { question: `What does ${what} declare?`, expectedAnswer: quote },
              { pointer: true, reread: true },
            ),
          ],
          recoverable: [id],
          rationale: `${what} at a pinned sha is stored durably: the read may go and be recovered when needed.`,
        });
      }
      return claims({
        downstream: [
          ob(
            `ob-${p}-live`,
            `The client change needs the limit ${what} returned then; the endpoint has changed since and nothing was stored.`,
            at.needAt,
            [id],
            [quote],
            { question: `What limit did ${what} return?`, expectedAnswer: quote },
          ),
        ],
        necessary: [id],
        rationale: `${what} is live state that changed after the read; the read is the only copy.`,
      });
    },
  };
};
