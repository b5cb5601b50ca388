// SQL migration scripts and the logs psql and migration tools print while applying them.
import type { Rng } from '../rng.js';
import { charsFor, NOUNS, snake } from './vocab.js';

export interface Migration {
  readonly name: string;
  readonly script: string;
  /** The statement that breaks the script, quoted exactly, and its line. */
  readonly badStatement: string;
  readonly badLine: number;
}

function statement(r: Rng, schema: string, table: string, i: number): string {
  const col = snake(r.pick(NOUNS), r.pick(['id', 'at', 'count', 'ref']));
  return r.pick([
    `CREATE INDEX ${table}_p${i}_${col}_idx ON ${schema}.${table}_p${i} USING btree (${col});`,
    `ALTER TABLE ${schema}.${table}_p${i} ADD CONSTRAINT ${table}_p${i}_${col}_chk CHECK (${col} IS NOT NULL);`,
    `CREATE TABLE ${schema}.${table}_p${i} PARTITION OF ${schema}.${table} FOR VALUES FROM (${i * 1000}) TO (${(i + 1) * 1000});`,
    `INSERT INTO ${schema}.${table}_p${i} SELECT * FROM ${schema}.${table}_legacy WHERE ${col} BETWEEN ${i * 1000} AND ${(i + 1) * 1000 - 1};`,
  ]);
}

/** A script of about `tokens` tokens with one broken statement (a trailing comma in a column list). */
export function migration(r: Rng, tokens: number): Migration {
  const schema = r.pick(['ledger', 'billing', 'orders', 'inventory']);
  const table = snake(r.pick(NOUNS), 'entries');
  const name = `${String(r.int(10, 999)).padStart(4, '0')}_${snake(table, r.pick(['partitions', 'backfill', 'indexes']))}.sql`;
  const lines = ['BEGIN;', `SET search_path = ${schema};`];
  const target = charsFor(tokens);
  let size = 30;
  let i = 0;
  while (size < target) {
    const s = statement(r, schema, table, i);
    lines.push(s);
    size += s.length + 1;
    i += 1;
  }
  const badLine = r.int(3, lines.length);
  const col = snake(r.pick(NOUNS), 'id');
  const badStatement = `CREATE INDEX ${table}_p${badLine}_${col}_booked_idx ON ${schema}.${table}_p${badLine} USING btree (${col}, booked_at DESC,);`;
  lines.splice(badLine - 1, 0, badStatement);
  lines.push('COMMIT;');
  return { name, script: `${lines.join('\n')}\n`, badStatement, badLine };
}

export function psqlFailure(
  r: Rng,
  m: Migration,
  database: string,
): { content: string; message: string; fields: Record<string, string> } {
  const tags = Array.from({ length: Math.min(m.badLine - 1, 400) }, () =>
    r.pick(['CREATE TABLE', 'CREATE INDEX', 'ALTER TABLE', `INSERT 0 ${r.int(0, 90000)}`]),
  );
  const message = `psql:${m.name}:${m.badLine}: ERROR:  syntax error at or near ")"`;
  const content = [
    'BEGIN',
    'SET',
    ...tags,
    message,
    `LINE 1: ...${m.badStatement.slice(-40)}`,
    '                                                  ^',
    'ROLLBACK',
  ].join('\n');
  return { content, message, fields: { exitCode: '3', line: String(m.badLine), sqlstate: '42601', database } };
}

export function migrationLog(r: Rng, tool: 'flyway' | 'alembic', count: number): string {
  const lines: string[] = [];
  if (tool === 'flyway') {
    lines.push(
      `Flyway Community Edition 10.${r.int(0, 20)}.${r.int(0, 9)} by Redgate`,
      `Database: jdbc:postgresql://db:5432/app (PostgreSQL 16.${r.int(0, 4)})`,
      `Successfully validated ${count + r.int(5, 40)} migrations (execution time 00:00.${r.int(10, 99)}s)`,
    );
    for (let i = 0; i < count; i += 1)
      lines.push(
        `Migrating schema "public" to version "${r.int(40, 99)}.${i}" - ${snake(r.pick(NOUNS), r.pick(['add', 'drop', 'backfill']))}`,
      );
    lines.push(
      `Successfully applied ${count} migrations to schema "public", now at version v${r.int(40, 99)}.${count} (execution time 00:0${r.int(1, 9)}.${r.int(100, 999)}s)`,
    );
  } else {
    for (let i = 0; i < count; i += 1)
      lines.push(
        `INFO  [alembic.runtime.migration] Running upgrade ${r.hex(12)} -> ${r.hex(12)}, ${r.pick(['add', 'drop', 'index'])} ${snake(r.pick(NOUNS), r.pick(NOUNS))}`,
      );
  }
  return lines.join('\n');
}
