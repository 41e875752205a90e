/** Code block highlighting: plain lines until emphasize has loaded, coloured after. */
export interface CodeHighlighter {
  lines(code: string, lang: string | undefined): string[];
}

type Emphasize = ReturnType<typeof import("emphasize")["createEmphasize"]>;

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
    import("emphasize")
      .then((module) => {
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
