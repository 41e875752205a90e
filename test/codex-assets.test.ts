import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadAgentsMd } from "../src/context/agents-md.js";
import { filesystemElement } from "../src/harnesses/codex/filesystem-element.js";
import { permissionsBlock } from "../src/harnesses/codex/permissions-block.js";
import {
  agentsMdBlock,
  environmentContext,
  skillsBlock,
} from "../src/harnesses/shared/codex-core/context-blocks.js";
import {
  applyPatchSchema,
  shellCommandSchema,
  updatePlanSchema,
} from "../src/harnesses/shared/codex-core/tool-schemas.js";
import {
  countLines,
  formatExecOutput,
  truncateMiddle,
  wallTimeSeconds,
} from "../src/harnesses/shared/codex-core/truncate.js";

// Expected strings below were produced by compiling codex-rs `utils/string/src/truncate.rs` and the
// body of `format_exec_output_for_model` with rustc and running them on the same inputs.

describe("Codex tool schemas", () => {
  it("serialize exactly as upstream Codex sends them", () => {
    expect(JSON.stringify(shellCommandSchema)).toBe(
      '{"type":"object","properties":{"command":{"type":"string","description":"The shell script to execute in the user\'s default shell"},"justification":{"type":"string","description":"Only set if sandbox_permissions is \\"require_escalated\\". 1-sentence explanation of why we want to run this command."},"sandbox_permissions":{"type":"string","description":"Sandbox permissions for the command. Set to \\"require_escalated\\" to request running without sandbox restrictions; defaults to \\"use_default\\"."},"timeout_ms":{"type":"number","description":"The timeout for the command in milliseconds"},"workdir":{"type":"string","description":"The working directory to execute the command in"}},"required":["command"],"additionalProperties":false}',
    );
    expect(JSON.stringify(applyPatchSchema)).toBe(
      '{"type":"object","properties":{"input":{"type":"string","description":"The entire contents of the apply_patch command"}},"required":["input"],"additionalProperties":false}',
    );
    expect(JSON.stringify(updatePlanSchema)).toBe(
      '{"type":"object","properties":{"explanation":{"type":"string"},"plan":{"type":"array","description":"The list of steps","items":{"type":"object","properties":{"status":{"type":"string","description":"One of: pending, in_progress, completed"},"step":{"type":"string"}},"required":["step","status"],"additionalProperties":false}}},"required":["plan"],"additionalProperties":false}',
    );
  });
});

describe("truncateMiddle", () => {
  it("leaves text within the budget alone", () => {
    expect(truncateMiddle("héllo", 6)).toEqual({ text: "héllo", truncated: false });
    expect(truncateMiddle("", 0)).toEqual({ text: "", truncated: false });
  });

  it("keeps whole characters on both sides and counts removed characters", () => {
    expect(truncateMiddle("éééééééééé", 9)).toEqual({ text: "éé…6 chars truncated…éé", truncated: true });
    expect(truncateMiddle("a😀b😀c😀d", 7).text).toBe("a…5 chars truncated…d");
    expect(truncateMiddle("日本語のテキストです", 10).text).toBe("日…8 chars truncated…す");
  });

  it("returns only the marker for a zero budget", () => {
    expect(truncateMiddle("abc", 0).text).toBe("…3 chars truncated…");
  });
});

describe("formatExecOutput", () => {
  const base = { exitCode: 0, durationMs: 432, output: "hello\n", totalLines: 1, timedOut: false };

  it("formats a successful command", () => {
    expect(formatExecOutput(base)).toBe("Exit code: 0\nWall time: 0.4 seconds\nOutput:\nhello\n");
  });

  it("formats a failing command and empty output", () => {
    expect(formatExecOutput({ ...base, exitCode: 2, durationMs: 10, output: "" })).toBe(
      "Exit code: 2\nWall time: 0 seconds\nOutput:\n",
    );
    expect(formatExecOutput({ ...base, exitCode: null })).toMatch(/^Exit code: -1\n/);
  });

  it("formats a timeout with exit code 124 and the elapsed milliseconds", () => {
    const result = {
      exitCode: null,
      durationMs: 10_012.6,
      output: "partial\n",
      totalLines: 1,
      timedOut: true,
      timeoutMs: 10_000,
    };
    expect(formatExecOutput(result)).toBe(
      "Exit code: 124\nWall time: 10 seconds\nOutput:\ncommand timed out after 10012 milliseconds\npartial\n",
    );
  });

  it("middle-truncates 30 000 bytes to 10 000 and reports the total line count", () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `${String(i).padStart(9, "0")}\n`);
    const output = lines.join("");
    const expected = [
      "Exit code: 0",
      "Wall time: 1.5 seconds",
      "Total output lines: 3000",
      "Output:",
      `${lines.slice(0, 500).join("")}…20000 chars truncated…${lines.slice(2500).join("")}`,
    ].join("\n");
    const formatted = formatExecOutput({ ...base, durationMs: 1500, output, totalLines: 3000 });
    expect(formatted).toBe(expected);
    expect(Buffer.byteLength(formatted)).toBe(10_096);
  });

  it("omits the line count when truncation keeps the number of lines (one long line)", () => {
    const formatted = formatExecOutput({ ...base, exitCode: 1, durationMs: 300, output: "x".repeat(12_000) });
    expect(formatted.startsWith("Exit code: 1\nWall time: 0.3 seconds\nOutput:\nxxxx")).toBe(true);
    expect(formatted).toContain("…2000 chars truncated…");
  });

  it("adds bytes the runner already dropped to the marker and uses its line count", () => {
    const head = "a\n".repeat(4000);
    const tail = "b\n".repeat(4000);
    const formatted = formatExecOutput({
      ...base,
      output: head + tail,
      totalLines: 500_000,
      droppedBytes: 984_000,
    });
    expect(formatted).toContain(
      `Total output lines: 500000\nOutput:\n${"a\n".repeat(2500)}…990000 chars truncated…b\n`,
    );
  });

  it("rounds wall time like Rust's f32 and prints it without a trailing .0", () => {
    expect([0, 49, 50, 1250, 2000, 123_456].map(wallTimeSeconds)).toEqual([
      "0",
      "0",
      "0.1",
      "1.3",
      "2",
      "123.5",
    ]);
  });

  it("counts lines like Rust's str::lines", () => {
    expect([
      countLines(""),
      countLines("a"),
      countLines("a\n"),
      countLines("a\nb"),
      countLines("\n\n"),
    ]).toEqual([0, 1, 1, 2, 2]);
  });
});

describe("context blocks", () => {
  it("renders <environment_context> with Codex's tags, order and indentation", () => {
    expect(
      environmentContext({
        cwd: "/repo/a&b",
        shell: "bash",
        currentDate: "2026-02-26",
        timezone: "America/Los_Angeles",
      }),
    ).toBe(
      "<environment_context>\n  <cwd>/repo/a&amp;b</cwd>\n  <shell>bash</shell>\n  <current_date>2026-02-26</current_date>\n  <timezone>America/Los_Angeles</timezone>\n</environment_context>",
    );
    expect(
      environmentContext({ cwd: "/r", network: { allowedDomains: ["a.com", "b.com"], deniedDomains: [] } }),
    ).toBe(
      '<environment_context>\n  <cwd>/r</cwd>\n  <network enabled="true"><allowed>a.com,b.com</allowed></network>\n</environment_context>',
    );
  });

  it("wraps AGENTS.md text like Codex's user instructions", () => {
    expect(agentsMdBlock({ directory: "/repo", text: "use tabs" })).toBe(
      "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nuse tabs\n</INSTRUCTIONS>",
    );
    expect(agentsMdBlock({ text: "global" })).toBe(
      "# AGENTS.md instructions\n\n<INSTRUCTIONS>\nglobal\n</INSTRUCTIONS>",
    );
  });

  it("states each mode in Codex 0.171's sandbox_mode / approval policy terms", () => {
    const modes = {
      "read-only": [
        "`sandbox_mode` is `read-only`",
        "Approval policy is currently on-request",
        "# Escalation Requests",
      ],
      "workspace-write": [
        "`sandbox_mode` is `workspace-write`",
        "Approval policy is currently on-request",
        "# Escalation Requests",
      ],
      auto: ["`sandbox_mode` is `workspace-write`", "# Escalation Requests", "## prefix_rule guidance"],
      "full-access": [
        "`sandbox_mode` is `danger-full-access`",
        "Approval policy is currently never",
        "enabled",
      ],
    } as const;
    for (const [mode, parts] of Object.entries(modes)) {
      const block = permissionsBlock({ mode: mode as keyof typeof modes });
      expect(block.startsWith("<permissions instructions>\nFilesystem sandboxing")).toBe(true);
      expect(block.endsWith("\n</permissions instructions>")).toBe(true);
      for (const part of parts) expect(block).toContain(part);
    }
    // Codex's on-request shape: the escalation section follows the sandbox line directly.
    expect(permissionsBlock({ mode: "auto" }).split("\n")[2]).toBe("# Escalation Requests");
    expect(permissionsBlock({ mode: "full-access" })).not.toContain("Escalation");
    expect(permissionsBlock({ mode: "auto", sandboxed: false })).toBe(
      permissionsBlock({ mode: "workspace-write" }),
    );
    expect(permissionsBlock({ mode: "workspace-write", writableRoots: ["/w/b", "/w/a"] })).toMatch(
      /\n The writable roots are `\/w\/b`, `\/w\/a`, `\/tmp`\.\n<\/permissions instructions>$/,
    );
  });
});

describe("Codex 0.171's <filesystem> element", () => {
  it("says what the sandbox enforces in each mode", () => {
    const roots = ["/w/app", "/w/lib"];
    expect(filesystemElement({ mode: "full-access", roots, sandboxed: false })).toBe(
      '<filesystem><workspace_roots><root>/w/app</root><root>/w/lib</root></workspace_roots><permission_profile type="disabled"><file_system type="unrestricted" /></permission_profile></filesystem>',
    );
    expect(filesystemElement({ mode: "read-only", roots, sandboxed: true })).toBe(
      '<filesystem><workspace_roots><root>/w/app</root><root>/w/lib</root></workspace_roots><permission_profile type="managed"><file_system type="restricted"><entry access="read"><special>:root</special></entry></file_system></permission_profile></filesystem>',
    );
    expect(filesystemElement({ mode: "workspace-write", roots: ["/w/app"], sandboxed: true })).toBe(
      '<filesystem><workspace_roots><root>/w/app</root></workspace_roots><permission_profile type="managed"><file_system type="restricted"><entry access="read"><special>:root</special></entry><entry access="write"><path>/w/app</path></entry><entry access="write"><special>:slash_tmp</special></entry><entry access="read"><path>/w/app/.git</path></entry></file_system></permission_profile></filesystem>',
    );
    // No working sandbox: nothing is enforced, and the element does not pretend otherwise.
    expect(filesystemElement({ mode: "workspace-write", roots, sandboxed: false })).toContain(
      'type="disabled"',
    );
  });

  it("closes <environment_context> and escapes paths", () => {
    const text = environmentContext({
      cwd: "/w/a&b",
      filesystem: filesystemElement({ mode: "full-access", roots: ["/w/a&b"], sandboxed: false }),
    });
    expect(text.split("\n")).toEqual([
      "<environment_context>",
      "  <cwd>/w/a&amp;b</cwd>",
      '  <filesystem><workspace_roots><root>/w/a&amp;b</root></workspace_roots><permission_profile type="disabled"><file_system type="unrestricted" /></permission_profile></filesystem>',
      "</environment_context>",
    ]);
  });
});

describe("Codex's skills section", () => {
  const skills = [
    { name: "lint", description: "Fix lint errors.", path: "/p/.agents/skills/lint/SKILL.md" },
    { name: "notes", description: "Write notes.", path: "/home/u/.agents/skills/notes/SKILL.md" },
  ];

  it("lists the skills by root alias, the usage rules only where the family has them", () => {
    const block = skillsBlock(skills);
    expect(block).toContain(
      "### Skill roots\n- `r0` = `/p/.agents/skills`\n- `r1` = `/home/u/.agents/skills`\n",
    );
    expect(block).toContain(
      "### Available skills\n- lint: Fix lint errors. (file: r0/lint/SKILL.md)\n- notes: Write notes. (file: r1/notes/SKILL.md)\n</skills_instructions>",
    );
    expect(block).not.toContain("### How to use skills");
    expect(skillsBlock(skills, { howTo: true })).toMatch(
      /\(file: r1\/notes\/SKILL\.md\)\n### How to use skills\n[\s\S]+\n<\/skills_instructions>$/,
    );
    expect(skillsBlock([])).toBe("");
  });
});

describe("loadAgentsMd", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  async function tree(files: Record<string, string>): Promise<string> {
    const root = await mkdtemp(path.join(tmpdir(), "oi-agents-"));
    dirs.push(root);
    for (const [name, content] of Object.entries(files)) {
      const file = path.join(root, name);
      await mkdir(path.dirname(file), { recursive: true });
      if (name.endsWith("/")) await mkdir(file, { recursive: true });
      else await writeFile(file, content);
    }
    return root;
  }

  it("loads global, root and nested files root to leaf, overrides first", async () => {
    const root = await tree({
      "home/AGENTS.override.md": "\n global override \n",
      "home/AGENTS.md": "global default",
      "repo/.git/HEAD": "",
      "repo/AGENTS.md": "root rules",
      "repo/pkg/AGENTS.md": "nested default",
      "repo/pkg/AGENTS.override.md": "nested override",
      "repo/pkg/src/": "",
    });
    const loaded = await loadAgentsMd({
      cwd: path.join(root, "repo/pkg/src"),
      home: path.join(root, "home"),
    });
    expect(loaded.files.map((f) => path.relative(root, f.path))).toEqual([
      "home/AGENTS.override.md",
      path.join("repo", "AGENTS.md"),
      path.join("repo", "pkg", "AGENTS.override.md"),
    ]);
    expect(loaded.files[2]?.directory).toBe(path.join(root, "repo/pkg"));
    expect(loaded.text).toBe("global override\n\n--- project-doc ---\n\nroot rules\n\nnested override");
  });

  it("accepts .git as a file, skips blank files and falls back from a blank global override", async () => {
    const root = await tree({
      "home/AGENTS.override.md": " \n\t",
      "home/AGENTS.md": "global default\n",
      "repo/.git": "gitdir: /elsewhere",
      "repo/AGENTS.md": "   \n",
      "repo/sub/AGENTS.md": "sub rules\n",
    });
    const loaded = await loadAgentsMd({ cwd: path.join(root, "repo/sub"), home: path.join(root, "home") });
    expect(loaded.text).toBe("global default\n\n--- project-doc ---\n\nsub rules\n");
  });

  it("reads only cwd when no ancestor holds .git", async () => {
    const root = await tree({ "AGENTS.md": "parent", "work/AGENTS.md": "here" });
    const loaded = await loadAgentsMd({
      cwd: path.join(root, "work"),
      home: path.join(root, "nohome"),
      ceilings: [tmpdir()],
    });
    expect(loaded).toEqual({
      files: [{ path: path.join(root, "work/AGENTS.md"), directory: path.join(root, "work"), text: "here" }],
      text: "here",
    });
  });

  it("gives the byte budget to the deepest files first, cutting at a character boundary", async () => {
    const root = await tree({
      "home/AGENTS.md": "g".repeat(100),
      "repo/.git/HEAD": "",
      "repo/AGENTS.md": "never seen",
      "repo/a/AGENTS.md": `${"x".repeat(9)}é tail`,
      "repo/a/b/AGENTS.md": "b".repeat(20),
    });
    const loaded = await loadAgentsMd({
      cwd: path.join(root, "repo/a/b"),
      home: path.join(root, "home"),
      maxBytes: 30,
    });
    // The global file is outside the budget; 20 bytes for the leaf leave 10, which would split "é".
    expect(loaded.files.map((f) => f.text)).toEqual(["g".repeat(100), "x".repeat(9), "b".repeat(20)]);
  });

  it("falls back to CLAUDE.md, loads a symlinked copy once, and walks additional roots", async () => {
    const root = await tree({
      "repo/.git/HEAD": "",
      "repo/AGENTS.md": "root rules",
      "repo/pkg/CLAUDE.md": "pkg rules",
      "other/.git/HEAD": "",
      "other/AGENTS.md": "other rules",
    });
    await mkdir(path.join(root, "other/sub"));
    await symlink(path.join(root, "repo/AGENTS.md"), path.join(root, "other/sub/CLAUDE.md"));
    const loaded = await loadAgentsMd({
      cwd: path.join(root, "repo/pkg"),
      additionalDirectories: [path.join(root, "other/sub")],
      home: path.join(root, "nohome"),
    });
    expect(loaded.files.map((f) => f.text)).toEqual(["root rules", "pkg rules", "other rules"]);
  });

  it("returns nothing when there are no files", async () => {
    const root = await tree({ "repo/.git/HEAD": "" });
    expect(await loadAgentsMd({ cwd: path.join(root, "repo"), home: path.join(root, "home") })).toEqual({
      files: [],
      text: "",
    });
  });
});
