import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isIgnored, parseIgnoreFile } from "../src/tools/fs/gitignore.js";
import { globFiles } from "../src/tools/fs/glob-files.js";
import { compileGlob } from "../src/tools/fs/glob-pattern.js";
import { FsToolError, type GlobOptions } from "../src/tools/fs/types.js";

const root = mkdtempSync(path.join(tmpdir(), "oi-glob-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
/** A fresh directory with `names` as files, each `ageSeconds` older than the one before. */
function tree(names: string[], ageSeconds = 0): string {
  const dir = path.join(root, `t${counter++}`);
  const now = Date.now() / 1000;
  names.forEach((name, index) => {
    const file = path.join(dir, name);
    mkdirSync(name.endsWith("/") ? file : path.dirname(file), { recursive: true });
    if (!name.endsWith("/")) {
      writeFileSync(file, name.endsWith("ignore") ? "" : `content of ${name}\n`);
      utimesSync(file, now - index * ageSeconds, now - index * ageSeconds);
    }
  });
  return dir;
}

async function glob(cwd: string, pattern: string, options: Partial<GlobOptions> = {}) {
  const result = await globFiles({ pattern, cwd, signal: new AbortController().signal, ...options });
  return { ...result, files: result.files.map((file) => path.relative(cwd, file)) };
}

const sorted = (files: string[]) => [...files].sort();

describe("compileGlob", () => {
  it.each([
    ["**/*.ts", "a.ts", true],
    ["**/*.ts", "src/deep/a.ts", true],
    ["**/*.ts", "a.tsx", false],
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "lib/src/a.ts", false],
    ["*.ts", "src/a.ts", false],
    ["*.{ts,tsx}", "a.tsx", true],
    ["{src,test}/**/*.{js,mjs}", "test/x/y.mjs", true],
    ["{src,test}/**/*.{js,mjs}", "lib/y.mjs", false],
    ["file?.md", "file1.md", true],
    ["file?.md", "file/.md", false],
    ["[a-c]*.txt", "beta.txt", true],
    ["[!a-c]*.txt", "beta.txt", false],
    ["*.txt", ".hidden.txt", true],
    ["a\\*b", "a*b", true],
    ["a\\*b", "axb", false],
    ["src/**", "src/a/b/c", true],
  ])("%s against %s → %s", (pattern, candidate, expected) => {
    expect(compileGlob(pattern)(candidate)).toBe(expected);
  });

  it("matches names at any depth in matchBase mode and folds case when asked", () => {
    expect(compileGlob("*.ts", { matchBase: true })("deep/dir/a.ts")).toBe(true);
    expect(compileGlob("src/*.ts", { matchBase: true })("deep/src/a.ts")).toBe(false);
    expect(compileGlob("*.TS", { caseSensitive: false })("a.ts")).toBe(true);
    expect(compileGlob("*.TS")("a.ts")).toBe(false);
  });

  it.each(["{a,b", "[abc"])("rejects the unclosed %s", (pattern) => {
    expect(() => compileGlob(pattern)).toThrow(FsToolError);
  });
});

describe("gitignore rules", () => {
  const rules = parseIgnoreFile(
    [
      "# comment",
      "*.log",
      "!keep.log",
      "build/",
      "/root-only.txt",
      "docs/**/*.tmp",
      "\\#hash",
      "trail   ",
    ].join("\n"),
    "/repo",
  );
  it.each([
    ["/repo/a.log", false, true],
    ["/repo/sub/keep.log", false, false],
    ["/repo/build", true, true],
    ["/repo/build", false, false],
    ["/repo/root-only.txt", false, true],
    ["/repo/sub/root-only.txt", false, false],
    ["/repo/docs/a/b/c.tmp", false, true],
    ["/repo/other/c.tmp", false, false],
    ["/repo/#hash", false, true],
    ["/repo/trail", false, true],
    ["/elsewhere/a.log", false, false],
  ])("%s (dir: %s) ignored: %s", (file, isDir, expected) => {
    expect(isIgnored(rules, file, isDir)).toBe(expected);
  });
});

describe("globFiles", () => {
  it("matches ** at any depth, braces, and anchors a plain pattern at cwd", async () => {
    const dir = tree(["a.ts", "b.tsx", "c.js", "src/d.ts", "src/deep/e.tsx", "src/deep/f.md"]);
    expect(sorted((await glob(dir, "**/*.ts")).files)).toEqual(["a.ts", "src/d.ts"]);
    expect(sorted((await glob(dir, "**/*.{ts,tsx}")).files)).toEqual([
      "a.ts",
      "b.tsx",
      "src/d.ts",
      "src/deep/e.tsx",
    ]);
    expect(sorted((await glob(dir, "*.ts")).files)).toEqual(["a.ts"]);
    expect(sorted((await glob(dir, "./src/**/*")).files)).toEqual([
      "src/d.ts",
      "src/deep/e.tsx",
      "src/deep/f.md",
    ]);
    expect((await glob(dir, path.join(dir, "src", "*.ts"))).files).toEqual(["src/d.ts"]);
    expect((await glob(dir, "src/d.ts")).files).toEqual(["src/d.ts"]);
  });

  it("returns the newest files first and stops at the limit", async () => {
    const dir = tree(["new.ts", "mid.ts", "old.ts", "older.ts"], 100);
    expect(await glob(dir, "*.ts")).toEqual({
      files: ["new.ts", "mid.ts", "old.ts", "older.ts"],
      truncated: false,
    });
    expect(await glob(dir, "*.ts", { limit: 2 })).toEqual({ files: ["new.ts", "mid.ts"], truncated: true });
  });

  it("honours nested .gitignore files with negation inside a git repository", async () => {
    const dir = tree([
      ".git/HEAD",
      "a.log",
      "keep.log",
      "build/out.log",
      "sub/b.log",
      "sub/c.log",
      "node_modules/pkg/x.log",
    ]);
    writeFileSync(path.join(dir, ".gitignore"), "*.log\n!keep.log\nbuild/\n");
    writeFileSync(path.join(dir, "sub", ".gitignore"), "!c.log\n");
    expect(sorted((await glob(dir, "**/*.log")).files)).toEqual(["keep.log", "sub/c.log"]);
    expect(sorted((await glob(dir, "**/*.log", { respectGitignore: false })).files)).toEqual([
      "a.log",
      "build/out.log",
      "keep.log",
      "sub/b.log",
      "sub/c.log",
    ]);
  });

  it("applies a parent repository's .gitignore when cwd is a subdirectory", async () => {
    const dir = tree([".git/HEAD", "pkg/a.gen.ts", "pkg/b.ts"]);
    writeFileSync(path.join(dir, ".gitignore"), "*.gen.ts\n");
    expect((await glob(path.join(dir, "pkg"), "*.ts")).files).toEqual(["b.ts"]);
  });

  it("ignores .gitignore outside a git repository, like ripgrep", async () => {
    const dir = tree(["a.log"]);
    writeFileSync(path.join(dir, ".gitignore"), "*.log\n");
    expect((await glob(dir, "*.log")).files).toEqual(["a.log"]);
  });

  it("folds case only when asked", async () => {
    const dir = tree(["README.MD"]);
    expect((await glob(dir, "*.md")).files).toEqual([]);
    expect((await glob(dir, "*.md", { caseSensitive: false })).files).toEqual(["README.MD"]);
  });

  it("rejects a missing cwd, a file cwd, a bad pattern, and an aborted signal", async () => {
    const dir = tree(["a.ts"]);
    const code = (promise: Promise<unknown>) =>
      promise.then(
        () => "resolved",
        (error) => (error instanceof FsToolError ? error.code : (error as Error).name),
      );
    expect(await code(glob(path.join(dir, "nope"), "*"))).toBe("not_found");
    expect(await code(glob(path.join(dir, "a.ts"), "*"))).toBe("not_a_directory");
    expect(await code(glob(dir, "{a,b"))).toBe("invalid_pattern");
    const controller = new AbortController();
    controller.abort();
    expect(await code(glob(dir, "**/*", { signal: controller.signal }))).toBe("AbortError");
  });
});
