// Compiler diagnostics as tsc, javac and gcc print them, with the structured fields a runtime records on the error.
import type { Rng } from '../rng.js';
import { camel, NOUNS, pascal, typeName, VERBS } from './vocab.js';

export const COMPILERS = ['tsc', 'javac', 'gcc'] as const;
export type Compiler = (typeof COMPILERS)[number];

export interface CompileFailure {
  readonly content: string;
  readonly command: string;
  readonly errorType: string;
  readonly message: string;
  readonly fields: Record<string, string>;
  /** The first diagnostic's location, `file:line:col`. */
  readonly location: string;
}

interface Diagnostic { file: string; line: number; col: number; code: string; text: string }

function diagnostic(r: Rng, compiler: Compiler, domain: string): Diagnostic {
  const noun = r.pick(NOUNS);
  const line = r.int(3, 900);
  const col = r.int(1, 60);
  switch (compiler) {
    case 'tsc': {
      const t = typeName(r);
      const d = r.pick([
        { code: 'TS2322', text: `Type 'string | undefined' is not assignable to type 'string'.` },
        { code: 'TS2339', text: `Property '${camel(r.pick(NOUNS), 'Id')}' does not exist on type '${t}'.` },
        { code: 'TS2345', text: `Argument of type 'number' is not assignable to parameter of type '${t}'.` },
        { code: 'TS7006', text: `Parameter '${r.pick(NOUNS)}' implicitly has an 'any' type.` },
      ]);
      return { file: `packages/${domain}/src/${noun}/${camel(r.pick(VERBS), noun)}.ts`, line, col, ...d };
    }
    case 'javac':
      return {
        file: `src/main/java/com/acme/${domain}/${pascal(noun)}Service.java`, line, col,
        code: 'compiler.err', text: r.pick([`cannot find symbol\n  symbol:   method ${camel(r.pick(VERBS), noun)}(String)\n  location: class ${pascal(noun)}Repository`, `incompatible types: possible lossy conversion from long to int`, `unreported exception IOException; must be caught or declared to be thrown`]),
      };
    case 'gcc':
      return {
        file: `src/${noun}_${r.pick(VERBS)}.c`, line, col,
        code: 'error', text: r.pick([`'${noun}_count' undeclared (first use in this function)`, `implicit declaration of function '${noun}_${r.pick(VERBS)}' [-Wimplicit-function-declaration]`, `incompatible pointer type passing 'char *' to parameter of type 'const uint8_t *'`]),
      };
  }
}

export function compileFailure(r: Rng, compiler: Compiler, domain: string, count: number): CompileFailure {
  const diags = Array.from({ length: Math.max(1, count) }, () => diagnostic(r, compiler, domain));
  const first = diags[0]!;
  const location = `${first.file}:${first.line}:${first.col}`;
  switch (compiler) {
    case 'tsc': {
      const lines = diags.map((d) => `${d.file}(${d.line},${d.col}): error ${d.code}: ${d.text}`);
      lines.push('', `Found ${diags.length} error${diags.length === 1 ? '' : 's'} in ${new Set(diags.map((d) => d.file)).size} file${new Set(diags.map((d) => d.file)).size === 1 ? '' : 's'}.`);
      return { content: lines.join('\n'), command: 'npx tsc --noEmit -p tsconfig.json', errorType: 'NonZeroExit', message: `tsc: ${first.code} at ${location}`, fields: { exitCode: '2', errors: String(diags.length), code: first.code, line: String(first.line) }, location };
    }
    case 'javac': {
      const lines = diags.flatMap((d) => [`${d.file}:${d.line}: error: ${d.text}`, `        ${camel(r.pick(VERBS), r.pick(NOUNS))}(request.getId());`, `        ${' '.repeat(d.col % 30)}^`]);
      lines.push(`${diags.length} error${diags.length === 1 ? '' : 's'}`, '', 'FAILURE: Build failed with an exception.', '', `* What went wrong:\nExecution failed for task ':${domain}:compileJava'.\n> Compilation failed; see the compiler error output for details.`, '', `BUILD FAILED in ${r.int(2, 59)}s`);
      return { content: lines.join('\n'), command: `./gradlew :${domain}:compileJava`, errorType: 'BuildFailed', message: `javac: ${first.text.split('\n')[0]} at ${first.file}:${first.line}`, fields: { exitCode: '1', errors: String(diags.length), line: String(first.line) }, location };
    }
    case 'gcc': {
      const lines = diags.flatMap((d) => [`${d.file}: In function '${r.pick(NOUNS)}_${r.pick(VERBS)}':`, `${d.file}:${d.line}:${d.col}: ${d.code}: ${d.text}`, `  ${String(d.line).padStart(4)} |     ${r.pick(NOUNS)}_count += len;`, `       |     ^~~~~~~~~~~`]);
      lines.push(`make[1]: *** [Makefile:${r.int(20, 200)}: ${first.file.replace(/\.c$/, '.o')}] Error 1`, 'make: *** [Makefile:34: all] Error 2');
      return { content: lines.join('\n'), command: 'make -j2', errorType: 'NonZeroExit', message: `gcc: ${first.text} at ${location}`, fields: { exitCode: '2', line: String(first.line) }, location };
    }
  }
}
