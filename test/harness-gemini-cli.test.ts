import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { geminiCliHarness } from "../src/harnesses/gemini-cli/gemini-cli-harness.js";
import { toolFamily } from "../src/harnesses/gemini-cli/tool-family.js";
import type { Tool } from "../src/tools/types.js";
import { harnessWorkspace } from "./support/harness-fixtures.js";

/** A temp workspace with the harness's tools built for `model`. */
function setup(model = "gemini-2.5-flash") {
  const ws = harnessWorkspace(geminiCliHarness, {
    prefix: "oi-gc-",
    context: { model, currentDate: "2026-08-21", isGitRepo: false },
  });
  return { ...ws, tools: ws.tools() };
}

const surface = (tools: Tool[]) => tools.map((t) => ({ name: t.name, parameters: t.parameters }));

describe("Gemini CLI tool surface", () => {
  it("has Gemini CLI 0.61's tools per family, in registration order, with the schemas upstream declares", async () => {
    const shared = [
      "list_directory",
      "read_file",
      "grep_search",
      "glob",
      "replace",
      "write_file",
      "web_fetch",
      "run_shell_command",
      "list_background_processes",
      "read_background_output",
      "google_web_search",
    ];
    const legacy = setup("gemini-2.5-flash").tools;
    expect(legacy.map((t) => t.name)).toEqual([...shared, "write_todos", "enter_plan_mode", "invoke_agent"]);
    expect(setup("qwen3-coder").tools.map((t) => t.name)).toEqual([
      ...shared,
      "write_todos",
      "enter_plan_mode",
      "invoke_agent",
    ]);
    expect(setup("gemini-3-pro-preview").tools.map((t) => t.name)).toEqual([
      ...shared,
      "enter_plan_mode",
      "invoke_agent",
    ]);
    await expect(JSON.stringify(surface(legacy), null, 2)).toMatchFileSnapshot(
      "golden/gemini-cli/tools.default-legacy.json",
    );
    await expect(
      JSON.stringify(surface(setup("google/gemini-3-flash-preview").tools), null, 2),
    ).toMatchFileSnapshot("golden/gemini-cli/tools.gemini-3.json");
  });

  it("describes every tool, with the Gemini 3 wording for Gemini 3 models", () => {
    const legacy = setup("gemini-2.5-pro").tools;
    const modern = setup("gemini-3-pro-preview").tools;
    for (const tool of [...legacy, ...modern]) expect(tool.description.length).toBeGreaterThan(40);
    const read = (tools: Tool[]) => tools.find((t) => t.name === "read_file")!.description;
    expect(read(legacy)).toContain("'start_line' and 'end_line'");
    expect(read(modern)).toContain("2000 lines, 2000 characters per line, or 20MB");
    expect(toolFamily("gemini-3.1-flash-lite")).toBe("gemini-3");
    expect(toolFamily("gemini-2.5-flash")).toBe("default-legacy");
    expect(toolFamily("qwen3-coder")).toBe("default-legacy");
  });

  it("is chosen for Gemini models", () => {
    expect(geminiCliHarness.matches("gemini-2.5-flash")).toBe(true);
    expect(geminiCliHarness.matches("google/gemini-3-pro-preview")).toBe(true);
    expect(geminiCliHarness.matches("gpt-5")).toBe(false);
  });
});

describe("read_file", () => {
  it("returns the text as it is, without line numbers", async () => {
    const { run, file } = setup();
    file("a.txt", "one\ntwo\n");
    expect((await run("read_file", { file_path: "a.txt" })).output).toBe("one\ntwo\n");
  });

  it("names the next start_line when a read is cut at 2000 lines", async () => {
    const { run, file } = setup();
    file("big.txt", Array.from({ length: 2100 }, (_, i) => `line ${i + 1}`).join("\n"));
    const { output } = await run("read_file", { file_path: "big.txt" });
    expect(
      output.startsWith(
        "\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines 1-2000 of 2100 total lines.\nAction: To read more of the file, you can use the 'start_line' and 'end_line' parameters in a subsequent 'read_file' call. For example, to read the next section of the file, use start_line: 2001.\n\n--- FILE CONTENT (truncated) ---\nline 1\nline 2\n",
      ),
    ).toBe(true);
    expect(output.endsWith("\nline 2000")).toBe(true);
    const range = await run("read_file", { file_path: "big.txt", start_line: 2099, end_line: 2100 });
    expect(range.output).toContain("Status: Showing lines 2099-2100 of 2100 total lines.");
    expect(range.output).toContain(
      "use start_line: 2101.\n\n--- FILE CONTENT (truncated) ---\nline 2099\nline 2100",
    );
  });

  it("shortens lines over 2000 characters", async () => {
    const { run, file } = setup();
    file("long.txt", `${"x".repeat(2500)}\n`);
    const { output } = await run("read_file", { file_path: "long.txt" });
    expect(output).toContain(`\n${"x".repeat(2000)}... [truncated]\n`);
    expect(output).toContain("Status: Showing lines 1-2 of 2 total lines.");
  });

  it("reports errors the way Gemini CLI words them", async () => {
    const { run, cwd, file } = setup();
    expect(await run("read_file", { file_path: "nope.txt" })).toEqual({
      output: `File not found: ${path.join(cwd, "nope.txt")}`,
      isError: true,
    });
    file("a.txt", "x");
    expect((await run("read_file", { file_path: "a.txt", start_line: 5, end_line: 2 })).output).toBe(
      "start_line cannot be greater than end_line",
    );
    writeFileSync(path.join(cwd, "bin.dat"), Buffer.from([0, 1, 2, 3]));
    expect((await run("read_file", { file_path: "bin.dat" })).output).toBe(
      "Cannot display content of binary file: bin.dat",
    );
  });
});

describe("write_file", () => {
  it("creates and overwrites with Gemini's messages and the updated code", async () => {
    const { run, cwd } = setup();
    const target = path.join(cwd, "src/new.ts");
    expect((await run("write_file", { file_path: "src/new.ts", content: "a\nb\n" })).output).toBe(
      `Successfully created and wrote to new file: ${target}. Here is the updated code:\na\nb\n`,
    );
    const lines = Array.from({ length: 20 }, (_, i) => `l${i + 1}`);
    await run("write_file", { file_path: "src/new.ts", content: `${lines.join("\n")}\n` });
    lines[9] = "changed";
    const { output } = await run("write_file", { file_path: target, content: `${lines.join("\n")}\n` });
    expect(output).toBe(
      `Successfully overwrote file: ${target}. Here is the updated code:\n...\nl5\nl6\nl7\nl8\nl9\nchanged\nl11\nl12\nl13\nl14\nl15\n...`,
    );
    expect(readFileSync(target, "utf8")).toContain("changed\n");
  });

  it("refuses omission placeholders", async () => {
    const { run } = setup();
    expect(
      await run("write_file", { file_path: "a.ts", content: "class A {\n  // rest of methods ...\n}\n" }),
    ).toEqual({
      output:
        "`content` contains an omission placeholder (for example 'rest of methods ...'). Provide complete file content.",
      isError: true,
    });
  });
});
