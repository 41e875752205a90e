import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type GrepBackend, grepFiles } from "../src/tools/fs/grep-files.js";
import { FsToolError, type GrepOptions, type GrepResult } from "../src/tools/fs/types.js";
import { needs } from "./support/requires.js";

const hasRipgrep = (() => {
  try {
    execFileSync("rg", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

const base = mkdtempSync(path.join(tmpdir(), "oi-grep-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The shared fixture: a git repository with ignore rules, hidden files, a binary and nested dirs. */
const repo = path.join(base, "repo");
const files: Record<string, string | Buffer> = {
  ".git/HEAD": "ref: refs/heads/main\nTODO in git\n",
  ".gitignore": "ignored.ts\ndist/\n",
  ".hidden.ts": "const TODO = 1;\n",
  "a.ts":
    "import x from 'y';\n// TODO: first\nconst a = 1;\nconst b = 2;\nconst c = 3;\nconst d = 4;\n// todo: second\n",
  "b.py": "# TODO python\nprint('hi')\n",
  "ignored.ts": "// TODO ignored\n",
  "dist/out.ts": "// TODO built\n",
  "node_modules/pkg/index.ts": "// TODO dependency\n",
  "bin.dat": Buffer.from("TODO\0binary\n"),
  "src/multi.ts": "function open(\n  arg,\n) {}\nfunction other() {}\n",
  "src/win.ts": "\uFEFFfirst\r\nTODO crlf\r\n",
};
for (const [name, content] of Object.entries(files)) {
  mkdirSync(path.dirname(path.join(repo, name)), { recursive: true });
  writeFileSync(path.join(repo, name), content);
}

function grep(backend: GrepBackend, options: Partial<GrepOptions>): Promise<GrepResult> {
  return grepFiles(
    { pattern: "TODO", path: repo, signal: new AbortController().signal, outputMode: "content", ...options },
    backend,
  );
}

async function errorCode(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "resolved",
    (error) => (error instanceof FsToolError ? error.code : (error as Error).name),
  );
}

const backends: GrepBackend[] = hasRipgrep ? ["ripgrep", "js"] : ["js"];

describe.each(backends)("grepFiles (%s)", (backend) => {
  it("finds content lines with numbers, skipping ignored, .git, node_modules and binary files", async () => {
    const result = await grep(backend, { lineNumbers: true });
    expect(result).toEqual({
      lines: [
        ".hidden.ts:1:const TODO = 1;",
        "a.ts:2:// TODO: first",
        "b.py:1:# TODO python",
        "src/win.ts:2:TODO crlf",
      ],
      files: [".hidden.ts", "a.ts", "b.py", "src/win.ts"].map((name) => path.join(repo, name)),
      truncated: false,
    });
  });

  it("lists matching files and counts, case-insensitively when asked", async () => {
    expect((await grep(backend, { outputMode: "files_with_matches", ignoreCase: true })).lines).toEqual([
      ".hidden.ts",
      "a.ts",
      "b.py",
      "src/win.ts",
    ]);
    expect((await grep(backend, { outputMode: "count", ignoreCase: true })).lines).toEqual([
      ".hidden.ts:1",
      "a.ts:2",
      "b.py:1",
      "src/win.ts:1",
    ]);
  });

  it("shows context with separators between groups", async () => {
    const result = await grep(backend, {
      path: path.join(repo, "a.ts"),
      pattern: "TODO|todo",
      before: 1,
      after: 1,
    });
    const file = path.join(repo, "a.ts");
    expect(result.lines).toEqual([
      `${file}-import x from 'y';`,
      `${file}:// TODO: first`,
      `${file}-const a = 1;`,
      "--",
      `${file}-const d = 4;`,
      `${file}:// todo: second`,
    ]);
  });

  it("matches across lines in multiline mode", async () => {
    const result = await grep(backend, { pattern: "open\\(.*?\\)", multiline: true, lineNumbers: true });
    expect(result.lines).toEqual([
      "src/multi.ts:1:function open(",
      "src/multi.ts:2:  arg,",
      "src/multi.ts:3:) {}",
    ]);
    expect((await grep(backend, { pattern: "open\\(.*?\\)", outputMode: "count" })).lines).toEqual([]);
    expect(
      (await grep(backend, { pattern: "\\(.*?\\)", multiline: true, outputMode: "count" })).lines,
    ).toEqual(["b.py:1", "src/multi.ts:2"]);
  });

  it("filters by glob and type; a glob whitelists a git-ignored file, as ripgrep does", async () => {
    expect((await grep(backend, { outputMode: "files_with_matches", type: "py" })).lines).toEqual(["b.py"]);
    expect((await grep(backend, { outputMode: "files_with_matches", glob: "*.ts" })).lines).toEqual([
      ".hidden.ts",
      "a.ts",
      "ignored.ts",
      "src/win.ts",
    ]);
    expect(
      (await grep(backend, { outputMode: "files_with_matches", glob: "src/**/*.{ts,tsx}" })).lines,
    ).toEqual(["src/win.ts"]);
    expect((await grep(backend, { outputMode: "files_with_matches", glob: "!*.ts" })).lines).toEqual([
      "b.py",
    ]);
  });

  it("applies offset and head limit to lines or files and reports truncation", async () => {
    const lines = await grep(backend, { pattern: "const", offset: 1, headLimit: 2 });
    expect(lines).toEqual({
      lines: ["a.ts:const a = 1;", "a.ts:const b = 2;"],
      files: [path.join(repo, "a.ts")],
      truncated: true,
    });
    const filesPage = await grep(backend, { outputMode: "files_with_matches", offset: 2, headLimit: 5 });
    expect(filesPage).toEqual({
      lines: ["b.py", "src/win.ts"],
      files: [path.join(repo, "b.py"), path.join(repo, "src/win.ts")],
      truncated: false,
    });
  });

  it("reports invalid regexes, unknown types and missing paths", async () => {
    expect(await errorCode(grep(backend, { pattern: "foo(" }))).toBe("invalid_pattern");
    expect(await errorCode(grep(backend, { type: "no-such-type" }))).toBe("invalid_pattern");
    expect(await errorCode(grep(backend, { type: "constructor", path: path.join(repo, "a.ts") }))).toBe(
      "invalid_pattern",
    );
    expect(await errorCode(grep(backend, { glob: "*.{ts" }))).toBe("invalid_pattern");
    expect(await errorCode(grep(backend, { path: path.join(repo, "missing") }))).toBe("not_found");
  });

  it("stops when aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await errorCode(grep(backend, { signal: controller.signal }))).toBe("AbortError");
    const late = new AbortController();
    const running = grep(backend, { signal: late.signal });
    late.abort();
    expect(await errorCode(running)).toBe("AbortError");
  });
});

describe("grepFiles backends", () => {
  needs("rg").it("give identical results for the same searches", async () => {
    const cases: Partial<GrepOptions>[] = [
      { lineNumbers: true, before: 2, after: 3, pattern: "const|TODO" },
      { pattern: "^const [a-c]", outputMode: "count" },
      { pattern: "\\w+\\(\\s*\\w+,\\s*\\)", multiline: true, lineNumbers: true, after: 1 },
      { pattern: "todo", ignoreCase: true, glob: "**/*.ts", outputMode: "files_with_matches" },
      { pattern: ".", headLimit: 7, offset: 3, lineNumbers: true },
    ];
    for (const options of cases) {
      expect(await grep("js", options)).toEqual(await grep("ripgrep", options));
    }
  });

  describe("OI_NO_RIPGREP", () => {
    const saved = process.env.OI_NO_RIPGREP;
    afterEach(() => {
      if (saved === undefined) delete process.env.OI_NO_RIPGREP;
      else process.env.OI_NO_RIPGREP = saved;
    });

    // Look-ahead is valid JS but not ripgrep syntax, which tells the backends apart.
    needs("rg").it("forces the JS search in auto mode", async () => {
      process.env.OI_NO_RIPGREP = "0";
      expect(await errorCode(grep("auto", { pattern: "TODO(?= crlf)" }))).toBe("invalid_pattern");
      process.env.OI_NO_RIPGREP = "1";
      expect((await grep("auto", { pattern: "TODO(?= crlf)" })).lines).toEqual(["src/win.ts:TODO crlf"]);
    });
  });
});
