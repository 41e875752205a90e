import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { claudeCodeHarness } from "../src/harnesses/claude-code/claude-code-harness.js";
import { LS_NOTE } from "../src/harnesses/claude-code/tools/ls.js";
import { TODOS_UPDATED } from "../src/harnesses/claude-code/tools/todo-write.js";
import { BACKGROUND_UNSUPPORTED } from "../src/harnesses/shared/claude-code-core/tools/bash.js";
import type { ToolResult } from "../src/tools/types.js";
import { harnessContext, tempDir, toolContext, toolRunner, writeFileAt } from "./support/harness-fixtures.js";

let dir: string;
let call: (name: string, args: object) => Promise<ToolResult>;

beforeEach(() => {
  dir = tempDir("oi-cc-search-");
  const opened = claudeCodeHarness.open(harnessContext({ cwd: dir }));
  const tools = opened.tools;
  call = toolRunner(tools, toolContext(dir));
});

/** Writes a file whose mtime is `age` seconds in the past. */
const file = (name: string, content: string, age = 0) => writeFileAt(dir, name, content, age);

describe("Bash", () => {
  it("returns the output trimmed, or Claude Code's note when there is none", async () => {
    expect(await call("Bash", { command: "printf '\\n\\nhello\\n\\n'" })).toMatchObject({
      output: "hello",
      isError: false,
    });
    expect((await call("Bash", { command: "true" })).output).toBe("(Bash completed with no output)");
  });

  it("leads a failure with its exit code", async () => {
    expect(await call("Bash", { command: "echo boom >&2; exit 3" })).toMatchObject({
      output: "Exit code 3\nboom",
      isError: true,
    });
  });

  it("keeps the first 30000 characters and counts the lines cut", async () => {
    // 5000 lines of 11 characters: the cut falls inside line 2728, so 2273 lines are (partly) left out.
    const { output } = await call("Bash", { command: "yes 0123456789 | head -n 5000" });
    const kept = "0123456789\n".repeat(5000).slice(0, 30_000);
    expect(output).toBe(`${kept}\n\n... [2273 lines truncated] ...`);
  });

  it("stops a command at its timeout with exit code 143", async () => {
    expect(await call("Bash", { command: "echo start; sleep 5", timeout: 1000 })).toMatchObject({
      output: "Exit code 143\nstart\nCommand timed out after 1s",
      isError: true,
    });
  });

  it("refuses background runs with an explanation", async () => {
    expect((await call("Bash", { command: "sleep 100", run_in_background: true })).output).toBe(
      `<tool_use_error>${BACKGROUND_UNSUPPORTED}</tool_use_error>`,
    );
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
    expect((await call("Grep", { pattern: "zzz", output_mode: "content" })).output).toBe("No matches found");
  });

  it("totals the counts in count mode", async () => {
    const { output } = await call("Grep", { pattern: "foo", output_mode: "count" });
    const [counts, summary] = output.split("\n\n");
    expect(counts!.split("\n").sort()).toEqual(["a.ts:2", "b.ts:1"]);
    expect(summary).toBe("Found 3 total occurrences across 2 files.");
  });
});

describe("LS", () => {
  it("prints the tree under an absolute root, skipping hidden entries", async () => {
    file("README.md", "");
    file("src/index.ts", "");
    file(".env", "");
    expect((await call("LS", { path: dir })).output).toBe(
      `- ${dir}/\n  - README.md\n  - src/\n    - index.ts\n${LS_NOTE}`,
    );
    expect((await call("LS", { path: dir, ignore: ["*.md"] })).output).toBe(
      `- ${dir}/\n  - src/\n    - index.ts\n${LS_NOTE}`,
    );
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
