// Compiles a policy module, with everything it imports, into one self-contained ES module text. The sandboxed
// process cannot run a TypeScript loader (esbuild and tsx's hooks need a child process or a worker, both refused), and
// with the code in one text it needs to read no file at all to load the policy: its folder is granted only for data.
import { readFileSync } from 'node:fs';
import { dirname, extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Loader, type Plugin } from 'esbuild';

export type Bundled =
  | { readonly ok: true; readonly code: string }
  | { readonly ok: false; readonly detail: string }
  /** The module imports a file the sandbox refuses (the bundler would otherwise copy it in, labels and all). */
  | { readonly ok: false; readonly refused: string };

/** Whether a module may import a file (it is read by the bundler, outside the sandbox). */
export type Admit = (path: string) => boolean;

const LOADERS: Readonly<Record<string, Loader>> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.jsx': 'jsx',
};

/**
 * Bundled code runs from a data: URL, where `import.meta.url` would no longer name the file; each file's own
 * location is written in, so `new URL('./weights.json', import.meta.url)` still finds the file beside the module.
 */
const importMetaOfEachFile: Plugin = {
  name: 'import-meta-of-each-file',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta')) return undefined;
      const here = { url: pathToFileURL(args.path).href, filename: args.path, dirname: dirname(args.path) };
      const contents = text.replace(/\bimport\.meta\.(url|filename|dirname)\b/g, (_m, key: keyof typeof here) =>
        JSON.stringify(here[key]),
      );
      return { contents, loader: LOADERS[extname(args.path)] ?? 'js', resolveDir: dirname(args.path) };
    });
  },
};

/** Refuses, before it is read, every file `admit` refuses: a static import of an oracle would be inlined. */
function onlyAdmitted(admit: Admit, refused: string[]): Plugin {
  return {
    name: 'only-admitted-files',
    setup(b) {
      b.onLoad({ filter: /.*/, namespace: 'file' }, (args) => {
        if (admit(args.path)) return undefined;
        refused.push(args.path);
        return { errors: [{ text: 'refused by the sandbox' }] };
      });
    },
  };
}

async function bundle(
  entry: string,
  resolveDir: string,
  format: 'esm' | 'cjs',
  banner = '',
  admit: Admit = () => true,
): Promise<Bundled> {
  const refused: string[] = [];
  try {
    const out = await build({
      stdin: { contents: entry, resolveDir, sourcefile: 'prunelab-sandbox-entry.js', loader: 'js' },
      bundle: true,
      write: false,
      format,
      platform: 'node',
      target: `node${process.versions.node.split('.')[0]}`,
      logLevel: 'silent',
      banner: { js: banner },
      plugins: [onlyAdmitted(admit, refused), importMetaOfEachFile],
    });
    return { ok: true, code: out.outputFiles[0]!.text };
  } catch (err) {
    if (refused[0] !== undefined) return { ok: false, refused: refused[0] };
    const first = (
      err as { errors?: { text: string; location?: { file: string; line: number; column: number } | null }[] }
    ).errors?.[0];
    const where = first?.location ? `${first.location.file}:${first.location.line}:${first.location.column}: ` : '';
    return {
      ok: false,
      detail: first ? `${where}${first.text}` : ((err as Error).message.split('\n')[0] ?? String(err)),
    };
  }
}

/** A sibling module, as the sources (.ts) or as the built package (.js) holds it: whichever this module is. */
const here = (name: string) =>
  fileURLToPath(new URL(`${name}${extname(fileURLToPath(import.meta.url))}`, import.meta.url));

/** The policy module and the child's side of the protocol (child.ts), as one module. */
export function bundlePolicy(file: string, admit: Admit): Promise<Bundled> {
  const entry = `import { serve } from ${JSON.stringify(here('./child'))};\nserve(() => import(${JSON.stringify(file)}));\n`;
  // A CommonJS dependency's require() of a built-in needs a require; one rooted at the module resolves as it would.
  const banner = `import { createRequire as __prunelabCreateRequire } from 'node:module';\nconst require = __prunelabCreateRequire(${JSON.stringify(pathToFileURL(file).href)});`;
  return bundle(entry, dirname(file), 'esm', banner, admit);
}

let relay: Promise<string> | undefined;

/** The relay worker's code (relay.ts), compiled once per process. */
export function relayCode(): Promise<string> {
  relay ??= bundle(`require(${JSON.stringify(here('./relay'))});`, dirname(here('./relay')), 'cjs').then((b) => {
    if (!b.ok) throw new Error(`internal: the sandbox relay does not compile: ${JSON.stringify(b)}`);
    return b.code;
  });
  return relay;
}
