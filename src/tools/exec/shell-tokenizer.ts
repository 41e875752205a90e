/**
 * A deliberately small POSIX/bash tokenizer for the *literal* subset of shell: words built from
 * plain characters, single quotes, double quotes and backslash escapes, separated by blanks and
 * operators. It exists for the read-only classifier, so it answers `undefined` ("cannot say")
 * for anything whose meaning it does not model exactly: any `$` expansion, backticks, ANSI-C
 * `$'…'` and locale `$"…"` strings, unterminated quotes, a trailing backslash, control
 * characters. Callers must treat `undefined` as "not known to be safe".
 *
 * What it does model, because bash does it while parsing: operators (longest match), newlines
 * as separators, `\<newline>` line continuations, `#` comments at the start of a token, and
 * io-numbers (`2>` — digits glued to a redirection operator).
 */

export interface WordToken {
  type: "word";
  /** The text after quote removal. Glob and brace characters are kept as written. */
  value: string;
  /**
   * Index in `value` of the first unquoted `*`, `?`, `[`, `{` or `}` (a character that bash may
   * expand into other or more words), or -1 when bash passes `value` through unchanged
   * (apart from a leading `~`, which expands to a directory, never to an option).
   */
  patternAt: number;
  /** True when any part of the word was quoted or escaped. */
  quoted: boolean;
}

export interface OperatorToken {
  type: "op";
  op: string;
  /** Digits glued to a redirection operator (`2>`): the file descriptor it applies to. */
  fd?: number;
}

export type ShellToken = WordToken | OperatorToken;

/** Longest first, so that the first prefix match is the longest operator. */
const OPERATORS = [
  "&>>",
  ";;&",
  "<<<",
  "<<-",
  "&&",
  "||",
  "|&",
  ";;",
  ";&",
  "&>",
  "<<",
  ">>",
  "<&",
  ">&",
  "<>",
  ">|",
  "|",
  "&",
  ";",
  "<",
  ">",
  "(",
  ")",
];
const OPERATOR_START = new Set(["|", "&", ";", "<", ">", "(", ")"]);
const PATTERN_CHARS = new Set(["*", "?", "[", "{", "}"]);
const BLANK = new Set([" ", "\t"]);
/** After `$`, these make it a literal dollar sign rather than the start of an expansion. */
const LITERAL_DOLLAR_NEXT = new Set([undefined, " ", "\t", "\n", ";", "&", "|", "<", ">", ")"]);

/** Returns the tokens, or `undefined` when the input leaves the modelled literal subset. */
export function tokenizeShell(input: string): ShellToken[] | undefined {
  // Control characters other than tab and newline have surprising meanings (NUL truncates).
  // biome-ignore lint/suspicious/noControlCharactersInRegex: that is exactly what is matched
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(input)) return undefined;
  const tokens: ShellToken[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (BLANK.has(c)) {
      i += 1;
    } else if (c === "\\" && input[i + 1] === "\n") {
      i += 2;
    } else if (c === "\n") {
      tokens.push({ type: "op", op: "\n" });
      i += 1;
    } else if (c === "#") {
      while (i < input.length && input[i] !== "\n") i += 1;
    } else if (OPERATOR_START.has(c)) {
      const op = OPERATORS.find((candidate) => input.startsWith(candidate, i))!;
      tokens.push({ type: "op", op });
      i += op.length;
    } else {
      const word = readWord(input, i);
      if (!word) return undefined;
      i = word.end;
      const next = input[i];
      // bash's `{name}>file` opens a descriptor and assigns it to a variable: not modelled.
      if ((next === "<" || next === ">") && !word.token.quoted && /^\{\w+\}$/.test(word.token.value)) {
        return undefined;
      }
      const isIoNumber =
        (next === "<" || next === ">") && !word.token.quoted && /^[0-9]+$/.test(word.token.value);
      if (isIoNumber) {
        const op = OPERATORS.find((candidate) => input.startsWith(candidate, i))!;
        tokens.push({ type: "op", op, fd: Number(word.token.value) });
        i += op.length;
      } else {
        tokens.push(word.token);
      }
    }
  }
  return tokens;
}

function readWord(input: string, start: number): { token: WordToken; end: number } | undefined {
  let value = "";
  let patternAt = -1;
  let quoted = false;
  let i = start;
  while (i < input.length) {
    const c = input[i]!;
    if (BLANK.has(c) || c === "\n" || OPERATOR_START.has(c)) break;
    if (c === "`") return undefined;
    if (c === "$") {
      if (!LITERAL_DOLLAR_NEXT.has(input[i + 1])) return undefined;
      value += c;
      i += 1;
    } else if (c === "\\") {
      const next = input[i + 1];
      if (next === undefined) return undefined;
      i += 2;
      if (next === "\n") continue;
      value += next;
      quoted = true;
    } else if (c === "'") {
      const close = input.indexOf("'", i + 1);
      if (close < 0) return undefined;
      value += input.slice(i + 1, close);
      quoted = true;
      i = close + 1;
    } else if (c === '"') {
      const part = readDoubleQuoted(input, i + 1);
      if (!part) return undefined;
      value += part.value;
      quoted = true;
      i = part.end;
    } else {
      if (PATTERN_CHARS.has(c) && patternAt < 0) patternAt = value.length;
      value += c;
      i += 1;
    }
  }
  return { token: { type: "word", value, patternAt, quoted }, end: i };
}

/** Reads from just after an opening `"`; `end` is just after the closing one. */
function readDoubleQuoted(input: string, start: number): { value: string; end: number } | undefined {
  let value = "";
  let i = start;
  while (i < input.length) {
    const c = input[i]!;
    if (c === '"') return { value, end: i + 1 };
    if (c === "`") return undefined;
    if (c === "$") {
      const next = input[i + 1];
      if (next !== '"' && !LITERAL_DOLLAR_NEXT.has(next)) return undefined;
      value += c;
      i += 1;
    } else if (c === "\\") {
      const next = input[i + 1];
      if (next === undefined) return undefined;
      if (next === "\n") {
        i += 2;
      } else if (next === "$" || next === "`" || next === '"' || next === "\\") {
        value += next;
        i += 2;
      } else {
        value += c;
        i += 1;
      }
    } else {
      value += c;
      i += 1;
    }
  }
  return undefined;
}
