import type { WordToken } from "./shell-tokenizer.js";

/**
 * The programs a command may call and still count as known read-only, with a check of their
 * arguments. The list follows Codex's `is_known_safe_command` (Linux variant). Deliberate
 * omissions: `git` (repository config can run programs: fsmonitor, pager, diff drivers),
 * `sort` (`-o` writes), `base64`, `awk`, `less`, `man`, `xargs`, `env` and every other wrapper.
 *
 * Arguments are checked after quote removal. A word that bash may still expand (an unquoted glob
 * or brace) is trusted only where the program has no dangerous option, or when the word starts
 * with a literal character other than `-`, so that no file name in the directory can turn it
 * into an option (a file called `-delete` and `find *`, or `-i.txt` and `sed -n 1p *.txt`).
 */
type ArgCheck = (args: WordToken[]) => boolean;

/** None of these programs writes files or starts other programs, whatever their arguments. */
const anyArgs: ArgCheck = () => true;

const PROGRAMS: ReadonlyMap<string, ArgCheck> = new Map<string, ArgCheck>([
  ["cat", anyArgs],
  ["cd", anyArgs],
  ["cut", anyArgs],
  ["echo", anyArgs],
  ["expr", anyArgs],
  ["false", anyArgs],
  ["grep", anyArgs],
  ["head", anyArgs],
  ["id", anyArgs],
  ["ls", anyArgs],
  ["nl", anyArgs],
  ["numfmt", anyArgs],
  ["paste", anyArgs],
  ["pwd", anyArgs],
  ["rev", anyArgs],
  ["seq", anyArgs],
  ["stat", anyArgs],
  ["tac", anyArgs],
  ["tail", anyArgs],
  ["tr", anyArgs],
  ["true", anyArgs],
  ["uname", anyArgs],
  ["wc", anyArgs],
  ["which", anyArgs],
  ["whoami", anyArgs],
  ["uniq", uniqArgs],
  ["find", findArgs],
  ["rg", ripgrepArgs],
  ["sed", sedArgs],
]);

/** The argument check for a program name, or undefined when the program is not known safe. */
export function safeProgram(name: string): ArgCheck | undefined {
  return PROGRAMS.get(name);
}

/** True when bash passes the word to the program unchanged, or can only expand it to non-options. */
function cannotBecomeOption(word: WordToken): boolean {
  return word.patternAt < 0 || (word.patternAt > 0 && !word.value.startsWith("-"));
}

/** `uniq [OPTION]... [INPUT [OUTPUT]]` writes OUTPUT: allow options first, then one input at most. */
function uniqArgs(args: WordToken[]): boolean {
  let operands = 0;
  let endOfOptions = false;
  for (const arg of args) {
    if (arg.patternAt >= 0) return false;
    if (!endOfOptions && arg.value === "--") {
      endOfOptions = true;
    } else if (!endOfOptions && arg.value.startsWith("-") && arg.value !== "-") {
      // An option after an operand is an operand under POSIXLY_CORRECT: count nothing, refuse.
      if (operands > 0) return false;
    } else {
      operands += 1;
    }
  }
  return operands <= 1;
}

/** Actions that run programs, delete files or write files. Matched as prefixes to be safe. */
const FIND_UNSAFE_PREFIXES = ["-exec", "-ok", "-delete", "-fls", "-fprint"];

function findArgs(args: WordToken[]): boolean {
  return args.every(
    (arg) => cannotBecomeOption(arg) && !FIND_UNSAFE_PREFIXES.some((prefix) => arg.value.startsWith(prefix)),
  );
}

/** `--pre` runs a preprocessor, `--hostname-bin` a program, `-z` decompressors found on PATH. */
const RG_UNSAFE_LONG = ["pre", "pre-glob", "hostname-bin", "search-zip"];

function ripgrepArgs(args: WordToken[]): boolean {
  return args.every((arg) => {
    if (!cannotBecomeOption(arg)) return false;
    const value = arg.value;
    if (value.startsWith("--")) {
      const name = value.slice(2).split("=", 1)[0]!;
      // Also refuse abbreviations, in case a parser version ever accepts them.
      return name.length === 0 || !RG_UNSAFE_LONG.some((unsafe) => unsafe.startsWith(name));
    }
    // A short cluster such as `-iz` contains -z. Refusing every cluster with a `z` (even a
    // value, as in `-ezebra`) only costs a prompt.
    if (value.startsWith("-")) return !value.includes("z");
    return true;
  });
}

/** Only `sed -n N p` / `sed -n N,M p` with file operands: no `-i`, no `e`/`w` commands. */
function sedArgs(args: WordToken[]): boolean {
  const [flag, script, ...files] = args;
  if (flag?.value !== "-n" || flag.patternAt >= 0) return false;
  if (!script || script.patternAt >= 0 || !/^[0-9]+(,[0-9]+)?p$/.test(script.value)) return false;
  return files.every((file) => cannotBecomeOption(file) && !file.value.startsWith("-"));
}
