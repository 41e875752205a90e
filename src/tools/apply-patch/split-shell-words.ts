/**
 * Splits a one-command shell line into its words, resolving quotes and backslashes the way
 * bash would. Returns undefined for anything whose meaning depends on the shell at run time
 * (expansions, globs, pipes, redirections, several commands), so a caller acting on the words
 * never acts on something bash would have read differently.
 */
export function splitShellWords(command: string): string[] | undefined {
  const text = command.trim();
  const words: string[] = [];
  let word: string | undefined;
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    if (char === " " || char === "\t") {
      if (word !== undefined) words.push(word);
      word = undefined;
      i += 1;
    } else if (char === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return undefined;
      word = (word ?? "") + text.slice(i + 1, end);
      i = end + 1;
    } else if (char === '"') {
      const quoted = readDoubleQuoted(text, i + 1);
      if (!quoted) return undefined;
      word = (word ?? "") + quoted.value;
      i = quoted.end + 1;
    } else if (char === "\\") {
      const next = text[i + 1];
      if (next === undefined) return undefined;
      // Backslash-newline continues the line.
      if (next !== "\n") word = (word ?? "") + next;
      i += 2;
    } else if (/[\n;&|<>()`$*?[{~#]/.test(char)) {
      return undefined;
    } else {
      word = (word ?? "") + char;
      i += 1;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Reads a double-quoted string body from `start`; undefined if it expands anything or never ends. */
function readDoubleQuoted(text: string, start: number): { value: string; end: number } | undefined {
  let value = "";
  for (let i = start; i < text.length; i++) {
    const char = text[i] as string;
    if (char === '"') return { value, end: i };
    if (char === "$" || char === "`") return undefined;
    if (char === "\\" && i + 1 < text.length) {
      const next = text[i + 1] as string;
      if ('$`"\\'.includes(next)) value += next;
      else if (next !== "\n") value += `\\${next}`;
      i += 1;
    } else {
      value += char;
    }
  }
  return undefined;
}
