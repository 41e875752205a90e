import { safeProgram } from "./safe-programs.js";
import { type ShellToken, tokenizeShell, type WordToken } from "./shell-tokenizer.js";

/**
 * True only when `command` (a script for `bash -c`) is certainly read-only: every simple
 * command in it calls a program from the known-safe list with acceptable arguments, joined only
 * by `&&`, `||`, `;`, `|` or newlines. Decided on tokens, never on string prefixes; anything the
 * tokenizer cannot model exactly (expansions, substitutions, unterminated quotes) is false, as
 * are subshells, groups, background jobs, assignments, paths in command position and every
 * redirection except output thrown away: `>/dev/null`, `2>/dev/null`, `&>/dev/null` and the
 * duplications `2>&1` / `>&2` (they write nothing, and `find … 2>/dev/null` is common).
 *
 * The whole command may also be exactly `bash -c SCRIPT` / `bash -lc SCRIPT` (or `sh`), in
 * which case SCRIPT is classified instead — one level only, as Codex does.
 *
 * The answer assumes the child environment built by `buildChildEnv` (no `BASH_ENV`, no exported
 * functions, no relative `PATH` entries); a hostile PATH could still shadow `ls`.
 */
export function isKnownReadOnly(command: string): boolean {
  const tokens = tokenizeShell(command);
  if (!tokens) return false;
  const inner = shellWrapperScript(tokens);
  if (inner !== undefined) {
    const innerTokens = tokenizeShell(inner);
    return innerTokens !== undefined && isReadOnlyScript(innerTokens);
  }
  return isReadOnlyScript(tokens);
}

const SEPARATORS = new Set(["&&", "||", ";", "|", "\n"]);
const SHELLS = new Set(["bash", "sh"]);

/** The script of `bash -c SCRIPT` / `bash -lc SCRIPT` when that is the whole command. */
function shellWrapperScript(tokens: ShellToken[]): string | undefined {
  const meaningful = trimNewlines(tokens);
  if (meaningful.length !== 3) return undefined;
  const [shell, flag, script] = meaningful;
  if (shell?.type !== "word" || flag?.type !== "word" || script?.type !== "word") return undefined;
  if (shell.patternAt >= 0 || flag.patternAt >= 0 || script.patternAt >= 0) return undefined;
  if (!SHELLS.has(shell.value) || (flag.value !== "-c" && flag.value !== "-lc")) return undefined;
  return script.value;
}

/** Leading and trailing newlines only: `bash\n-c\nls` is three commands, not a wrapper. */
function trimNewlines(tokens: ShellToken[]): ShellToken[] {
  const isNewline = (token: ShellToken | undefined) => token?.type === "op" && token.op === "\n";
  let start = 0;
  let end = tokens.length;
  while (start < end && isNewline(tokens[start])) start += 1;
  while (end > start && isNewline(tokens[end - 1])) end -= 1;
  return tokens.slice(start, end);
}

function isReadOnlyScript(tokens: ShellToken[]): boolean {
  let command: ShellToken[] = [];
  let commands = 0;
  let previousSeparator = "\n";
  for (const token of tokens) {
    if (token.type !== "op" || !SEPARATORS.has(token.op)) {
      command.push(token);
      continue;
    }
    if (command.length === 0) {
      // Blank lines are fine, and bash skips newlines after `&&`, `||` and `|` (so
      // `ls &&\ncat` is one list); `; ls` or `ls && && ls` are syntax errors.
      if (token.op !== "\n") return false;
      continue;
    }
    if (!isReadOnlySimpleCommand(command)) return false;
    commands += 1;
    command = [];
    previousSeparator = token.op;
  }
  if (command.length > 0) return isReadOnlySimpleCommand(command);
  // A dangling `&&`, `||` or `|` is a syntax error (bash would wait for more input).
  return commands > 0 && (previousSeparator === "\n" || previousSeparator === ";");
}

function isReadOnlySimpleCommand(tokens: ShellToken[]): boolean {
  const words: WordToken[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    if (token.type === "word") {
      words.push(token);
      continue;
    }
    const target = tokens[i + 1];
    if (target?.type !== "word" || !isDiscardingRedirect(token.op, token.fd, target)) return false;
    i += 1;
  }
  const [name, ...args] = words;
  if (!name || name.patternAt >= 0 || name.value.includes("/")) return false;
  const check = safeProgram(name.value);
  return check?.(args) === true;
}

/** `>/dev/null`, `2>>/dev/null`, `&>/dev/null`, `2>&1`, `>&2`: writes nothing anywhere. */
function isDiscardingRedirect(op: string, fd: number | undefined, target: WordToken): boolean {
  if (target.patternAt >= 0) return false;
  if (fd !== undefined && fd > 9) return false;
  if (op === ">" || op === ">>" || op === "&>" || op === "&>>") {
    return target.value === "/dev/null" && (op.startsWith("&") ? fd === undefined : true);
  }
  if (op === ">&") return !target.quoted && (target.value === "1" || target.value === "2");
  return false;
}
