// Source files as read_file or git show prints them, in TypeScript, Python, Go, Java and Rust, grown function by
// function until they reach the size asked for.
import type { Rng } from '../rng.js';
import { camel, charsFor, fnName, pascal, snake, typeName, NOUNS, VERBS } from './vocab.js';

export const LANGUAGES = ['ts', 'py', 'go', 'java', 'rs'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface SourceFile {
  readonly path: string;
  readonly language: Language;
  readonly content: string;
  /** A function name defined in the file (for obligations that quote a signature). */
  readonly symbol: string;
}

const EXT: Record<Language, string> = { ts: 'ts', py: 'py', go: 'go', java: 'java', rs: 'rs' };

export function sourcePath(r: Rng, language: Language, domain: string): string {
  const noun = r.pick(NOUNS);
  switch (language) {
    case 'ts':
      return `packages/${domain}/src/${noun}/${camel(r.pick(VERBS), noun)}.${EXT[language]}`;
    case 'py':
      return `${domain.replace(/-/g, '_')}/${noun}/${snake(r.pick(VERBS), noun)}.py`;
    case 'go':
      return `internal/${domain}/${noun}/${snake(noun, r.pick(VERBS))}.go`;
    case 'java':
      return `src/main/java/com/acme/${domain}/${noun}/${pascal(noun, r.pick(['Service', 'Repository', 'Handler', 'Mapper']))}.java`;
    case 'rs':
      return `crates/${domain}/src/${snake(noun, r.pick(VERBS))}.rs`;
  }
}

function tsFunction(r: Rng, name: string): string {
  const t = typeName(r);
  const arg = camel(r.pick(NOUNS));
  const limit = r.int(2, 500);
  return [
    `export async function ${name}(${arg}: ${t}, opts: { timeoutMs?: number } = {}): Promise<${t} | undefined> {`,
    `  const timeoutMs = opts.timeoutMs ?? ${r.int(1, 60) * 500};`,
    `  if (!${arg}.id) throw new Error('${name}: missing id');`,
    `  const rows = await db.query<${t}>('SELECT * FROM ${snake(r.pick(NOUNS), 's')} WHERE id = $1 LIMIT ${limit}', [${arg}.id], { timeoutMs });`,
    `  for (const row of rows) {`,
    `    if (row.${camel(r.pick(NOUNS), 'At')} && row.${camel(r.pick(NOUNS), 'At')} < Date.now()) continue;`,
    `    return row;`,
    `  }`,
    `  return undefined;`,
    `}`,
  ].join('\n');
}

function pyFunction(r: Rng, name: string): string {
  const arg = snake(r.pick(NOUNS));
  return [
    `def ${name}(${arg}: "${typeName(r)}", *, retries: int = ${r.int(1, 6)}) -> dict:`,
    `    """${pascal(r.pick(VERBS))} the ${r.pick(NOUNS)} for ${arg}; raises ${pascal(r.pick(NOUNS))}Error after {retries} tries."""`,
    `    for attempt in range(retries):`,
    `        try:`,
    `            result = client.${snake(r.pick(VERBS), r.pick(NOUNS))}(${arg}.id, timeout=${r.int(1, 30)})`,
    `        except TimeoutError:`,
    `            log.warning("attempt %d of %d timed out for %s", attempt + 1, retries, ${arg}.id)`,
    `            continue`,
    `        return {"id": ${arg}.id, "${snake(r.pick(NOUNS))}": result.${snake(r.pick(NOUNS))}}`,
    `    raise ${pascal(r.pick(NOUNS))}Error(${arg}.id)`,
  ].join('\n');
}

function goFunction(r: Rng, name: string): string {
  const t = typeName(r);
  return [
    `// ${pascal(name)} ${r.pick(VERBS)}s a ${r.pick(NOUNS)} and reports whether it changed.`,
    `func (s *Store) ${pascal(name)}(ctx context.Context, id string) (*${t}, error) {`,
    `\tctx, cancel := context.WithTimeout(ctx, ${r.int(1, 30)}*time.Second)`,
    `\tdefer cancel()`,
    `\trow := s.db.QueryRowContext(ctx, "SELECT id, ${snake(r.pick(NOUNS))} FROM ${snake(r.pick(NOUNS), 's')} WHERE id = $1", id)`,
    `\tvar out ${t}`,
    `\tif err := row.Scan(&out.ID, &out.${pascal(r.pick(NOUNS))}); err != nil {`,
    `\t\treturn nil, fmt.Errorf("${name} %s: %w", id, err)`,
    `\t}`,
    `\treturn &out, nil`,
    `}`,
  ].join('\n');
}

function javaMethod(r: Rng, name: string): string {
  const t = typeName(r);
  return [
    `    public Optional<${t}> ${name}(String id, int limit) {`,
    `        if (limit <= 0 || limit > ${r.int(10, 1000)}) {`,
    `            throw new IllegalArgumentException("limit out of range: " + limit);`,
    `        }`,
    `        List<${t}> rows = jdbc.query("SELECT * FROM ${snake(r.pick(NOUNS), 's')} WHERE id = ? LIMIT ?", mapper, id, limit);`,
    `        log.debug("${name} id={} rows={}", id, rows.size());`,
    `        return rows.stream().filter(r -> r.${camel('is', r.pick(['active', 'current', 'settled']))}()).findFirst();`,
    `    }`,
  ].join('\n');
}

function rustFunction(r: Rng, name: string): string {
  const t = typeName(r);
  return [
    `/// ${pascal(r.pick(VERBS))} a ${r.pick(NOUNS)}; returns \`None\` when nothing matched.`,
    `pub fn ${name}(pool: &PgPool, id: Uuid) -> Result<Option<${t}>, StoreError> {`,
    `    let row = sqlx::query_as::<_, ${t}>("SELECT * FROM ${snake(r.pick(NOUNS), 's')} WHERE id = $1")`,
    `        .bind(id)`,
    `        .fetch_optional(pool)`,
    `        .await?;`,
    `    Ok(row.filter(|r| r.${snake(r.pick(NOUNS))}_count < ${r.int(1, 64)}))`,
    `}`,
  ].join('\n');
}

const HEADERS: Record<Language, (r: Rng) => string> = {
  ts: (r) => `import { db } from '../db.js';\nimport type { ${typeName(r)} } from '../types.js';\n`,
  py: () =>
    `from __future__ import annotations\n\nimport logging\n\nfrom .client import client\n\nlog = logging.getLogger(__name__)\n`,
  go: (r) => `package ${r.pick(NOUNS)}\n\nimport (\n\t"context"\n\t"fmt"\n\t"time"\n)\n`,
  java: (r) => {
    const cls = pascal(r.pick(NOUNS), 'Service');
    return `package com.acme.${r.pick(NOUNS)};\n\nimport java.util.List;\nimport java.util.Optional;\n\n@Service\npublic class ${cls} {\n    private static final Logger log = LoggerFactory.getLogger(${cls}.class);\n`;
  },
  rs: () => `use sqlx::PgPool;\nuse uuid::Uuid;\n\nuse crate::error::StoreError;\n`,
};

const BODIES: Record<Language, (r: Rng, name: string) => string> = {
  ts: tsFunction,
  py: pyFunction,
  go: goFunction,
  java: javaMethod,
  rs: rustFunction,
};

/** The name as the language spells it: snake_case in Python and Rust, camelCase elsewhere. */
function spelled(language: Language, name: string): string {
  return language === 'py' || language === 'rs' ? snake(...name.split(/(?=[A-Z])/).map((w) => w.toLowerCase())) : name;
}

/** A file of about `tokens` tokens; `lineNumbers` renders it the way read_file with line numbers does. */
export function sourceFile(r: Rng, language: Language, path: string, tokens: number): SourceFile {
  const target = charsFor(tokens);
  const parts = [HEADERS[language](r)];
  let size = parts[0]!.length;
  let symbol = '';
  const seen = new Set<string>();
  while (size < target) {
    let name = spelled(language, fnName(r));
    while (seen.has(name)) name = `${name}${r.int(2, 9)}`;
    seen.add(name);
    if (!symbol) symbol = name;
    const body = BODIES[language](r, name);
    parts.push(body);
    size += body.length + 2;
  }
  if (language === 'java') parts.push('}');
  return { path, language, content: `${parts.join('\n\n')}\n`, symbol };
}

export function withLineNumbers(content: string): string {
  return content
    .split('\n')
    .map((line, i) => `${String(i + 1).padStart(6, ' ')}\t${line}`)
    .join('\n');
}
