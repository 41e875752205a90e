import os from "node:os";

/**
 * Git's walk-up ceiling for a test's agent: the temp folder, so a dotfiles repository in
 * `$HOME` with `TMPDIR` inside it is not taken for the project of every test workspace.
 */
export const TEST_CEILING = { GIT_CEILING_DIRECTORIES: os.tmpdir() };
