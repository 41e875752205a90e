import { accessSync, constants } from "node:fs";
import path from "node:path";
import { describe, it } from "vitest";

/** System programs some tests need, and how a user gets each one. */
const INSTALL = {
  git: "apt install git / brew install git",
  bwrap: "apt install bubblewrap / dnf install bubblewrap / pacman -S bubblewrap; there is none on macOS",
  nvim: "apt install neovim / brew install neovim",
  rg: "apt install ripgrep / brew install ripgrep",
  tmux: "apt install tmux / brew install tmux",
} as const;

export type Program = keyof typeof INSTALL;

/** The tag a skipped test's title carries; `skip-reporter.ts` counts the skips by it. */
export const NEEDS_TAG = "needs";

/** Whether `program` is an executable file in a folder of PATH. */
export function onPath(program: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.PATH ?? "").split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * `it` and `describe` for tests that need system programs. Where one is missing the test is
 * skipped with a title naming the program and its install command; with `CI` set it fails
 * instead, with the same words, so CI can never skip what it is meant to run.
 */
export function needs(...programs: Program[]): {
  it: typeof it;
  describe: typeof describe;
  available: boolean;
} {
  const absent = programs.filter((program) => !onPath(program));
  if (absent.length === 0) return { it, describe, available: true };
  const reason = absent.map((program) => `${program} (${INSTALL[program]})`).join(", ");
  const title = (name: unknown) => `${String(name)} [${NEEDS_TAG} ${reason}]`;
  const fail = () => {
    throw new Error(`not on PATH: ${reason}. CI installs these (.ci/run); a skip here would hide the test.`);
  };
  const skipped = process.env.CI
    ? {
        it: (name: unknown) => it(title(name), fail),
        describe: (name: unknown) => describe(title(name), () => it("runs", fail)),
      }
    : {
        it: (name: unknown, ...rest: unknown[]) =>
          (it.skip as (...args: unknown[]) => void)(title(name), ...rest),
        describe: (name: unknown, ...rest: unknown[]) =>
          (describe.skip as (...args: unknown[]) => void)(title(name), ...rest),
      };
  return { ...(skipped as unknown as { it: typeof it; describe: typeof describe }), available: false };
}
