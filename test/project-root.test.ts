import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gitCeilings } from "../src/config/git-ceilings.js";
import { findProjectRoot, holdsRepository } from "../src/context/project-root.js";
import { tempDir } from "./support/in-process.js";

describe("the project root", () => {
  it("is the nearest folder with a repository; an empty .git folder is not one", () => {
    const root = tempDir("oi-root-");
    const work = path.join(root, "repo", "pkg");
    mkdirSync(work, { recursive: true });
    mkdirSync(path.join(root, ".git"));
    expect(holdsRepository(root)).toBe(false);
    // The temp folder is the ceiling, in case a repository holds it (a dotfiles repo in $HOME).
    const ceilings = [os.tmpdir()];
    expect(findProjectRoot(work, { ceilings })).toBe(work);
    mkdirSync(path.join(root, "repo", ".git"));
    writeFileSync(path.join(root, "repo", ".git", "HEAD"), "ref: refs/heads/main\n");
    expect(findProjectRoot(work, { ceilings })).toBe(path.join(root, "repo"));
  });

  it("takes a worktree's .git file as a repository", () => {
    const root = tempDir("oi-root-");
    writeFileSync(path.join(root, ".git"), "gitdir: /elsewhere/.git/worktrees/x\n");
    expect(findProjectRoot(root)).toBe(root);
  });

  it("never enters a folder of GIT_CEILING_DIRECTORIES, as git does", () => {
    const home = tempDir("oi-dotfiles-");
    mkdirSync(path.join(home, ".git"));
    writeFileSync(path.join(home, ".git", "HEAD"), "ref: refs/heads/main\n");
    const work = path.join(home, "tmp", "ws");
    mkdirSync(work, { recursive: true });
    expect(findProjectRoot(work)).toBe(home);
    const ceilings = gitCeilings({
      GIT_CEILING_DIRECTORIES: `relative/is/ignored:${path.join(home, "tmp")}`,
    });
    expect(ceilings).toEqual([path.join(home, "tmp")]);
    expect(findProjectRoot(work, { ceilings })).toBe(work);
  });
});
