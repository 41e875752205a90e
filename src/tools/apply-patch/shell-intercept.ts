import { parsePatch } from "./parse-patch.js";
import { splitShellWords } from "./split-shell-words.js";

/**
 * Recognises `apply_patch` calls that models send through a shell tool, so the patch can be
 * applied natively instead of running a command that does not exist here (codex-rs/apply-patch
 * `invocation.rs`). Like Codex this is conservative: the heredoc must be the whole script,
 * optionally after `cd <dir> &&`; anything before or after it means "just run the command".
 */

export interface ShellPatch {
  /** The patch text (the heredoc body or the argument); not yet validated. */
  patch: string;
  /** The directory of a `cd <dir> &&` prefix, as written (resolve it against the command's cwd). */
  workdir?: string;
}

/** Codex's reply when a bare patch is sent as a command, without `apply_patch`. */
export const IMPLICIT_INVOCATION_MESSAGE =
  'patch detected without explicit call to apply_patch. Rerun as ["apply_patch", "<patch>"]';

const APPLY_PATCH_COMMANDS = ["apply_patch", "applypatch"];

// `[cd <dir> &&] apply_patch <<[-]DELIM` up to the end of its line; the body follows.
const HEREDOC_HEAD = new RegExp(
  [
    /^\s*(?:cd[ \t]+(?<cd>[^\s'"&|;<>()`$\\]+|"[^"\\$`\n]*"|'[^'\n]*')[ \t]*&&\s*)?/.source,
    /(?:apply_patch|applypatch)[ \t]*<<(?<dash>-?)[ \t]*/.source,
    /(?<delimiter>'[^'\n]+'|"[^"\n]+"|[A-Za-z0-9_.-]+)[ \t]*\r?\n/.source,
  ].join(""),
);

/**
 * The patch in a shell command string: `apply_patch <<'EOF' … EOF` (any delimiter, quoted or
 * not, `applypatch` too), optionally after `cd <dir> &&`, or wrapped in `bash -lc '…'`.
 * As an extension over Codex, `apply_patch '<patch>'` with a quoted argument is accepted too.
 * Returns undefined when the command is anything else.
 */
export function extractShellPatch(command: string): ShellPatch | undefined {
  const heredoc = extractHeredoc(command);
  if (heredoc) return heredoc;
  const words = splitShellWords(command);
  return words ? extractArgvPatch(words) : undefined;
}

/**
 * The patch in an argv-style command (Codex `maybe_parse_apply_patch`): `["apply_patch", patch]`,
 * or a shell (`bash|zsh|sh -c|-lc`, `pwsh|powershell [-NoProfile] -Command`, `cmd /c`) whose
 * script is an `apply_patch` heredoc.
 */
export function extractArgvPatch(argv: readonly string[]): ShellPatch | undefined {
  const [command, body] = argv;
  if (
    argv.length === 2 &&
    command !== undefined &&
    body !== undefined &&
    APPLY_PATCH_COMMANDS.includes(command)
  ) {
    return { patch: body };
  }
  const script = shellScript(argv);
  return script === undefined ? undefined : extractHeredoc(script);
}

/** True when the command (or the script of a shell wrapper) is itself a patch, with no `apply_patch`. */
export function isImplicitPatch(command: string): boolean {
  const words = splitShellWords(command);
  const script = words ? shellScript(words) : undefined;
  return [command, script].some((text) => text !== undefined && parses(text));
}

function parses(text: string): boolean {
  try {
    parsePatch(text);
    return true;
  } catch {
    return false;
  }
}

function extractHeredoc(script: string): ShellPatch | undefined {
  const head = HEREDOC_HEAD.exec(script);
  const groups = head?.groups;
  if (!head || !groups?.delimiter) return undefined;
  const delimiter = unquote(groups.delimiter);
  const stripTabs = groups.dash === "-";
  const lines = script.slice(head[0].length).split("\n");
  const end = lines.findIndex((line) => heredocLine(line, stripTabs).trimEnd() === delimiter);
  // Without its terminator, or with commands after it, this is not the form Codex intercepts.
  if (end < 0 || lines.slice(end + 1).some((line) => line.trim() !== "")) return undefined;
  const body = lines
    .slice(0, end)
    .map((line) => heredocLine(line, stripTabs))
    .join("\n")
    .replace(/\n+$/, "");
  const shellPatch: ShellPatch = { patch: body };
  if (groups.cd !== undefined) shellPatch.workdir = unquote(groups.cd);
  return shellPatch;
}

function heredocLine(line: string, stripTabs: boolean): string {
  return stripTabs ? line.replace(/^\t+/, "") : line;
}

function unquote(word: string): string {
  const quote = word[0];
  return (quote === "'" || quote === '"') && word.endsWith(quote) && word.length >= 2
    ? word.slice(1, -1)
    : word;
}

/** The script of `[shell, flag, script]`, as Codex classifies shells (by file stem, case-insensitively). */
function shellScript(argv: readonly string[]): string | undefined {
  const shell = argv[0]
    ?.split(/[\\/]/)
    .pop()
    ?.replace(/\.[^.]*$/, "")
    .toLowerCase();
  const rest =
    (shell === "pwsh" || shell === "powershell") && argv[1]?.toLowerCase() === "-noprofile"
      ? argv.slice(2)
      : argv.slice(1);
  if (rest.length !== 2) return undefined;
  const [flag = "", script] = rest;
  const unix = (shell === "bash" || shell === "zsh" || shell === "sh") && (flag === "-lc" || flag === "-c");
  const powershell = (shell === "pwsh" || shell === "powershell") && flag.toLowerCase() === "-command";
  const cmd = shell === "cmd" && flag.toLowerCase() === "/c";
  return unix || powershell || cmd ? script : undefined;
}
