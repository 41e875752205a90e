/** Code block highlighting: plain lines until emphasize has loaded, coloured after. */
export interface CodeHighlighter {
  lines(code: string, lang: string | undefined): string[];
}

/** The part of emphasize used here (its own types pull in the DOM's, which this project leaves out). */
interface Emphasize {
  registered(language: string): boolean;
  highlight(language: string, code: string): { value: string };
}
interface EmphasizeModule {
  createEmphasize(grammars: unknown): Emphasize;
  common: unknown;
}

/**
 * emphasize (highlight.js grammars through lowlight) costs tens of milliseconds to load, so it
 * is loaded when the first code block is shown, not when the chat starts; `onReady` repaints
 * the blocks shown meanwhile.
 */
export function createCodeHighlighter(onReady: () => void): CodeHighlighter {
  let emphasize: Emphasize | undefined;
  let loading = false;
  const load = () => {
    loading = true;
    // `as string`: TypeScript does not read the package's types; esbuild still sees the name.
    import("emphasize" as string)
      .then((module: EmphasizeModule) => {
        emphasize = module.createEmphasize(module.common);
        onReady();
      })
      .catch(() => {});
  };
  return {
    lines(code, lang) {
      if (!emphasize) {
        if (!loading) load();
        return code.split("\n");
      }
      try {
        // A block without a known language stays plain: guessing one colours prose as code.
        if (!lang || !emphasize.registered(lang)) return code.split("\n");
        return emphasize.highlight(lang, code).value.split("\n");
      } catch {
        return code.split("\n");
      }
    },
  };
}
