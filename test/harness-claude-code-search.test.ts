import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { claudeCodeHarness } from "../src/harnesses/claude-code/claude-code-harness.js";
import { TODOS_UPDATED } from "../src/harnesses/claude-code/tools/todo-write.js";
import type { ToolResult } from "../src/tools/types.js";
import { harnessContext, tempDir, toolContext, toolRunner, writeFileAt } from "./support/harness-fixtures.js";

let dir: string;
let call: (name: string, args: object) => Promise<ToolResult>;

beforeEach(() => {
  dir = tempDir("oi-cc-search-");
  const opened = claudeCodeHarness.open(harnessContext({ cwd: dir, scratchDir: path.join(dir, ".scratch") }));
  const tools = opened.tools;
  call = toolRunner(tools, toolContext(dir));
});

/** Writes a file whose mtime is `age` seconds in the past. */
const file = (name: string, content: string, age = 0) => writeFileAt(dir, name, content, age);

describe("Bash", () => {
  it("returns the output trimmed, and nothing when there is none (2.1.44)", async () => {
    expect(await call("Bash", { command: "printf '\\n\\nhello\\n\\n'" })).toMatchObject({
      output: "hello",
      isError: false,
    });
    expect(await call("Bash", { command: "true" })).toMatchObject({ output: "", isError: false });
  });

  it("leads a failure with its exit code, then stderr, then stdout, as 2.1.44 does", async () => {
    expect(await call("Bash", { command: "printf 'line1\\nline2\\n'; echo err >&2; exit 3" })).toMatchObject({
      output: "Exit code 3\nerr\n\nline1\nline2",
      isError: true,
    });
    expect(await call("Bash", { command: "echo boom >&2; exit 3" })).toMatchObject({
      output: "Exit code 3\nboom",
      isError: true,
    });
  });

  it("saves output above 30000 characters to a file and shows a 2 KB preview", async () => {
    const { output } = await call("Bash", { command: "seq 1 100000" });
    const match =
      /^<persisted-output>\nOutput too large \(575\.1KB\)\. Full output saved to: (\S+)\n\nPreview \(first 2KB\):\n([\s\S]*)\n\.\.\.\n<\/persisted-output>$/.exec(
        output,
      );
    expect(match, output.slice(0, 300)).not.toBeNull();
    const [, saved, preview] = match!;
    expect(saved!.startsWith(path.join(dir, ".scratch", "tool-results", "bash-"))).toBe(true);
    expect(readFileSync(saved!, "utf8").split("\n")).toHaveLength(100_000);
    expect(preview).toBe(Array.from({ length: 527 }, (_, i) => i + 1).join("\n"));
  });

  it("stops a command at its timeout with exit code 143", async () => {
    expect(await call("Bash", { command: "echo start; sleep 5", timeout: 1000 })).toMatchObject({
      output: "Exit code 143\nstart\nCommand timed out after 1s",
      isError: true,
    });
  });
});

describe("Glob", () => {
  it("lists absolute paths, oldest change first", async () => {
    const older = file("src/a.ts", "", 20);
    const newer = file("src/b.ts", "", 10);
    file("notes.md", "");
    expect((await call("Glob", { pattern: "**/*.ts" })).output).toBe(`${older}\n${newer}`);
    expect((await call("Glob", { pattern: "*.py" })).output).toBe("No files found");
  });
});

describe("Grep", () => {
  beforeEach(() => {
    file("a.ts", "const foo = 1;\nfoo();\n", 20);
    file("b.ts", "export { foo };\n", 10);
    file("c.ts", "nothing here\n", 5);
  });

  it("lists matching files, newest first, after a count", async () => {
    expect((await call("Grep", { pattern: "foo" })).output).toBe(
      `Found 2 files\n${path.join(dir, "b.ts")}\n${path.join(dir, "a.ts")}`,
    );
    expect((await call("Grep", { pattern: "zzz" })).output).toBe("No files found");
  });

  it("shows matching lines in content mode", async () => {
    const { output } = await call("Grep", { pattern: "foo\\(", output_mode: "content", "-n": true });
    expect(output).toMatch(/a\.ts:2:foo\(\);$/);
    // Numbered unless `-n` is false, as in Claude Code 2.1.44.
    expect((await call("Grep", { pattern: "foo\\(", output_mode: "content" })).output).toBe(output);
    expect((await call("Grep", { pattern: "foo\\(", output_mode: "content", "-n": false })).output).toMatch(
      /a\.ts:foo\(\);$/,
    );
    expect((await call("Grep", { pattern: "zzz", output_mode: "content" })).output).toBe("No matches found");
  });

  it("skips `offset` entries before `head_limit`, and takes `context` like -C", async () => {
    const all = (await call("Grep", { pattern: "foo" })).output.split("\n").slice(1);
    expect((await call("Grep", { pattern: "foo", offset: 1, head_limit: 1 })).output).toBe(
      `Found 1 file\n${all[1]}`,
    );
    const { output } = await call("Grep", { pattern: "^foo", output_mode: "content", context: 1 });
    expect(output).toContain("const foo = 1;");
  });

  it("totals the counts in count mode", async () => {
    const { output } = await call("Grep", { pattern: "foo", output_mode: "count" });
    const [counts, summary] = output.split("\n\n");
    expect(counts!.split("\n").sort()).toEqual(["a.ts:2", "b.ts:1"]);
    expect(summary).toBe("Found 3 total occurrences across 2 files.");
  });
});

describe("TodoWrite", () => {
  it("confirms with Claude Code's text and hands the list to the editor as a plan", async () => {
    const todos = [
      { content: "Fix add", status: "in_progress", activeForm: "Fixing add" },
      { content: "Run tests", status: "pending", activeForm: "Running tests" },
    ];
    expect(await call("TodoWrite", { todos })).toEqual({
      output: TODOS_UPDATED,
      plan: [
        { content: "Fix add", status: "in_progress", priority: "medium" },
        { content: "Run tests", status: "pending", priority: "medium" },
      ],
    });
  });
});
