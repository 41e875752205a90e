import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listDirectory } from "../src/tools/fs/list-directory.js";
import { readTextFile } from "../src/tools/fs/read-text-file.js";
import { ReadTracker } from "../src/tools/fs/read-tracker.js";
import { replaceInText } from "../src/tools/fs/replace-in-text.js";
import { spillOutput } from "../src/tools/fs/spill-output.js";
import { FsToolError, type FsToolErrorCode, type ReplaceOptions } from "../src/tools/fs/types.js";
import { createLocalFs } from "../src/tools/local-fs.js";

/** readTextFile runs against the local port, as tools get it in `ToolContext.fs`. */
const localFs = createLocalFs();
const root = mkdtempSync(path.join(tmpdir(), "oi-fs-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
/** A fresh directory holding `files` (path → content; a trailing `/` makes a directory). */
function tree(files: Record<string, string | Buffer>): string {
  const dir = path.join(root, `t${counter++}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    const target = path.join(dir, name);
    if (name.endsWith("/")) {
      mkdirSync(target, { recursive: true });
      continue;
    }
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  return dir;
}

async function fsError(promise: Promise<unknown> | (() => unknown)): Promise<FsToolError> {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    if (error instanceof FsToolError) return error;
    throw error;
  }
  throw new Error("expected an FsToolError");
}

describe("readTextFile", () => {
  it("returns content as on disk and lines without endings or a phantom last line", async () => {
    const dir = tree({ "crlf.txt": "\uFEFFone\r\ntwo\r\n", "plain.txt": "a\nb", "empty.txt": "" });
    const crlf = await readTextFile({ fs: localFs, path: path.join(dir, "crlf.txt") });
    expect(crlf.content).toBe("\uFEFFone\r\ntwo\r\n");
    expect(crlf.lines).toEqual(["one", "two"]);
    expect(crlf.size).toBe(Buffer.byteLength("\uFEFFone\r\ntwo\r\n"));
    expect(crlf.mtimeMs).toBeGreaterThan(0);
    expect((await readTextFile({ fs: localFs, path: path.join(dir, "plain.txt") })).lines).toEqual([
      "a",
      "b",
    ]);
    expect((await readTextFile({ fs: localFs, path: path.join(dir, "empty.txt") })).lines).toEqual([]);
  });

  it.each<[FsToolErrorCode, Record<string, string | Buffer>, string, number | undefined, RegExp]>([
    ["not_found", {}, "missing.txt", undefined, /^File does not exist: .*missing\.txt$/],
    ["is_directory", { "sub/": "" }, "sub", undefined, /directory/],
    ["binary", { "nul.bin": Buffer.from([0x61, 0x00, 0x62]) }, "nul.bin", undefined, /binary/],
    ["binary", { "latin1.txt": Buffer.from([0x63, 0x61, 0x66, 0xe9]) }, "latin1.txt", undefined, /UTF-8/],
    ["too_large", { "big.txt": "x".repeat(101) }, "big.txt", 100, /101 bytes, limit 100/],
  ])("throws %s", async (code, files, name, maxBytes, message) => {
    const dir = tree(files);
    const error = await fsError(readTextFile({ fs: localFs, path: path.join(dir, name), maxBytes }));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it("calls a file with NUL bytes near the start binary even when it is not UTF-8 either", async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
    const dir = tree({ "logo.png": png });
    const error = await fsError(readTextFile({ fs: localFs, path: path.join(dir, "logo.png") }));
    expect(error.message).toMatch(/^File appears to be binary \(contains NUL bytes\): /);
  });

  it("refuses a FIFO instead of blocking on it", async () => {
    const dir = tree({});
    execFileSync("mkfifo", [path.join(dir, "pipe")]);
    expect((await fsError(readTextFile({ fs: localFs, path: path.join(dir, "pipe") }))).code).toBe("binary");
  });

  it("accepts a file exactly at maxBytes", async () => {
    const dir = tree({ "edge.txt": "x".repeat(100) });
    expect(
      (await readTextFile({ fs: localFs, path: path.join(dir, "edge.txt"), maxBytes: 100 })).content,
    ).toHaveLength(100);
  });
});

describe("replaceInText", () => {
  const replace = (options: Partial<ReplaceOptions> & Pick<ReplaceOptions, "text">) =>
    replaceInText({ oldString: "", newString: "", ...options });

  it("replaces a unique exact match literally ($ patterns are not special)", () => {
    expect(replace({ text: "a foo b", oldString: "foo", newString: "$&$1" })).toEqual({
      text: "a $&$1 b",
      replacements: 1,
      strategy: "exact",
    });
  });

  it("refuses several matches with their count, and replaces all of them when asked", () => {
    const error = (() => {
      try {
        replace({ text: "x x x", oldString: "x", newString: "y" });
      } catch (e) {
        return e as FsToolError;
      }
      throw new Error("expected multiple_matches");
    })();
    expect(error.code).toBe("multiple_matches");
    expect(error.count).toBe(3);
    expect(replace({ text: "x x x", oldString: "x", newString: "y", replaceAll: true })).toEqual({
      text: "y y y",
      replacements: 3,
      strategy: "exact",
    });
  });

  it("checks expectedReplacements both ways", async () => {
    expect(replace({ text: "x x", oldString: "x", newString: "y", expectedReplacements: 2 }).text).toBe(
      "y y",
    );
    const tooMany = await fsError(() =>
      replace({ text: "x x x", oldString: "x", newString: "y", expectedReplacements: 2 }),
    );
    expect([tooMany.code, tooMany.count, tooMany.message]).toEqual([
      "multiple_matches",
      3,
      "Expected 2 occurrences of old_string but found 3.",
    ]);
    const tooFew = await fsError(() =>
      replace({ text: "x", oldString: "x", newString: "y", expectedReplacements: 2 }),
    );
    expect([tooFew.code, tooFew.count]).toEqual(["multiple_matches", 1]);
  });

  it("reports no_match, no_change and the empty old_string rule", async () => {
    expect((await fsError(() => replace({ text: "abc", oldString: "zzz", newString: "y" }))).code).toBe(
      "no_match",
    );
    expect((await fsError(() => replace({ text: "abc", oldString: "b", newString: "b" }))).code).toBe(
      "no_change",
    );
    expect(replace({ text: "", oldString: "", newString: "new file\n" })).toEqual({
      text: "new file\n",
      replacements: 1,
      strategy: "exact",
    });
    expect((await fsError(() => replace({ text: "abc", oldString: "", newString: "x" }))).code).toBe(
      "no_match",
    );
  });

  it("matches LF old_string in a CRLF file and writes CRLF", () => {
    const text = "one\r\ntwo\r\nthree\r\n";
    const result = replace({ text, oldString: "one\ntwo\n", newString: "uno\ndos\n" });
    expect(result.text).toBe("uno\r\ndos\r\nthree\r\n");
    expect(result.strategy).toBe("exact");
  });

  it("matches CRLF old_string in an LF file and writes LF", () => {
    expect(replace({ text: "a\nb\nc\n", oldString: "a\r\nb", newString: "x\r\ny" }).text).toBe("x\ny\nc\n");
  });

  it("does not tolerate whitespace differences unless asked", async () => {
    const text = "function f() {\n        return 1;\n}\n";
    const error = await fsError(() =>
      replace({ text, oldString: "return 1;\n  }", newString: "return 2;\n  }" }),
    );
    expect(error.code).toBe("no_match");
  });

  it("tolerant: matches lines ignoring indentation and re-indents the new lines by the delta", () => {
    const text = "class A {\n    method() {\n        if (x) {\n            go();\n        }\n    }\n}\n";
    const result = replace({
      text,
      tolerant: true,
      oldString: "  if (x) {\n      go();\n  }",
      newString: "  if (x && y) {\n      go();\n      stop();\n  }",
    });
    expect(result.strategy).toBe("tolerant");
    expect(result.replacements).toBe(1);
    expect(result.text).toBe(
      "class A {\n    method() {\n        if (x && y) {\n            go();\n            stop();\n        }\n    }\n}\n",
    );
  });

  it("tolerant: ignores trailing whitespace and keeps CRLF and untouched lines byte for byte", () => {
    const text = "keep  \r\n\tvalue = 1;   \r\n\tother = 2;\r\nend";
    const result = replace({
      text,
      tolerant: true,
      oldString: "value = 1;\nother = 2;",
      newString: "value = 3;",
    });
    expect(result.text).toBe("keep  \r\n\tvalue = 3;\r\nend");
  });

  it("tolerant: prefers the exact match, counts tolerant matches, and replaces all when asked", async () => {
    expect(replace({ text: "a\n  b\n", tolerant: true, oldString: "  b", newString: "  c" }).strategy).toBe(
      "exact",
    );
    const text = "\tfoo();\n    foo();\n";
    const error = await fsError(() =>
      replace({ text, tolerant: true, oldString: "foo(); \n", newString: "bar();\n" }),
    );
    expect([error.code, error.count]).toEqual(["multiple_matches", 2]);
    const all = replace({
      text,
      tolerant: true,
      oldString: "foo(); \n",
      newString: "bar();\n",
      replaceAll: true,
    });
    expect(all).toEqual({ text: "\tbar();\n    bar();\n", replacements: 2, strategy: "tolerant" });
  });

  it("tolerant: deleting whole lines leaves no blank line, and a no-op edit is no_change", async () => {
    expect(replace({ text: "a\n\tb\nc\n", tolerant: true, oldString: "  b\n", newString: "" }).text).toBe(
      "a\nc\n",
    );
    const error = await fsError(() =>
      replace({ text: "    x = 1;\n", tolerant: true, oldString: "x = 1; ", newString: "x = 1;" }),
    );
    expect(error.code).toBe("no_change");
  });
});

describe("ReadTracker", () => {
  it("tracks reads, changes and our own writes by resolved path", () => {
    const tracker = new ReadTracker();
    const file = path.join(process.cwd(), "some-file.ts");
    expect(tracker.check(file, 1)).toBe("not_read");
    expect(tracker.lastRead(file)).toBeUndefined();
    tracker.recordRead("./some-file.ts", 100);
    expect(tracker.check(file, 100)).toBe("ok");
    expect(tracker.lastRead(file)).toBe(100);
    expect(tracker.check(file, 200)).toBe("changed");
    tracker.recordWrite(file, 200);
    expect(tracker.check("some-file.ts", 200)).toBe("ok");
    expect(tracker.check("other.ts", 200)).toBe("not_read");
  });
});

describe("spillOutput", () => {
  it("returns text within the limit unchanged and writes nothing", async () => {
    const dir = path.join(root, "spill-none");
    expect(await spillOutput({ text: "short", dir, name: "out.txt", maxBytes: 5 })).toEqual({
      spilled: false,
      text: "short",
    });
    expect(() => readFileSync(path.join(dir, "out.txt"))).toThrow();
  });

  it("writes the whole text and previews whole lines", async () => {
    const dir = path.join(root, "spill", "nested");
    const text = "line one\nline two\nline three\n";
    const result = await spillOutput({ text, dir, name: "out.txt", maxBytes: 10, previewBytes: 15 });
    expect(result).toEqual({
      spilled: true,
      path: path.join(dir, "out.txt"),
      preview: "line one",
      totalBytes: 29,
    });
    expect(readFileSync(path.join(dir, "out.txt"), "utf8")).toBe(text);
  });

  it("never splits a UTF-8 character when no line break is near", async () => {
    const text = "ééééé"; // 10 bytes
    const result = await spillOutput({
      text,
      dir: path.join(root, "spill-utf8"),
      name: "o",
      maxBytes: 4,
      previewBytes: 5,
    });
    expect(result).toMatchObject({ spilled: true, preview: "éé", totalBytes: 10 });
  });
});

describe("listDirectory", () => {
  it("lists direct children, directories first, with sizes", async () => {
    const dir = tree({ "b.txt": "12345", "a.txt": "1", "z/": "", "c/x.txt": "x" });
    const listing = await listDirectory({ path: dir });
    expect(listing).toEqual({
      truncated: false,
      entries: [
        { path: "c", type: "directory", size: 0 },
        { path: "z", type: "directory", size: 0 },
        { path: "a.txt", type: "file", size: 1 },
        { path: "b.txt", type: "file", size: 5 },
      ],
    });
  });

  it("goes deeper in tree order, honours ignore globs, ignore files and skips .git", async () => {
    const dir = tree({
      ".git/HEAD": "ref",
      ".gitignore": "dist/\n",
      "dist/out.js": "",
      "src/b.ts": "",
      "src/a.test.ts": "",
      "src/lib/deep/x.ts": "",
      "README.md": "",
    });
    symlinkSync("README.md", path.join(dir, "link.md"));
    const listing = await listDirectory({ path: dir, depth: 3, ignore: ["*.test.ts"] });
    expect(listing.entries.map((e) => `${e.type[0]} ${e.path}`)).toEqual([
      "d src",
      "d src/lib",
      "d src/lib/deep",
      "f src/b.ts",
      "f .gitignore",
      "f README.md",
      "s link.md",
    ]);
    const all = await listDirectory({ path: dir, respectGitignore: false });
    expect(all.entries.map((e) => e.path)).toContain("dist");
  });

  it("truncates at the limit keeping shallow entries", async () => {
    const dir = tree({ "a/1": "", "a/2": "", "a/3": "", b: "", c: "" });
    const listing = await listDirectory({ path: dir, depth: 2, limit: 4 });
    expect(listing.truncated).toBe(true);
    expect(listing.entries.map((e) => e.path)).toEqual(["a", "a/1", "b", "c"]);
  });

  it("throws not_found and not_a_directory", async () => {
    const dir = tree({ "file.txt": "" });
    expect((await fsError(listDirectory({ path: path.join(dir, "nope") }))).code).toBe("not_found");
    expect((await fsError(listDirectory({ path: path.join(dir, "file.txt") }))).code).toBe("not_a_directory");
  });
});
