import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { kimiCodeHarness } from "../src/harnesses/kimi-code/kimi-code-harness.js";
import { harnessContext, tempDir, toolContext, toolRunner, writeFileAt } from "./support/harness-fixtures.js";

// Which files Kimi Code 2.1.0's Glob lists follows from its ripgrep arguments (`--hidden`,
// `!<vcs dir>` globs, the pattern, `!<secret>` globs; the last matching glob wins). The
// expected texts below are 2.1.0's own, recorded through its scripted-model loop in workspaces
// built the same way (a git repository; files written oldest first).

/** A git workspace with `files` (name → content), written oldest first, and a Glob that drops the wall time. */
function workspace(files: string[], gitignore?: string) {
  const dir = tempDir("oi-kimi-glob-rules-");
  mkdirSync(path.join(dir, ".git"));
  writeFileAt(dir, ".git/HEAD", "ref: refs/heads/main\n", 1000);
  if (gitignore !== undefined) writeFileAt(dir, ".gitignore", gitignore, 900);
  for (const [i, name] of files.entries()) writeFileAt(dir, name, "", files.length - i);
  const tools = kimiCodeHarness.open(
    harnessContext({ cwd: dir, scratchDir: tempDir("oi-kimi-scratch-") }),
  ).tools;
  const call = toolRunner(tools, toolContext(dir));
  return async (args: object) =>
    (await call("Glob", args)).output.replace(/^Wall time: [0-9.]+ seconds\n/, "");
}

describe("Glob's file selection, as 2.1.0's ripgrep arguments make it", () => {
  it("skips .env and private keys unseen, and counts the other secrets it filters", async () => {
    const glob = workspace([
      ".env",
      ".env.local",
      "s/id_rsa_backup",
      "s/credentials",
      "s/ok.txt",
      "s/id_rsa.pub",
      "s/.env.example",
    ]);
    expect(await glob({ pattern: ".env" })).toBe("No matches found");
    expect(await glob({ pattern: ".env.l*" })).toBe(
      "No non-sensitive matches found (1 sensitive file(s) filtered).",
    );
    expect(await glob({ pattern: "s/*" })).toBe(
      "s/.env.example\ns/id_rsa.pub\ns/ok.txt\nFiltered 1 sensitive file(s).",
    );
    expect(await glob({ pattern: "s/*", head_limit: 1 })).toBe(
      "Showing matches 1–1 of 3.\nContinue with the same search arguments and offset=1.\nTo remove the match-count limit, omit offset and use head_limit=0.\ns/.env.example\nFiltered 1 sensitive file(s).",
    );
    expect(await glob({ pattern: "s/*", offset: 5 })).toBe(
      "No more matches at offset=5 in the current result set (3 matches).\nFiltered 1 sensitive file(s).",
    );
  });

  it("walks node_modules unless an ignore file names it, and ignored folders only with include_ignored", async () => {
    const glob = workspace(["node_modules/x/a.js", "ignored/b.js"], "ignored/\n");
    expect(await glob({ pattern: "*.js" })).toBe("node_modules/x/a.js");
    expect(await glob({ pattern: "*.js", include_ignored: true })).toBe("ignored/b.js\nnode_modules/x/a.js");
  });

  it("never enters a folder named .env or a version-control folder the pattern does not name", async () => {
    const glob = workspace([".env/lib/site.py", ".hg/HEAD", "sub/.git/HEAD", "top.py"]);
    expect(await glob({ pattern: "*.py" })).toBe("top.py");
    expect(await glob({ pattern: "HEAD", include_ignored: true })).toBe("No matches found");
  });

  it("lists what the pattern itself names even where .gitignore or a .git folder would keep it out", async () => {
    const glob = workspace(["a.log", "logs/b.log", "build/out.js"], "*.log\nbuild/\n");
    expect(await glob({ pattern: "*.log" })).toBe("logs/b.log\na.log");
    expect(await glob({ pattern: "logs/*.log" })).toBe("logs/b.log");
    expect(await glob({ pattern: "build/**" })).toBe("No matches found");
    expect((await glob({ pattern: "*" })).split("\n")).toEqual([
      "build/out.js",
      "logs/b.log",
      "a.log",
      ".gitignore",
      ".git/HEAD",
    ]);
  });
});
