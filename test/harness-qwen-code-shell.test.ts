import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { qwenCodeHarness } from "../src/harnesses/qwen-code/qwen-code-harness.js";
import { formatShellResult } from "../src/harnesses/qwen-code/tools/run-shell-command.js";
import type { HarnessContext } from "../src/harnesses/types.js";
import { execResult, harnessWorkspace } from "./support/harness-fixtures.js";

/** A temp workspace; the harness's tools are built on the first `run`. */
const setup = (overrides: Partial<HarnessContext> = {}) =>
  harnessWorkspace(qwenCodeHarness, {
    prefix: "oi-qc-",
    context: { model: "qwen3-coder-plus", currentDate: "2026-08-21", isGitRepo: false, ...overrides },
  });

describe("run_shell_command", () => {
  const result = execResult;

  it("answers with Qwen's seven lines", async () => {
    const { run, cwd } = setup();
    mkdirSync(path.join(cwd, "sub"));
    expect(
      (await run("run_shell_command", { command: "echo hi; exit 3", directory: path.join(cwd, "sub") }))
        .output,
    ).toBe(
      `Command: echo hi; exit 3\nDirectory: ${path.join(cwd, "sub")}\nOutput: hi\nError: (none)\nExit Code: 3\nSignal: (none)\nProcess Group PGID: (none)`,
    );
    expect(
      formatShellResult({ command: "sleep 9" }, result({ exitCode: null, timedOut: true }), 120_000),
    ).toBe(
      "Command timed out after 120000ms before it could complete. There was no output before it timed out.",
    );
    expect(
      formatShellResult({ command: "x" }, result({ exitCode: null, signal: "SIGTERM", output: "a\n" }), 1),
    ).toBe(
      "Command: x\nDirectory: (root)\nOutput: a\nError: (none)\nExit Code: (none)\nSignal: 15\nProcess Group PGID: (none)",
    );
  });

  it("validates timeout and directory as Qwen does", async () => {
    const { run } = setup();
    expect((await run("run_shell_command", { command: "ls", timeout: 700_000 })).output).toBe(
      "Timeout cannot exceed 600000ms (10 minutes).",
    );
    expect((await run("run_shell_command", { command: "ls", directory: "sub" })).output).toBe(
      "Directory must be an absolute path.",
    );
    expect((await run("run_shell_command", { command: "ls", directory: "/" })).output).toBe(
      "Directory '/' is not within any of the registered workspace directories.",
    );
  });

  it("spills output over 1 000 lines to a file with head and tail around Qwen's marker", async () => {
    const { run, ctx } = setup();
    const { output } = await run("run_shell_command", { command: "seq 1 3000" });
    const lines = output.split("\n");
    expect(lines.slice(0, 3)).toEqual([
      "Tool output was too large and has been truncated.",
      expect.stringMatching(
        new RegExp(
          `^The full output has been saved to: ${ctx.scratchDir}/run_shell_command_[0-9a-f]{12}\\.output$`,
        ),
      ),
      "To read the complete output, use the read_file tool with the absolute file path above.",
    ]);
    const saved = lines[1]!.slice("The full output has been saved to: ".length);
    expect(readFileSync(saved, "utf8")).toMatch(/^Command: seq 1 3000\nDirectory: \(root\)\nOutput: 1\n2\n/);
    expect(output).toContain("\nTruncated part of the output:\nCommand: seq 1 3000\n");
    expect(output).toContain("\n\n---\n... [CONTENT TRUNCATED] ...\n---\n\n");
    // 0.24.4 shows 4 000 characters of a spilled shell output, marker included, not cut by lines.
    const preview = output.slice(output.indexOf("Truncated part of the output:\n") + 30);
    expect(preview.length).toBeLessThanOrEqual(4000);
    expect(preview.length).toBeGreaterThan(3990);
    expect(
      output.endsWith("\n3000\nError: (none)\nExit Code: 0\nSignal: (none)\nProcess Group PGID: (none)"),
    ).toBe(true);
  });
});
