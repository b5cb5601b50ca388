// A failed call with a bulky input. When the input explains the failure (a generated migration whose broken line
// exists only in the call's arguments) the call is needed in full and the error only for its recorded residue.
// When it does not (an upload that failed on the network) the input is on disk anyway and only the residue of the
// error matters.
import type { ResidueField } from '../../fixture/schema.js';
import { ob, claims, NO_CLAIMS, type FamilyFactory } from '../family.js';
import { configFile } from '../payloads/configs.js';
import { migration, psqlFailure } from '../payloads/migrations.js';
import { NOUNS, snake } from '../payloads/vocab.js';

export const failedCallBulkyInput: FamilyFactory = (r, p, ctx) => {
  const variant = r.pick(['input-explains', 'input-irrelevant'] as const);
  const tokens = r.logNormal(1800, 0.6, 400, 11000);
  const database = `${ctx.domain}_dev`;
  let callId = '';
  let resultId = '';
  let turn = 0;
  let quote = '';
  let where = '';
  let message = '';
  return {
    family: 'failed-call-bulky-input',
    variant,
    span: 1,
    exercises: ['errored-input-residue', 'observation-masking', 'oldest-first'],
    open(b, at) {
      b.at(at.start);
      turn = b.turn;
      if (variant === 'input-explains') {
        const m = migration(r, tokens);
        const fail = psqlFailure(r, m, database);
        b.tool('psql', 'non-idempotent', 'psql -v ON_ERROR_STOP=1 -d <db> with the script on stdin');
        const pair = b.call(
          {
            tool: 'psql',
            arguments: { database, script: m.script },
            content: `psql -v ON_ERROR_STOP=1 -d ${database} <<'SQL'\n${m.script}SQL`,
          },
          {
            content: fail.content,
            status: { state: 'error', errorType: 'PsqlError', message: fail.message, fields: fail.fields },
            source: { identity: `db:${database}`, version: 'UNKNOWN', mutable: true },
          },
        );
        callId = pair.call;
        resultId = pair.result;
        quote = m.badStatement;
        where = `${m.name}:${m.badLine}`;
        message = 'syntax error at or near ")"';
      } else {
        const name = `${snake(r.pick(NOUNS), 'manifest')}.json`;
        const manifest = configFile(
          r,
          'json',
          ctx.service,
          { key: 'RELEASE', value: `${ctx.service}-${r.int(100, 999)}` },
          tokens,
        );
        const host = `artifacts.${ctx.domain}.internal`;
        b.tool('http_put', 'non-idempotent', 'uploads a body to a URL');
        const code = r.pick(['ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN']);
        message = `request to https://${host}/v1/manifests/${name} failed, reason: ${code}`;
        const pair = b.call(
          {
            tool: 'http_put',
            arguments: { url: `https://${host}/v1/manifests/${name}`, body: manifest.content },
            content: `PUT https://${host}/v1/manifests/${name}\n${manifest.content}`,
          },
          {
            content: `> PUT /v1/manifests/${name} HTTP/1.1\n> Host: ${host}\n> Content-Length: ${manifest.content.length}\n>\n* Connection #0 to host ${host} left intact\n* ${message}\ncurl: (56) Recv failure: Connection reset by peer`,
            status: { state: 'error', errorType: 'FetchError', message, fields: { code, attempt: '1' } },
          },
        );
        callId = pair.call;
        resultId = pair.result;
        where = code;
      }
    },
    use(b) {
      b.note(
        'model',
        'reasoning',
        variant === 'input-explains'
          ? `The failing statement is ${quote}: the column list ends with a trailing comma. Regenerating the script without it.`
          : `The upload failed on the network (${where}), not on the manifest; retrying the same body with backoff.`,
      );
    },
    claimsAt(t, at) {
      if (t < turn || t >= at.needAt) return NO_CLAIMS;
      const residue: ResidueField[] =
        variant === 'input-explains'
          ? ['tool', 'errorType', 'message', 'fields.line']
          : ['tool', 'errorType', 'message'];
      if (variant === 'input-explains') {
        return claims({
          downstream: [
            ob(
              `ob-${p}-line`,
              'Regenerating the script needs the exact broken statement, which exists only in the failed call.',
              at.needAt,
              [callId],
              [quote],
              { question: 'Which statement broke the migration?', expectedAnswer: quote },
            ),
            ob(
              `ob-${p}-error`,
              'The fix targets the line and error psql reported.',
              at.needAt,
              [resultId],
              [message, where],
              { question: 'Where and how did the apply fail?', expectedAnswer: `${where}: ${message}` },
            ),
          ],
          necessary: [callId],
          partial: [{ itemId: resultId, residue }],
          rationale:
            'The failed call holds the only copy of the broken statement; the error is needed only for its recorded message and line.',
        });
      }
      return claims({
        downstream: [
          ob(
            `ob-${p}-error`,
            'The retry needs to know the upload failed on the network.',
            at.needAt,
            [resultId],
            [where],
            { question: 'Why did the upload fail?', expectedAnswer: message },
          ),
        ],
        partial: [{ itemId: resultId, residue }],
        rationale:
          'The manifest is on disk, so the failed call may go; the error is needed only for its recorded reason.',
      });
    },
  };
};
