import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { folderStructure } from "../src/harnesses/gemini-cli/folder-structure.js";
import { geminiCliHarness } from "../src/harnesses/gemini-cli/gemini-cli-harness.js";
import { longDate } from "../src/harnesses/shared/gemini-core/long-date.js";
import type { HarnessContext } from "../src/harnesses/types.js";
import type { HistoryEvent } from "../src/store/events.js";
import { chatView, firstRequest, harnessWorkspace, tempDir } from "./support/harness-fixtures.js";

/** A temp workspace; the harness's tools are built on the first `run`. */
const setup = (overrides: Partial<HarnessContext> = {}) =>
  harnessWorkspace(geminiCliHarness, {
    prefix: "oi-gc-",
    context: { model: "gemini-2.5-flash", currentDate: "2026-08-21", isGitRepo: false, ...overrides },
  });

describe("grep_search, glob and list_directory", () => {
  it("groups matches per file and widens a small result with context lines", async () => {
    const { run, file } = setup();
    file("src/a.ts", "const a = 1;\nexport function alpha() {}\nconst z = 2;\n");
    file("src/b.ts", "export function beta() {}\n");
    expect((await run("grep_search", { pattern: "export function" })).output).toBe(
      'Found 2 matches for pattern "export function" in path ".":\n---\nFile: src/a.ts\nL1- const a = 1;\nL2: export function alpha() {}\nL3- const z = 2;\n---\nFile: src/b.ts\nL1: export function beta() {}\n---',
    );
    expect((await run("grep_search", { pattern: "FUNCTION", names_only: true })).output).toBe(
      'Found 2 files with matches for pattern "FUNCTION" in path ".":\nsrc/a.ts\nsrc/b.ts',
    );
    expect((await run("grep_search", { pattern: "alpha", dir_path: "src/a.ts", context: 0 })).output).toBe(
      'Found 1 match for pattern "alpha" in path "src/a.ts":\n---\nFile: a.ts\nL2: export function alpha() {}\n---',
    );
    expect(
      (await run("grep_search", { pattern: "FUNCTION", case_sensitive: true, dir_path: "src" })).output,
    ).toBe('No matches found for pattern "FUNCTION" in path "src".');
  });

  it("caps matches at total_max_matches and says so", async () => {
    const { run, file } = setup();
    file("many.txt", Array.from({ length: 8 }, (_, i) => `hit ${i}`).join("\n"));
    const { output } = await run("grep_search", { pattern: "hit", total_max_matches: 5 });
    expect(output.split("\n")[0]).toBe(
      'Found 5 matches for pattern "hit" in path "." (results limited to 5 matches for performance):',
    );
    expect(output).toContain("L5: hit 4\n---");
    expect(output).not.toContain("hit 5");
  });

  it("lists files and folders the way Gemini CLI does", async () => {
    const { run, file, cwd } = setup();
    file("b.txt", "12345");
    file("lib/x.js", "");
    expect((await run("glob", { pattern: "**/*.txt" })).output).toBe(
      `Found 1 file(s) matching "**/*.txt" within ${cwd}, sorted by modification time (newest first):\n${path.join(cwd, "b.txt")}`,
    );
    expect((await run("glob", { pattern: "*.md" })).output).toBe(
      `No files found matching pattern "*.md" within ${cwd}`,
    );
    expect((await run("list_directory", { dir_path: "." })).output).toBe(
      `Directory listing for ${cwd}:\n[DIR] lib\nb.txt (5 bytes)`,
    );
    mkdirSync(path.join(cwd, "empty"));
    expect((await run("list_directory", { dir_path: "empty" })).output).toBe(
      `Directory ${path.join(cwd, "empty")} is empty.`,
    );
    expect((await run("list_directory", { dir_path: "b.txt" })).output).toBe(
      `Error: Path is not a directory: ${path.join(cwd, "b.txt")}`,
    );
  });
});

describe("request layout", () => {
  it("sends the system prompt, then one user message: the <session_context> with AGENTS.md, then the prompt", () => {
    const { ctx, file } = setup({
      model: "gemini-3-pro-preview",
      instructions: "Always run the tests.",
      isGitRepo: true,
      sandboxed: true,
      mode: "full-access",
    });
    file("package.json", "{}");
    file("src/index.ts", "");
    mkdirSync(path.join(ctx.cwd, "node_modules/pkg"), { recursive: true });
    const opened = geminiCliHarness.open(ctx);
    const tools = opened.tools;
    const history: HistoryEvent[] = [
      { type: "user_message", turnId: "t1", content: [{ type: "text", text: "Hi" }] },
    ];
    const request = chatView(opened.render({ history, tools, ctx }));
    const [system, first, ...rest] = request.messages;
    expect(rest).toEqual([]);
    expect(system?.role).toBe("system");
    const prompt = system!.content as string;
    expect(prompt.startsWith("You are Gemini CLI, an interactive CLI agent")).toBe(true);
    expect(prompt).toContain("You are currently operating in **YOLO** mode.");
    const sections = prompt.split("\n").filter((line) => /^#{1,2} /.test(line));
    expect(sections).toEqual([
      "# Core Mandates",
      "## Security & System Integrity",
      "## Context Efficiency:",
      "## Engineering Standards",
      "# Primary Workflows",
      "## Development Lifecycle",
      "## New Applications",
      "# Operational Guidelines",
      "## Tone and Style",
      "## Security and Safety Rules",
      "## Tool Usage",
      "## Interaction Details",
      "# Autonomous Mode (YOLO)",
      "# Git Repository",
    ]);
    expect(prompt).not.toContain("{{");
    expect(prompt).not.toContain("Always run the tests.");
    expect(first?.role).toBe("user");
    const [context, user] = first!.content as Array<{ type: string; text: string }>;
    expect(user).toEqual({ type: "text", text: "Hi" });
    expect(context).toEqual({
      type: "text",
      text: `<session_context>
This is the Gemini CLI. We are setting up the context for our chat.
Today's date is Friday, August 21, 2026 (formatted according to the user's locale).
My operating system is: linux
The project's temporary directory is: ${ctx.scratchDir}
- **Workspace Directories:**
  - ${ctx.cwd}
- **Directory Structure:**

Showing up to 200 items (files + folders). Folders or files indicated with ... contain more items not shown, were ignored, or the display limit (200 items) was reached.

${ctx.cwd}/
├───package.json
├───node_modules/...
└───src/
    └───index.ts


<loaded_context>
<project_context>
--- Context from: AGENTS.md ---
Always run the tests.
--- End of Context from: AGENTS.md ---
</project_context>
</loaded_context>
</session_context>`,
    });
    expect(request.knobs).toEqual({ temperature: 1, top_p: 0.95 });
    expect(request.tools.map((t) => t.function.name)).toContain("replace");
  });

  it("keeps the session context fixed for the whole session", () => {
    const { ctx, file } = setup();
    const opened = geminiCliHarness.open(ctx);
    const tools = opened.tools;
    const first = chatView(opened.render({ history: [], tools, ctx })).messages[1];
    file("later.txt", "created mid-session");
    expect(chatView(opened.render({ history: [], tools, ctx })).messages[1]).toEqual(first);
    expect(JSON.stringify(first)).not.toContain("later.txt");
  });

  it("sends other models Gemini CLI's legacy layout, with the sandbox section and a final reminder", () => {
    for (const [model, sandboxed, sandbox] of [
      ["gemini-2.5-flash", false, "# Outside of Sandbox"],
      ["qwen3-coder", true, "# Sandbox"],
    ] as const) {
      const { ctx } = setup({ model, sandboxed, isGitRepo: true });
      const prompt = firstRequest(geminiCliHarness, ctx, []).messages[0]!.content as string;
      expect(prompt.startsWith("You are Gemini CLI, an interactive CLI agent")).toBe(true);
      expect(prompt.split("\n").filter((line) => /^#{1,2} /.test(line))).toEqual([
        "# Core Mandates",
        "# Primary Workflows",
        "## Software Engineering Tasks",
        "## New Applications",
        "# Operational Guidelines",
        "## Shell tool output token efficiency:",
        "## Tone and Style (CLI Interaction)",
        "## Security and Safety Rules",
        "## Tool Usage",
        "## Interaction Details",
        sandbox,
        "# Git Repository",
        "# Final Reminder",
      ]);
      expect(prompt).not.toContain("{{");
    }
  });

  it("names write_todos only in the prompt of the family that has it", () => {
    const legacy = firstRequest(geminiCliHarness, setup().ctx, []);
    const modern = firstRequest(geminiCliHarness, setup({ model: "gemini-3-flash-preview" }).ctx, []);
    expect(legacy.messages[0]!.content).toContain("`write_todos`");
    expect(modern.messages[0]!.content).not.toContain("write_todos");
    expect(modern.tools.map((t) => t.function.name)).not.toContain("write_todos");
  });

  it("drops the git and autonomous sections when they do not apply", () => {
    const { ctx } = setup();
    const prompt = firstRequest(geminiCliHarness, ctx, []).messages[0]!.content as string;
    expect(prompt).toContain("operating in **Auto-Edit** mode");
    expect(prompt).not.toContain("# Git Repository");
    expect(prompt).not.toContain("# Autonomous Mode");
  });

  it("lists skills in Gemini CLI's <available_skills> block after the mandates", () => {
    const { ctx } = setup({
      skills: [{ name: "release", description: "Cut a release", path: "/skills/release/SKILL.md" }],
    });
    const prompt = firstRequest(geminiCliHarness, ctx, []).messages[0]!.content as string;
    expect(prompt).toContain(
      "<available_skills>\n  <skill>\n    <name>release</name>\n    <description>Cut a release</description>\n    <location>/skills/release/SKILL.md</location>\n  </skill>\n</available_skills>",
    );
    expect(prompt.indexOf("# Available Agent Skills")).toBeGreaterThan(prompt.indexOf("# Core Mandates"));
    expect(prompt.indexOf("# Available Agent Skills")).toBeLessThan(prompt.indexOf("# Primary Workflows"));
    expect(prompt).toContain("- **Skill Guidance:**");
    const modern = firstRequest(geminiCliHarness, { ...ctx, model: "gemini-3-pro-preview" }, []);
    const prompt3 = modern.messages[0]!.content as string;
    expect(prompt3.indexOf("# Available Agent Skills")).toBeGreaterThan(
      prompt3.indexOf("## Engineering Standards"),
    );
    expect(prompt3.indexOf("# Available Agent Skills")).toBeLessThan(prompt3.indexOf("# Primary Workflows"));
  });

  it("caps the folder tree at 200 items", () => {
    const dir = tempDir("oi-gc-tree-");
    for (let i = 0; i < 210; i++) writeFileSync(path.join(dir, `f${String(i).padStart(3, "0")}.txt`), "");
    const tree = folderStructure(dir).split("\n");
    // As upstream: the last file before the "..." marker still gets the closing connector.
    expect(tree.slice(-2)).toEqual(["└───f199.txt", "└───..."]);
  });
});

describe("longDate", () => {
  it("writes dates as Gemini CLI's en-US toLocaleDateString does, across years and leap days", () => {
    const options = {
      timeZone: "UTC",
      weekday: "long",
      year: "numeric",
      month: "long",
      day: "numeric",
    } as const;
    const start = Date.UTC(2023, 11, 1);
    for (let day = 0; day < 800; day += 3) {
      const date = new Date(start + day * 86_400_000);
      const iso = date.toISOString().slice(0, 10);
      expect(longDate(iso), iso).toBe(date.toLocaleDateString("en-US", options));
    }
    expect(longDate("2024-02-29")).toBe("Thursday, February 29, 2024");
    expect(longDate("not a date")).toBe("not a date");
  });
});
