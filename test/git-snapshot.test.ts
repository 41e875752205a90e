import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { gitSnapshot } from "../src/context/git-snapshot.js";
import { tempDir } from "./support/harness-fixtures.js";
import { needs } from "./support/requires.js";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
  });

needs("git").describe("gitSnapshot", () => {
  needs("git").it("reads branch, main branch, short status and recent commits of a work tree", async () => {
    const dir = tempDir("oi-git-snapshot-");
    git(dir, "init", "-q", "-b", "feature");
    writeFileSync(path.join(dir, "a.txt"), "a\n");
    git(dir, "add", "a.txt");
    git(dir, "commit", "-q", "-m", "first commit");
    writeFileSync(path.join(dir, "a.txt"), "changed\n");
    writeFileSync(path.join(dir, "new.txt"), "n\n");
    const snapshot = await gitSnapshot(dir);
    expect(snapshot).toEqual({
      branch: "feature",
      mainBranch: "main",
      status: " M a.txt\n?? new.txt",
      recentCommits: expect.stringMatching(/^[0-9a-f]{7,} first commit$/),
    });
  });

  needs("git").it("is undefined outside a repository", async () => {
    expect(await gitSnapshot(tempDir("oi-git-none-"))).toBeUndefined();
  });
});
