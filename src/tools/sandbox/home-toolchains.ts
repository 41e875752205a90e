import path from "node:path";

/**
 * Directories under the home that hold programs, not secrets: language toolchains and version
 * managers. The sandbox hides the home, which would hide these too and break `cargo`, an
 * nvm-installed `node` or a pyenv `python`; they are bound back read-only. `~/.cargo` itself is
 * not listed (it holds `credentials.toml`), only its `bin`.
 */
const TOOLCHAIN_DIRS = [
  ".cargo/bin",
  ".rustup",
  ".nvm",
  ".fnm",
  ".volta",
  ".bun/bin",
  ".deno/bin",
  ".pyenv",
  ".rbenv",
  ".asdf",
  ".sdkman/candidates",
  ".local/bin",
  ".local/share/pnpm",
  "go/bin",
];

/**
 * Read-only re-exposure under a hidden home: the PATH entries that live in it (so a command
 * finds the same programs inside as outside) and the toolchain directories above. Missing paths
 * are fine; the layout drops them.
 */
export function homeToolchains(home: string, searchPath: string): string[] {
  const inHome = (p: string) => p.startsWith(home.endsWith("/") ? home : `${home}/`);
  const fromPath = searchPath.split(":").filter((entry) => path.isAbsolute(entry) && inHome(entry));
  return [...new Set([...fromPath, ...TOOLCHAIN_DIRS.map((dir) => path.join(home, dir))])];
}
