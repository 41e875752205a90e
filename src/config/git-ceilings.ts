import path from "node:path";

/**
 * Folders a walk up for the repository never enters, from git's own `GIT_CEILING_DIRECTORIES`
 * (absolute paths separated by `:`): someone who keeps a dotfiles repository in `$HOME` sets it
 * so that git, and we, do not take `$HOME` for the project of every folder below it.
 */
export function gitCeilings(env: Record<string, string | undefined>): string[] {
  return (env.GIT_CEILING_DIRECTORIES ?? "")
    .split(":")
    .filter((dir) => path.isAbsolute(dir))
    .map((dir) => path.resolve(dir));
}
