import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApplyPatchError, applyPatch, patchPaths } from "../src/tools/apply-patch/apply-patch.js";
import { PatchParseError, parsePatch } from "../src/tools/apply-patch/parse-patch.js";
import { seekSequence } from "../src/tools/apply-patch/seek-sequence.js";
import {
  extractArgvPatch,
  extractShellPatch,
  IMPLICIT_INVOCATION_MESSAGE,
  isImplicitPatch,
} from "../src/tools/apply-patch/shell-intercept.js";
import { createLocalFs } from "../src/tools/local-fs.js";

const wrap = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

function parseError(text: string): PatchParseError {
  try {
    parsePatch(text);
  } catch (error) {
    if (error instanceof PatchParseError) return error;
    throw error;
  }
  throw new Error("expected a parse error");
}

describe("parsePatch", () => {
  it("parses add, delete and update hunks with move, context and end-of-file marker", () => {
    const hunks = parsePatch(
      wrap(
        "*** Add File: a/new.txt",
        "+one",
        "+",
        "*** Delete File: gone.txt",
        "*** Update File: src/old.py",
        "*** Move to: src/new.py",
        "@@ def f():",
        "-    pass",
        "+    return 1",
        "@@",
        " tail",
        "+more",
        "*** End of File",
      ),
    );
    expect(hunks).toEqual([
      { type: "add", path: "a/new.txt", contents: "one\n\n" },
      { type: "delete", path: "gone.txt" },
      {
        type: "update",
        path: "src/old.py",
        movePath: "src/new.py",
        chunks: [
          {
            changeContext: "def f():",
            oldLines: ["    pass"],
            newLines: ["    return 1"],
            isEndOfFile: false,
            newLineSources: [null],
          },
          { oldLines: ["tail"], newLines: ["tail", "more"], isEndOfFile: true, newLineSources: [0, null] },
        ],
      },
    ]);
  });

  it.each([
    ["<<EOF", "EOF"],
    ["<<'EOF'", "EOF"],
    ['<<"EOF"', "EOF"],
  ])("strips a %s heredoc wrapper around the patch", (open, close) => {
    const patch = `${open}\n${wrap("*** Add File: f", "+x")}\n${close}\n`;
    expect(parsePatch(patch)).toEqual([{ type: "add", path: "f", contents: "x\n" }]);
  });

  it("keeps mismatched heredoc quotes an error", () => {
    expect(parseError(`<<"EOF'\n${wrap("*** Add File: f", "+x")}\nEOF`).message).toBe(
      "invalid patch: The first line of the patch must be '*** Begin Patch'",
    );
  });

  it("tolerates padded markers, CRLF, blank lines before a chunk and a missing first @@", () => {
    const patch = [
      "  *** Begin Patch ",
      "   *** Update File: f.txt  ",
      "",
      " a",
      "-b",
      "+B",
      "@@",
      "-c",
      "+C",
      " *** End Patch",
    ].join("\r\n");
    expect(parsePatch(`\n\n${patch}\n\n`)).toEqual([
      {
        type: "update",
        path: "f.txt",
        chunks: [
          { oldLines: ["a", "b"], newLines: ["a", "B"], isEndOfFile: false, newLineSources: [0, null] },
          { oldLines: ["c"], newLines: ["C"], isEndOfFile: false, newLineSources: [null] },
        ],
      },
    ]);
  });

  it("ignores an Environment ID line after Begin Patch", () => {
    expect(parsePatch(wrap("*** Environment ID: local", "*** Delete File: x"))).toEqual([
      { type: "delete", path: "x" },
    ]);
  });

  it("reads an empty envelope as no hunks", () => {
    expect(parsePatch(wrap())).toEqual([]);
  });

  it.each([
    ["", "invalid patch: The last line of the patch must be '*** End Patch'", undefined],
    ["bad", "invalid patch: The first line of the patch must be '*** Begin Patch'", undefined],
    ["*** Begin Patch\nbad", "invalid patch: The last line of the patch must be '*** End Patch'", undefined],
    [
      wrap("*** Frobnicate File: foo"),
      "invalid hunk at line 2, '*** Frobnicate File: foo' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'",
      2,
    ],
    [
      wrap("*** Add File: a", "+x", "*** Update File: test.py"),
      "invalid hunk at line 4, Update file hunk for path 'test.py' is empty",
      4,
    ],
    [
      wrap("*** Update File: f", "@@", "-a", "bad line"),
      "invalid hunk at line 5, Expected update hunk to start with a @@ context marker, got: 'bad line'",
      5,
    ],
    [
      wrap("*** Update File: f", "@@", "bad"),
      "invalid hunk at line 4, Unexpected line found in update hunk: 'bad'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)",
      4,
    ],
    [
      wrap("*** Update File: f", "@@", "*** End of File"),
      "invalid hunk at line 4, Update hunk does not contain any lines",
      4,
    ],
  ])("rejects %j with Codex's message", (patch, message, line) => {
    const error = parseError(patch);
    expect(error.message).toBe(message);
    expect(error.code).toBe("patch_parse");
    expect(error.line).toBe(line);
  });
});

describe("seekSequence", () => {
  const seek = (lines: string[], pattern: string[], eof = false) =>
    seekSequence({ lines, pattern, start: 0, eof });

  it("matches exactly, then ignoring trailing, then surrounding whitespace", () => {
    expect(seek(["foo", "bar", "baz"], ["bar", "baz"])).toBe(1);
    expect(seek(["foo   ", "bar\t\t"], ["foo", "bar"])).toBe(0);
    expect(seek(["x", "    foo   ", "   bar\t"], ["foo", "bar"])).toBe(1);
  });

  it("reads typographic dashes, quotes and spaces as ASCII", () => {
    expect(seek(["a \u2013 b\u00a0\u201cq\u201d \u2018s\u2019"], ["a - b \"q\" 's'"])).toBe(0);
  });

  it("prefers a stricter match later in the file over a looser one earlier", () => {
    expect(seek(["  x", "x"], ["x"])).toBe(1);
  });

  it("anchors end-of-file patterns at the end only", () => {
    expect(seek(["a", "b", "a"], ["a"], true)).toBe(2);
    expect(seek(["a", "b"], ["a"], true)).toBeUndefined();
  });

  it("handles empty and oversized patterns", () => {
    expect(seekSequence({ lines: ["a"], pattern: [], start: 1, eof: false })).toBe(1);
    expect(seek(["one"], ["too", "many"])).toBeUndefined();
  });
});

describe("applyPatch", () => {
  let dir: string;
  const fs = createLocalFs();
  const put = async (name: string, content: string) => {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  };
  const get = (name: string) => readFile(path.join(dir, name), "utf8");
  const apply = (...lines: string[]) => applyPatch({ patch: wrap(...lines), cwd: dir, fs });
  const failure = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApplyPatchError);
    return error as ApplyPatchError;
  };

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "apply-patch-unit-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reports Codex's summary with paths as the patch wrote them", async () => {
    await put("modify.txt", "line1\nline2\n");
    await put("delete.txt", "obsolete\n");
    const result = await apply(
      "*** Delete File: delete.txt",
      "*** Update File: modify.txt",
      "@@",
      "-line2",
      "+changed",
      "*** Add File: nested/new.txt",
      "+created",
    );
    expect(result.output).toBe(
      "Success. Updated the following files:\nA nested/new.txt\nM modify.txt\nD delete.txt\n",
    );
    expect(result.changes.map((c) => [c.kind, path.relative(dir, c.path)])).toEqual([
      ["delete", "delete.txt"],
      ["update", "modify.txt"],
      ["add", "nested/new.txt"],
    ]);
    expect(await get("modify.txt")).toBe("line1\nchanged\n");
    expect(await get("nested/new.txt")).toBe("created\n");
    expect(await readdir(dir)).not.toContain("delete.txt");
  });

  it("uses the @@ context line to pick between identical blocks", async () => {
    await put("m.py", "def a():\n    return 0\n\ndef b():\n    return 0\n");
    await apply("*** Update File: m.py", "@@ def b():", "-    return 0", "+    return 2");
    expect(await get("m.py")).toBe("def a():\n    return 0\n\ndef b():\n    return 2\n");
  });

  it("names the file when a context line is missing", async () => {
    await put("m.py", "def a():\n    pass\n");
    const error = await failure(apply("*** Update File: m.py", "@@ def zzz():", "-    pass", "+    x"));
    expect(error.message).toBe(`Failed to find context 'def zzz():' in ${path.join(dir, "m.py")}`);
  });

  it("applies chunks whose context differs in whitespace and punctuation, writing the patch's lines", async () => {
    await put("u.txt", "  keep  \nimport x  # local \u2013 top\u2011level\nend\n");
    await apply(
      "*** Update File: u.txt",
      "@@",
      " keep",
      "-import x  # local - top-level",
      "+import x  # fixed",
      " end",
    );
    expect(await get("u.txt")).toBe("keep\nimport x  # fixed\nend\n");
  });

  it("moves a file and reports the destination", async () => {
    await put("old/name.txt", "old content\n");
    const result = await apply(
      "*** Update File: old/name.txt",
      "*** Move to: renamed/name.txt",
      "@@",
      "-old content",
      "+new",
    );
    expect(result.output).toBe("Success. Updated the following files:\nM renamed/name.txt\n");
    expect(result.changes).toEqual([
      {
        kind: "update",
        path: path.join(dir, "old/name.txt"),
        movePath: path.join(dir, "renamed/name.txt"),
        oldText: "old content\n",
        newText: "new\n",
      },
    ]);
    expect(await get("renamed/name.txt")).toBe("new\n");
    expect(await readdir(path.join(dir, "old"))).toEqual([]);
  });

  it("keeps a file that is moved onto itself", async () => {
    await put("same.txt", "a\n");
    await apply("*** Update File: same.txt", "*** Move to: ./same.txt", "@@", "-a", "+b");
    expect(await get("same.txt")).toBe("b\n");
  });

  it("computes a dry run without writing, seeing earlier hunks like a real run", async () => {
    await put("keep.txt", "one\n");
    const patch = wrap(
      "*** Add File: fresh.txt",
      "+hello",
      "*** Update File: fresh.txt",
      "@@",
      "-hello",
      "+bye",
      "*** Delete File: keep.txt",
    );
    const result = await applyPatch({ patch, cwd: dir, fs, dryRun: true });
    expect(result.changes.map((c) => [c.kind, c.oldText, c.newText])).toEqual([
      ["add", null, "hello\n"],
      ["update", "hello\n", "bye\n"],
      ["delete", "one\n", null],
    ]);
    expect(await readdir(dir)).toEqual(["keep.txt"]);
    expect(await get("keep.txt")).toBe("one\n");
  });

  it("fails a dry run where the real run would fail", async () => {
    const error = await failure(
      applyPatch({
        patch: wrap("*** Add File: a.txt", "+a", "*** Delete File: nope.txt"),
        cwd: dir,
        fs,
        dryRun: true,
      }),
    );
    expect(error.message).toBe(`Failed to delete file ${path.join(dir, "nope.txt")}`);
    expect(await readdir(dir)).toEqual([]);
  });

  it("shows the lines it could not find", async () => {
    await put("modify.txt", "line1\nline2\n");
    const error = await failure(apply("*** Update File: modify.txt", "@@", " line1", "-missing", "+changed"));
    expect(error.message).toBe(
      `Failed to find expected lines in ${path.join(dir, "modify.txt")}:\nline1\nmissing`,
    );
    expect(await get("modify.txt")).toBe("line1\nline2\n");
  });

  it("leaves earlier hunks applied and lists them when a later one fails", async () => {
    const error = await failure(
      apply("*** Add File: created.txt", "+hello", "*** Update File: missing.txt", "@@", "-a", "+b"),
    );
    expect(error.message).toBe(
      `Failed to read file to update ${path.join(dir, "missing.txt")}: No such file or directory (os error 2)`,
    );
    expect(error.code).toBe("patch_apply");
    expect(error.applied.map((c) => [c.kind, c.path])).toEqual([["add", path.join(dir, "created.txt")]]);
    expect(await get("created.txt")).toBe("hello\n");
  });

  it("refuses an empty patch and deleting a directory", async () => {
    expect((await failure(apply())).message).toBe("No files were modified.");
    await mkdir(path.join(dir, "sub"));
    expect((await failure(apply("*** Delete File: sub"))).message).toBe(
      `Failed to delete file ${path.join(dir, "sub")}`,
    );
  });

  it("throws parse errors before touching anything", async () => {
    await expect(apply("*** Add File: a.txt", "+a", "*** Bogus")).rejects.toBeInstanceOf(PatchParseError);
    expect(await readdir(dir)).toEqual([]);
  });

  it("keeps each context line's own ending and gives new lines the file's first one", async () => {
    await put("r.txt", "same\r\nsame\n");
    await apply("*** Update File: r.txt", "@@", "-same", " same");
    expect(await get("r.txt")).toBe("same\n");
    await put("t.txt", "one\r\ntwo");
    await apply("*** Update File: t.txt", "@@", "-one", "+ONE");
    expect(await get("t.txt")).toBe("ONE\r\ntwo\r\n");
  });

  it("appends pure additions at the end of the file", async () => {
    await put("p.txt", "a\nb\n");
    await apply("*** Update File: p.txt", "@@", "+c");
    expect(await get("p.txt")).toBe("a\nb\nc\n");
  });
});

describe("patchPaths", () => {
  it("lists absolute targets, move destinations included, once each", () => {
    const patch = wrap(
      "*** Update File: a.txt",
      "*** Move to: b/c.txt",
      "@@",
      "-x",
      "+y",
      "*** Delete File: a.txt",
    );
    expect(patchPaths(patch, "/w")).toEqual(["/w/a.txt", "/w/b/c.txt"]);
    expect(patchPaths(wrap("*** Add File: /abs/x", "+1"), "/w")).toEqual(["/abs/x"]);
  });

  it("returns nothing for text that does not parse", () => {
    expect(patchPaths("not a patch", "/w")).toEqual([]);
  });
});

describe("extractShellPatch", () => {
  const body = wrap("*** Add File: x.txt", "+hi");

  it.each([
    `apply_patch <<'EOF'\n${body}\nEOF`,
    `apply_patch <<EOF\n${body}\nEOF\n`,
    `apply_patch <<"EOF"\n${body}\nEOF`,
    `applypatch << 'PATCH'\n${body}\nPATCH\n\n`,
    `\napply_patch <<-EOF\n\t${body.split("\n").join("\n\t")}\n\tEOF`,
  ])("finds the heredoc body in %j", (command) => {
    expect(extractShellPatch(command)).toEqual({ patch: body });
  });

  it("returns the directory of a cd prefix", () => {
    expect(extractShellPatch(`cd src/app && apply_patch <<'EOF'\n${body}\nEOF`)).toEqual({
      patch: body,
      workdir: "src/app",
    });
    expect(extractShellPatch(`cd "my dir" && apply_patch <<EOF\n${body}\nEOF`)).toEqual({
      patch: body,
      workdir: "my dir",
    });
    expect(extractShellPatch(`cd '/tmp/x y' &&\napply_patch <<EOF\n${body}\nEOF`)).toEqual({
      patch: body,
      workdir: "/tmp/x y",
    });
  });

  it("unwraps bash -lc and a quoted patch argument", () => {
    expect(extractShellPatch(`bash -lc "apply_patch <<'EOF'\n${body}\nEOF"`)).toEqual({ patch: body });
    expect(extractShellPatch(`/bin/zsh -c 'cd sub && apply_patch <<EOF\n${body}\nEOF'`)).toEqual({
      patch: body,
      workdir: "sub",
    });
    expect(extractShellPatch(`apply_patch '${body}'`)).toEqual({ patch: body });
  });

  it.each([
    "echo apply_patch",
    "apply_patch",
    "ls -la",
    `apply_patch <<'EOF'\n${body}\nEOF\necho done`,
    `echo hi; apply_patch <<'EOF'\n${body}\nEOF`,
    `cd a || apply_patch <<'EOF'\n${body}\nEOF`,
    `cd a b && apply_patch <<'EOF'\n${body}\nEOF`,
    `cat <<'EOF'\n${body}\nEOF`,
    `apply_patch <<'EOF'\n${body}\n`,
    `apply_patch "$(cat fix.patch)"`,
    `bash -lc "echo $HOME"`,
  ])("leaves %j to the shell", (command) => {
    expect(extractShellPatch(command)).toBeUndefined();
  });
});

describe("extractArgvPatch and implicit patches", () => {
  const body = wrap("*** Delete File: x");
  const script = `apply_patch <<'EOF'\n${body}\nEOF`;

  it("recognises Codex's argv forms", () => {
    expect(extractArgvPatch(["apply_patch", body])).toEqual({ patch: body });
    expect(extractArgvPatch(["bash", "-lc", script])).toEqual({ patch: body });
    expect(extractArgvPatch(["/usr/bin/sh", "-c", script])).toEqual({ patch: body });
    expect(extractArgvPatch(["pwsh", "-NoProfile", "-Command", script])).toEqual({ patch: body });
    expect(extractArgvPatch(["cmd.exe", "/c", script])).toEqual({ patch: body });
    expect(extractArgvPatch(["python", "-c", script])).toBeUndefined();
    expect(extractArgvPatch(["bash", "-lc", `apply_patch '${body}'`])).toBeUndefined();
  });

  it("spots a bare patch sent as a command", () => {
    expect(isImplicitPatch(body)).toBe(true);
    expect(isImplicitPatch(`bash -lc '${body}'`)).toBe(true);
    expect(isImplicitPatch(script)).toBe(false);
    expect(IMPLICIT_INVOCATION_MESSAGE).toContain("without explicit call to apply_patch");
  });
});

describe("createLocalFs", () => {
  let dir: string;
  const fs = createLocalFs();
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "local-fs-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("creates parent directories, reports missing files, and refuses to remove directories", async () => {
    const file = path.join(dir, "a/b/c.txt");
    await fs.writeText(file, "\ufeffbom kept\n");
    expect(await fs.readText(file)).toBe("\ufeffbom kept\n");
    expect(await fs.stat(file)).toEqual({
      isFile: true,
      isDirectory: false,
      size: Buffer.byteLength("\ufeffbom kept\n"),
      mtimeMs: (await stat(file)).mtimeMs,
    });
    expect(await fs.stat(path.join(dir, "a"))).toMatchObject({ isFile: false, isDirectory: true });
    expect(await fs.stat(path.join(dir, "nope"))).toBeUndefined();
    expect(await fs.stat(path.join(file, "under-a-file"))).toBeUndefined();
    await expect(fs.readText(path.join(dir, "nope"))).rejects.toMatchObject({ code: "ENOENT" });
    await expect(fs.remove(path.join(dir, "a"))).rejects.toThrow();
    await fs.remove(file);
    expect(await fs.stat(file)).toBeUndefined();
  });

  it("refuses to read a file that is not UTF-8 as text, and gives its bytes as they are", async () => {
    const file = path.join(dir, "bin");
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0xc3]);
    await writeFile(file, bytes);
    await expect(fs.readText(file)).rejects.toMatchObject({ code: "ERR_ENCODING_INVALID_ENCODED_DATA" });
    expect(Buffer.from(await fs.readBytes(file))).toEqual(bytes);
    await expect(fs.readBytes(path.join(dir, "nope"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("stats a FIFO as neither a regular file nor a directory", async () => {
    const fifo = path.join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    expect(await fs.stat(fifo)).toMatchObject({ isFile: false, isDirectory: false });
  });
});
