import { execFile } from "node:child_process";
import {
  type AutocompleteItem,
  type AutocompleteProvider,
  type AutocompleteSuggestions,
  CombinedAutocompleteProvider,
  fuzzyFilter,
  type SlashCommand,
} from "@mariozechner/pi-tui";

/** Suggestions shown for one `@` query. */
const SHOWN = 20;

/**
 * The composer's completion: `/` names (the agent's commands and the chat's own, pi-tui's
 * provider) and `@path` from the workspace's files, fuzzy-matched by pi-tui's matcher. The
 * file list comes from `rg --files` (or `git ls-files` without ripgrep), so .gitignore is
 * respected; it is listed once, at the first `@`, and again after each prompt.
 */
export class ChatCompletion implements AutocompleteProvider {
  private files: Promise<string[]> | undefined;

  constructor(
    private readonly cwd: string,
    private readonly commands: () => SlashCommand[],
    /** An image file's marker (`[image #1 shot.png]`), when the completed path names one. */
    private readonly attachImage: (file: string) => string | undefined = () => undefined,
  ) {}

  /** Files may have changed (the agent writes them): the next `@` lists them again. */
  refresh(): void {
    this.files = undefined;
  }

  async getSuggestions(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    options: { signal: AbortSignal; force?: boolean },
  ): Promise<AutocompleteSuggestions | null> {
    const before = (lines[cursorLine] ?? "").slice(0, cursorCol);
    const at = /(?:^|\s)(@[^\s@]*)$/.exec(before)?.[1];
    if (at === undefined) return this.slash().getSuggestions(lines, cursorLine, cursorCol, options);
    this.files ??= listFiles(this.cwd);
    const files = await this.files;
    const matches = at.length > 1 ? fuzzyFilter(files, at.slice(1), (file) => file) : files;
    const items = matches.slice(0, SHOWN).map((file) => ({ value: `@${file}`, label: file }));
    return items.length > 0 ? { items, prefix: at } : null;
  }

  applyCompletion(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    item: AutocompleteItem,
    prefix: string,
  ) {
    // An image taken from `@` completion is attached, as a pasted path is.
    const marker = prefix.startsWith("@") ? this.attachImage(item.value.slice(1)) : undefined;
    if (marker !== undefined) {
      const line = lines[cursorLine] ?? "";
      const start = cursorCol - prefix.length;
      const next = [...lines];
      next[cursorLine] = `${line.slice(0, start)}${marker} ${line.slice(cursorCol)}`;
      return { lines: next, cursorLine, cursorCol: start + marker.length + 1 };
    }
    return this.slash().applyCompletion(lines, cursorLine, cursorCol, item, prefix);
  }

  private slash(): CombinedAutocompleteProvider {
    return new CombinedAutocompleteProvider(this.commands(), this.cwd, null);
  }
}

/** The workspace's files, relative, as ripgrep lists them (ignored files left out). */
function listFiles(cwd: string): Promise<string[]> {
  const run = (command: string, args: string[]) =>
    new Promise<string[] | undefined>((resolve) => {
      execFile(command, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
        resolve(error && !stdout ? undefined : stdout.split("\n").filter(Boolean).sort());
      });
    });
  return run("rg", ["--files", "--hidden", "--glob", "!.git"]).then(
    async (files) =>
      files ?? (await run("git", ["ls-files", "--cached", "--others", "--exclude-standard"])) ?? [],
  );
}
