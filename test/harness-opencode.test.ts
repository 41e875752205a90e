import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { adoptOpencodeCall } from "../src/harnesses/opencode/adopt-opencode-call.js";
import { opencodeHarness } from "../src/harnesses/opencode/opencode-harness.js";
import { opencodeTopP } from "../src/harnesses/opencode/sampling.js";
import { opencodeSystemPrompt } from "../src/harnesses/opencode/system-prompt.js";
import { chatView, harnessContext, tempDir, toolContext, toolRunner } from "./support/harness-fixtures.js";

function workspace(overrides: Parameters<typeof harnessContext>[0] = {}) {
  const cwd = tempDir("oi-opencode-");
  const scratchDir = path.join(cwd, ".scratch");
  const opened = opencodeHarness.open(harnessContext({ cwd, scratchDir, ...overrides }));
  const call = toolRunner(opened.tools, toolContext(cwd));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true });
    writeFileSync(path.join(cwd, file), text);
  };
  const read = (file: string) => readFileSync(path.join(cwd, file), "utf8");
  return { cwd, scratchDir, call, write, read, tools: opened.tools };
}

describe("opencode tool surface", () => {
  it("offers opencode 1.18.33's tools in its order", () => {
    const { tools } = workspace();
    expect(tools.map((t) => t.name)).toEqual([
      "bash",
      "edit",
      "glob",
      "grep",
      "read",
      "skill",
      "task",
      "todowrite",
      "webfetch",
      "write",
    ]);
    expect(opencodeHarness.original).toEqual({
      name: "opencode",
      source: "npm:opencode-ai",
      version: "1.18.33",
    });
  });

  it("sends one system message, plain-string user text, tool_choice auto and max_tokens 32000", () => {
    const ctx = harnessContext();
    const opened = opencodeHarness.open(ctx);
    const request = chatView(opened.render({ history: [], tools: opened.tools, ctx }));
    expect(request.messages[0]).toEqual({ role: "system", content: opencodeSystemPrompt(ctx) });
    expect(request.tools.map((t) => t.function.strict)).toEqual(Array(10).fill(undefined));
    expect(request.knobs).toMatchObject({ max_tokens: 32000, tool_choice: "auto" });
  });
});

describe("opencode system prompt", () => {
  it("puts the environment after the prompt, then AGENTS.md, then the skills, one newline apart", () => {
    const system = opencodeSystemPrompt(
      harnessContext({
        model: "mock-model",
        instructions: "Run npm test before answering.",
        skills: [
          {
            name: "release-notes",
            description: "Drafts <notes>",
            path: "/home/u/skills/release-notes/SKILL.md",
          },
        ],
      }),
    );
    expect(system).toMatch(/^You are opencode, /);
    expect(system).toContain("\n# Tone and style\n");
    expect(system).toContain(
      [
        "</example>\n",
        "You are powered by the model named mock-model. The exact model ID is openai-compatible/mock-model",
        "Here is some useful information about the environment you are running in:",
        "<env>",
        "  Working directory: /work/project",
        "  Workspace root folder: /work/project",
        "  Is directory a git repo: yes",
        "  Platform: linux",
        "  Today's date: Sun Mar 01 2026",
        "</env>",
        "Instructions from: /work/project/AGENTS.md",
        "Run npm test before answering.",
        "Skills provide specialized instructions and workflows for specific tasks.",
        "Use the skill tool to load a skill when a task matches its description.",
        "<available_skills>",
        "  <skill>",
        "    <name>release-notes</name>",
        "    <description>Drafts <notes></description>",
        "    <location>/home/u/skills/release-notes/SKILL.md</location>",
        "  </skill>",
        "</available_skills>",
      ].join("\n"),
    );
    expect(system.endsWith("</available_skills>")).toBe(true);
  });

  it("picks the prompt of the model's family in 1.18.33's order, else the default", () => {
    expect(opencodeSystemPrompt(harnessContext({ model: "claude-sonnet-4-5" }))).toMatch(
      /^You are OpenCode, a coding agent second to none\.\n[\s\S]*\n# Professional objectivity\n/,
    );
    expect(opencodeSystemPrompt(harnessContext({ model: "Kimi-K2-Instruct" }))).toMatch(
      /^You are OpenCode, an interactive general-purpose AI agent[\s\S]*\n# Ultimate Reminders\n/,
    );
    expect(opencodeSystemPrompt(harnessContext({ model: "openai/gpt-oss-120b" }))).toMatch(
      /^You are OpenCode, You work in the same workspace[\s\S]*\n### `final` channel\n/,
    );
    expect(opencodeSystemPrompt(harnessContext({ model: "gpt-6" }))).toMatch(/\n# Delegation\n/);
    expect(opencodeSystemPrompt(harnessContext({ model: "arcee-ai/Trinity-Large" }))).toContain(
      "- Use exactly one tool per assistant message.",
    );
    expect(opencodeSystemPrompt(harnessContext({ model: "gpt-5.1-codex" }))).toMatch(
      /\n## Final answer structure and style guidelines\n/,
    );
    for (const model of ["gpt-4.1", "o3-mini", "kimi-o3"])
      expect(opencodeSystemPrompt(harnessContext({ model }))).toMatch(
        /^You are opencode, an agent: keep going/,
      );
    expect(opencodeSystemPrompt(harnessContext({ model: "gemini-2.5-pro" }))).toMatch(/\n# Final Reminder\n/);
    expect(opencodeSystemPrompt(harnessContext({ model: "muse-glimmer" }))).toMatch(
      /^You are OpenCode, a coding agent [^\n]* You run on Muse Glimmer, /,
    );
    expect(opencodeSystemPrompt(harnessContext({ model: "muse-spark" }))).toContain("use Meta Muse Spark.");
    for (const model of ["mock-model", "qwen3-coder", "deepseek-chat"])
      expect(opencodeSystemPrompt(harnessContext({ model }))).toMatch(/^You are opencode, /);
  });

  it("sends 1.18.33's top_p for the models it tunes, and none for the rest", () => {
    for (const model of ["gemini-2.5-pro", "gemini-3-pro-preview", "MiniMax-M2", "kimi-k2.5"])
      expect(opencodeTopP(model)).toBe(0.95);
    for (const model of ["gemini-2.0-flash", "gemini-3.5-flash-lite", "kimi-k2-0905-preview", "mock-model"])
      expect(opencodeTopP(model)).toBeUndefined();
  });

  it("says so when there are no skills", () => {
    expect(opencodeSystemPrompt(harnessContext())).toMatch(
      /\nUse the skill tool to load a skill when a task matches its description.\nNo skills are currently available.$/,
    );
  });
});

describe("opencode bash", () => {
  it("merges stdout and stderr and shows no exit status, as the capture's shell_exit3", async () => {
    const { call } = workspace();
    const result = await call("bash", { command: "printf 'line1\\nline2\\n'; echo err >&2; exit 3" });
    expect(result.output).toBe("line1\nline2\nerr\n");
    expect(result.isError).toBeFalsy();
    expect((await call("bash", { command: "true" })).output).toBe("(no output)");
    expect((await call("bash", { command: "echo turn2" })).output).toBe("turn2\n");
  });

  it("keeps the last 2,000 lines of a long output and saves the whole of it", async () => {
    const { call, scratchDir } = workspace();
    const { output } = await call("bash", { command: "seq 1 100000" });
    const head = /^\.\.\.output truncated\.\.\.\n\nFull output saved to: (\S+)\n\n98002\n98003\n/.exec(
      output,
    );
    expect(head).not.toBeNull();
    expect(output.endsWith("\n99999\n100000\n")).toBe(true);
    expect(output.split("\n").length).toBe(2000 + 4);
    const file = head![1]!;
    expect(file.startsWith(path.join(scratchDir, "tool-output", "tool_"))).toBe(true);
    expect(readFileSync(file, "utf8").split("\n").length).toBe(100001);
  });

  it("runs in workdir and tells a timeout in <shell_metadata>", async () => {
    const { call, cwd } = workspace();
    mkdirSync(path.join(cwd, "sub"));
    expect((await call("bash", { command: "pwd", workdir: "sub" })).output).toBe(
      `${path.join(cwd, "sub")}\n`,
    );
    const timed = await call("bash", { command: "echo started; sleep 5", timeout: 300 });
    expect(timed.output).toBe(
      "started\n\n\n<shell_metadata>\nshell tool terminated command after exceeding timeout 300 ms. If this command is expected to take longer and is not waiting for interactive input, retry with a larger timeout value in milliseconds.\n</shell_metadata>",
    );
  });
});

describe("opencode read", () => {
  it("numbers lines and closes with the total, as the capture's read_notes", async () => {
    const { call, write, cwd } = workspace();
    write("notes.txt", "alpha\nbeta\ngamma\ndelta\nepsilon\n");
    const file = path.join(cwd, "notes.txt");
    expect((await call("read", { filePath: file })).output).toBe(
      `<path>${file}</path>\n<type>file</type>\n<content>\n1: alpha\n2: beta\n3: gamma\n4: delta\n5: epsilon\n\n(End of file - total 5 lines)\n</content>`,
    );
    expect((await call("read", { filePath: "notes.txt", offset: 2, limit: 2 })).output).toBe(
      `<path>${file}</path>\n<type>file</type>\n<content>\n2: beta\n3: gamma\n\n(Showing lines 2-3 of 5. Use offset=4 to continue.)\n</content>`,
    );
    const beyond = await call("read", { filePath: file, offset: 9 });
    expect(beyond).toEqual({ output: "Offset 9 is out of range for this file (5 lines)", isError: true });
  });

  it("cuts long lines, caps at 50 KB, lists directories and suggests names for a miss", async () => {
    const { call, write, cwd } = workspace();
    write("long.txt", `${"x".repeat(2500)}\nshort\n`);
    const long = (await call("read", { filePath: "long.txt" })).output;
    expect(long).toContain(`1: ${"x".repeat(2000)}... (line truncated to 2000 chars)\n2: short\n`);
    write("big.txt", `${"y".repeat(999)}\n`.repeat(60));
    const big = (await call("read", { filePath: "big.txt" })).output;
    expect(big).toContain(
      "\n\n(Output capped at 50 KB. Showing lines 1-51. Use offset=52 to continue.)\n</content>",
    );
    mkdirSync(path.join(cwd, "src"));
    write("src/a.ts", "");
    mkdirSync(path.join(cwd, "src", "lib"));
    expect((await call("read", { filePath: "src" })).output).toBe(
      `<path>${path.join(cwd, "src")}</path>\n<type>directory</type>\n<entries>\na.ts\nlib/\n\n(2 entries)\n</entries>`,
    );
    expect(await call("read", { filePath: "lon" })).toEqual({
      output: `File not found: ${path.join(cwd, "lon")}\n\nDid you mean one of these?\n${path.join(cwd, "long.txt")}`,
      isError: true,
    });
    write("blob.bin", "abc");
    expect((await call("read", { filePath: "blob.bin" })).output).toBe(
      `Cannot read binary file: ${path.join(cwd, "blob.bin")}`,
    );
  });
});

describe("opencode edit and write", () => {
  it("replaces one occurrence, all with replaceAll, and answers with opencode's texts", async () => {
    const { call, write, read, cwd } = workspace();
    write("a.txt", "one two two\n");
    const file = path.join(cwd, "a.txt");
    expect(await call("edit", { filePath: file, oldString: "one", newString: "1" })).toMatchObject({
      output: "Edit applied successfully.",
    });
    expect(await call("edit", { filePath: file, oldString: "two", newString: "2" })).toEqual({
      output:
        "Found multiple matches for oldString. Provide more surrounding context to make the match unique.",
      isError: true,
    });
    expect(await call("edit", { filePath: file, oldString: "three", newString: "3" })).toEqual({
      output:
        "Could not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings.",
      isError: true,
    });
    expect(await call("edit", { filePath: file, oldString: "x", newString: "x" })).toEqual({
      output: "No changes to apply: oldString and newString are identical.",
      isError: true,
    });
    await call("edit", { filePath: file, oldString: "two", newString: "2", replaceAll: true });
    expect(read("a.txt")).toBe("1 2 2\n");
    expect(await call("edit", { filePath: "new.txt", oldString: "", newString: "fresh\n" })).toMatchObject({
      output: "Edit applied successfully.",
    });
    expect(read("new.txt")).toBe("fresh\n");
    expect(await call("edit", { filePath: "gone.txt", oldString: "a", newString: "b" })).toEqual({
      output: `File ${path.join(cwd, "gone.txt")} not found`,
      isError: true,
    });
  });

  it("writes a file with its parents", async () => {
    const { call, read } = workspace();
    expect(await call("write", { filePath: "deep/dir/x.txt", content: "x\n" })).toMatchObject({
      output: "Wrote file successfully.",
    });
    expect(read("deep/dir/x.txt")).toBe("x\n");
  });
});

describe("opencode glob, grep, skill and todowrite", () => {
  it("lists absolute paths, and grep groups matches by file", async () => {
    const { call, write, cwd } = workspace();
    write("src/a.ts", "const alpha = 1;\nconst beta = 2;\n");
    write("src/b.ts", "const alpha = 3;\n");
    const globbed = (await call("glob", { pattern: "**/*.ts" })).output.split("\n").sort();
    expect(globbed).toEqual([path.join(cwd, "src/a.ts"), path.join(cwd, "src/b.ts")]);
    expect((await call("glob", { pattern: "*.md" })).output).toBe("No files found");
    expect((await call("grep", { pattern: "alpha", include: "*.ts" })).output).toBe(
      `Found 2 matches\n${path.join(cwd, "src/a.ts")}:\n  Line 1: const alpha = 1;\n\n${path.join(cwd, "src/b.ts")}:\n  Line 1: const alpha = 3;`,
    );
    expect((await call("grep", { pattern: "gamma" })).output).toBe("No files found");
  });

  it("loads a skill into <skill_content> and names the known ones for an unknown name", async () => {
    const home = tempDir("oi-opencode-skill-");
    const dir = path.join(home, "release-notes");
    mkdirSync(path.join(dir, "scripts"), { recursive: true });
    writeFileSync(
      path.join(dir, "SKILL.md"),
      "---\nname: release-notes\ndescription: Drafts notes.\n---\n\nRead the log.\n",
    );
    writeFileSync(path.join(dir, "scripts", "draft.sh"), "echo\n");
    const skills = [
      { name: "release-notes", description: "Drafts notes.", path: path.join(dir, "SKILL.md") },
    ];
    const { call } = workspace({ skills });
    expect((await call("skill", { name: "release-notes" })).output).toBe(
      [
        '<skill_content name="release-notes">',
        "# Skill: release-notes",
        "",
        "Read the log.",
        "",
        `Base directory for this skill: ${dir}`,
        "Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.",
        "Note: file list is sampled.",
        "",
        "<skill_files>",
        `<file>${path.join(dir, "scripts", "draft.sh")}</file>`,
        "</skill_files>",
        "</skill_content>",
      ].join("\n"),
    );
    expect(await call("skill", { name: "nope" })).toEqual({
      output: 'Skill "nope" not found. Available skills: release-notes',
      isError: true,
    });
  });

  it("answers todowrite with the list as indented JSON and shows it as the plan", async () => {
    const { call } = workspace();
    const todos = [
      { content: "Fix add", status: "in_progress", priority: "high" },
      { content: "Old idea", status: "cancelled", priority: "low" },
    ];
    const result = await call("todowrite", { todos });
    expect(result.output).toBe(JSON.stringify(todos, null, 2));
    expect(result.plan).toEqual([{ content: "Fix add", status: "in_progress", priority: "high" }]);
  });
});

describe("opencode apply_patch (gpt- models)", () => {
  it("replaces edit and write for gpt-5 ids, not for gpt-oss or gpt-4, and asks gpt-5 to reason at medium", () => {
    const names = (model: string) => opencodeHarness.open(harnessContext({ model })).tools.map((t) => t.name);
    expect(names("gpt-5.5")).toEqual([
      "apply_patch",
      "bash",
      "glob",
      "grep",
      "read",
      "skill",
      "task",
      "todowrite",
      "webfetch",
    ]);
    expect(names("gpt-oss-120b")).toContain("edit");
    expect(names("gpt-4.1")).toContain("write");
    const ctx = harnessContext({ model: "gpt-5.5" });
    const opened = opencodeHarness.open(ctx);
    expect(chatView(opened.render({ history: [], tools: opened.tools, ctx })).knobs).toMatchObject({
      reasoning_effort: "medium",
    });
  });

  it("checks every hunk before writing, then lists the files as A/M/D lines", async () => {
    const { call, write, read, cwd } = workspace({ model: "gpt-5.5" });
    write("src/app.py", 'def greet():\n    print("Hi")\n');
    const bad = [
      "*** Begin Patch",
      "*** Add File: hello.txt",
      "+Hello",
      "*** Update File: src/app.py",
      "@@",
      "-missing line",
      "+x",
      "*** End Patch",
    ].join("\n");
    const failed = await call("apply_patch", { patchText: bad });
    expect(failed.isError).toBe(true);
    expect(failed.output).toMatch(
      /^apply_patch verification failed: Error: Failed to find expected lines in /,
    );
    expect(() => read("hello.txt")).toThrow();
    const good = [
      "*** Begin Patch",
      "*** Add File: hello.txt",
      "+Hello",
      "*** Update File: src/app.py",
      "*** Move to: src/main.py",
      "@@ def greet():",
      '-    print("Hi")',
      '+    print("Hello")',
      "*** End Patch",
    ].join("\n");
    expect((await call("apply_patch", { patchText: good })).output).toBe(
      "Success. Updated the following files:\nA hello.txt\nM src/main.py",
    );
    expect(read("src/main.py")).toBe('def greet():\n    print("Hello")\n');
    expect(read("hello.txt")).toBe("Hello\n");
    expect(path.join(cwd, "src/app.py")).not.toBe(path.join(cwd, "src/main.py"));
    expect(await call("apply_patch", { patchText: "*** Begin Patch\n*** End Patch" })).toEqual({
      output: "patch rejected: empty patch",
      isError: true,
    });
  });
});

describe("calls made under other harnesses", () => {
  it("become opencode's own calls where they have a counterpart", () => {
    expect(adoptOpencodeCall({ capability: "exec", command: "ls", cwd: "/w" })).toEqual({
      name: "bash",
      arguments: '{"command":"ls","workdir":"/w"}',
    });
    expect(adoptOpencodeCall({ capability: "edit", path: "/w/a", oldString: "a", newString: "b" })).toEqual({
      name: "edit",
      arguments: '{"filePath":"/w/a","oldString":"a","newString":"b"}',
    });
    expect(adoptOpencodeCall({ capability: "read", path: "/w/a", offset: 3 })).toEqual({
      name: "read",
      arguments: '{"filePath":"/w/a","offset":3}',
    });
    expect(adoptOpencodeCall({ capability: "patch" })).toBeUndefined();
  });
});
