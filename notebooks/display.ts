// What a notebook cell calls to show a rendered chart. It lives beside the notebooks, not in src/, because only
// src/cli/bin.ts writes to the process's streams there. Under the headless runner (scripts/notebooks.ts) it prints a
// marked line that the runner turns into an nbformat display_data output; in Deno's Jupyter kernel it hands the SVG
// to the kernel, which sends the same display_data itself. Either way the SVG appears when the notebook is opened.
export const DISPLAY_MARK = '\u001eprunelab-display\u001e';

/** Deno's kernel API, present only when the cell runs in `deno jupyter`. */
interface DenoJupyter {
  display(bundle: Record<string, string>, options: { raw: boolean }): Promise<void>;
}

export async function displaySvg(svg: string): Promise<void> {
  const jupyter = (globalThis as { Deno?: { jupyter?: DenoJupyter } }).Deno?.jupyter;
  if (jupyter) await jupyter.display({ 'image/svg+xml': svg, 'text/plain': '<chart>' }, { raw: true });
  else process.stdout.write(`${DISPLAY_MARK}${Buffer.from(svg, 'utf8').toString('base64')}\n`);
}
