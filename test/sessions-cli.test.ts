import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resumeArgs } from "../src/cli/sessions/resume-args.js";
import { age } from "../src/cli/sessions/session-list-text.js";
import { openStore } from "../src/store/open-store.js";
import { runCli } from "./support/doctor-run.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { tempDir } from "./support/in-process.js";

let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

/** A home with three stored sessions written through the real store: two share the id prefix `abc`. */
function seededHome() {
  const home = tempDir("oi-sessions-");
  let clock = Date.parse("2026-01-01T10:00:00Z");
  const store = openStore({
    path: path.join(home, "openinterpreter.db"),
    now: () => {
      clock += 60_000;
      return new Date(clock);
    },
  });
  const base = { additionalDirectories: [], mcpServers: [], mode: "workspace-write" };
  store.createSession({
    ...base,
    id: "abc11111-aaaa",
    cwd: "/work/alpha",
    title: "Fix the parser",
    harness: "codex",
    model: "qwen3-coder",
  });
  store.append("abc11111-aaaa", [
    { type: "turn_started", turnId: "t1", pid: 1 },
    { type: "user_message", turnId: "t1", content: [{ type: "text", text: "fix the parser please" }] },
    { type: "assistant_message", turnId: "t1", step: 0, text: "Running ", reasoning: "look at tests" },
    { type: "assistant_message", turnId: "t1", step: 0, text: "the tests first.", reasoning: "" },
    {
      type: "tool_call",
      turnId: "t1",
      step: 0,
      callId: "c1",
      name: "shell_command",
      harness: "codex",
      capability: "exec",
      arguments: '{"command":"npm test"}',
      title: "npm test",
      kind: "execute",
      locations: [],
      display: [],
    },
    { type: "tool_result", turnId: "t1", callId: "c1", status: "failed", output: "1 failing", display: [] },
    {
      type: "tool_call",
      turnId: "t1",
      step: 1,
      callId: "c2",
      name: "apply_patch",
      harness: "codex",
      capability: "patch",
      arguments: "{}",
      title: "Edit src/parser.ts",
      kind: "edit",
      locations: [],
      display: [],
    },
    { type: "tool_result", turnId: "t1", callId: "c2", status: "completed", output: "ok", display: [] },
    {
      type: "plan",
      turnId: "t1",
      entries: [
        { content: "Fix tokenizer", status: "completed", priority: "high" },
        { content: "Add test", status: "pending", priority: "medium" },
      ],
    },
    { type: "notice", severity: "warning", text: "The endpoint rejected native tool calls" },
    {
      type: "assistant_message",
      turnId: "t1",
      step: 2,
      text: "Fixed: the tokenizer skipped `\\n`.",
      reasoning: "",
    },
    { type: "turn_ended", turnId: "t1", stopReason: "end_turn" },
  ]);
  store.createSession({
    ...base,
    id: "abc22222-bbbb",
    cwd: "/work/beta",
    title: "Write docs",
    harness: null,
    model: null,
  });
  store.createSession({ ...base, id: "fff33333-cccc", cwd: "/work/alpha", title: null });
  store.createSession({ ...base, id: "ddd44444-dddd", cwd: "/work/alpha", title: "Old spike" });
  store.archiveSession("ddd44444-dddd", true);
  store.append("fff33333-cccc", [
    { type: "turn_ended", turnId: "t9", stopReason: null, error: "Cannot reach openai" },
  ]);
  store.close();
  return home;
}

describe("interpreter sessions", () => {
  it("lists newest first with title, cwd, harness, model and age; --cwd, --limit and --json", async () => {
    const home = seededHome();
    const list = await runCli(["sessions"], { home });
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^ID\s+UPDATED\s+HARNESS\s+MODEL\s+TITLE\s+CWD$/);
    expect(lines.slice(1).map((l) => l.slice(0, 8))).toEqual(["fff33333", "abc22222", "abc11111"]);
    expect(lines[3]).toMatch(/^abc11111\s+\S.*\s+codex\s+qwen3-coder\s+Fix the parser\s+\/work\/alpha$/);
    expect(lines[2]).toMatch(/auto\s+default\s+Write docs\s+\/work\/beta$/);

    const filtered = await runCli(["sessions", "--cwd", "/work/alpha", "--json"], { home });
    const rows = JSON.parse(filtered.stdout) as Array<{ id: string; cwd: string; mcpServers?: unknown }>;
    expect(rows.map((r) => r.id)).toEqual(["fff33333-cccc", "abc11111-aaaa"]);
    expect(rows[0]).not.toHaveProperty("mcpServers");

    const archived = await runCli(["sessions", "--archived"], { home });
    expect(archived.stdout).toContain("Old spike");
    expect(archived.stdout).not.toContain("Fix the parser");

    const limited = await runCli(["sessions", "--limit", "1"], { home });
    expect(limited.stdout).toContain("fff33333");
    expect(limited.stdout).not.toContain("abc22222");
    expect(limited.stdout).toContain("use --limit 2");
  });

  it("show: a readable transcript by unique id prefix; ambiguous and unknown ids fail clearly", async () => {
    const home = seededHome();
    const shown = await runCli(["sessions", "show", "abc1"], { home });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("session abc11111-aaaa  Fix the parser");
    expect(shown.stdout).toContain(
      "you:\n  fix the parser please\n\nassistant:\n  Running the tests first.\n",
    );
    expect(shown.stdout).toContain("  ✗ npm test (failed)\n  ✓ Edit src/parser.ts\n");
    expect(shown.stdout).toContain("  [x] Fix tokenizer\n  [ ] Add test\n");
    expect(shown.stdout).toContain("  ! The endpoint rejected native tool calls\n");
    expect(shown.stdout).not.toContain("look at tests");
    const withReasoning = await runCli(["sessions", "show", "abc1", "--reasoning"], { home });
    expect(withReasoning.stdout).toContain("(thinking) look at tests");

    const failedTurn = await runCli(["sessions", "show", "fff"], { home });
    expect(failedTurn.stdout).toContain("✗ turn failed: Cannot reach openai");

    const ambiguous = await runCli(["sessions", "show", "abc"], { home });
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stdout).toBe("");
    expect(ambiguous.stderr).toContain("session id 'abc' is ambiguous; it matches:");
    expect(ambiguous.stderr).toContain("abc11111-aaaa  Fix the parser");
    expect(ambiguous.stderr).toContain("abc22222-bbbb  Write docs");

    const unknown = await runCli(["sessions", "show", "zzz"], { home });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      "interpreter sessions: no session matches 'zzz' (see `interpreter sessions` for the list)\n",
    );
  });

  it("export: JSON is the stored events, Markdown a readable transcript, -o writes a file", async () => {
    const home = seededHome();
    const json = await runCli(["sessions", "export", "abc11111-aaaa"], { home });
    const exported = JSON.parse(json.stdout) as {
      session: { id: string };
      events: Array<{ seq: number; event: { type: string } }>;
    };
    expect(exported.session.id).toBe("abc11111-aaaa");
    expect(exported.events.map((e) => e.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(exported.events[4]!.event).toMatchObject({ type: "tool_call", title: "npm test" });

    const file = path.join(home, "out.md");
    const md = await runCli(["sessions", "export", "abc1", "-o", file], { home });
    expect(md.code).toBe(0);
    expect(md.stderr).toContain(`to ${file} (md)`);
    const text = readFileSync(file, "utf8");
    expect(
      text.startsWith("# Fix the parser\n\n- Session: `abc11111-aaaa`\n- Directory: `/work/alpha`\n"),
    ).toBe(true);
    expect(text).toContain(
      "## You\n\nfix the parser please\n\n## Assistant\n\n<details><summary>Reasoning</summary>",
    );
    expect(text).toContain("- ✗ `npm test` *(failed)*\n");
    expect(text).toContain("Fixed: the tokenizer skipped `\\n`.");

    const bad = await runCli(["sessions", "export", "abc1", "--format", "pdf"], { home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--format expects json or md");
  });

  it("rm deletes the session and its events; a second rm says there is no such session", async () => {
    const home = seededHome();
    const removed = await runCli(["sessions", "rm", "abc2"], { home });
    expect(removed).toMatchObject({ code: 0, stdout: "Deleted session abc22222-bbbb (Write docs).\n" });
    const store = openStore({ path: path.join(home, "openinterpreter.db") });
    expect(store.getSession("abc22222-bbbb")).toBeUndefined();
    expect(store.events("abc22222-bbbb")).toEqual([]);
    expect(store.getSession("abc11111-aaaa")).toBeDefined();
    store.close();
    const again = await runCli(["sessions", "rm", "abc2"], { home });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("no session matches 'abc2'");
  });

  it("a session made by `interpreter exec` shows up and reads back as its transcript", async () => {
    model = await startFakeModel();
    model.reply(
      { text: "Let me look.", toolCalls: [{ name: "exec_command", arguments: { cmd: "echo hi" } }] },
      { text: "It printed hi." },
    );
    const home = tempDir("oi-sessions-");
    const cwd = tempDir("oi-ws-");
    const env = { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-x" };
    const run = await runCli(["exec", "-m", "mock-model", "--full-auto", "say hi"], { home, cwd, env });
    expect(run.code).toBe(0);
    const list = JSON.parse((await runCli(["sessions", "--json"], { home })).stdout) as Array<{
      id: string;
      cwd: string;
      model: string;
    }>;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ cwd, model: "mock-model" });
    const shown = await runCli(["sessions", "show", list[0]!.id.slice(0, 6)], { home });
    expect(shown.stdout).toContain(
      "you:\n  say hi\n\nassistant:\n  Let me look.\n  ✓ echo hi\n  It printed hi.\n",
    );
  });

  it("resume runs the chat's --resume: an unknown id is a clear error, exit 1", async () => {
    const home = seededHome();
    const env = { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "sk-x" };
    const result = await runCli(["resume", "zzz"], { home, env });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("no stored session matches 'zzz'");
  });

  it("resume forwards to the chat's --resume / --last; ages read like a person says them", () => {
    expect(resumeArgs(["abc1"])).toEqual(["--resume", "abc1"]);
    expect(resumeArgs(["-m", "qwen", "abc1", "-C", "/x"])).toEqual([
      "--resume",
      "abc1",
      "-m",
      "qwen",
      "-C",
      "/x",
    ]);
    expect(resumeArgs(["--last"])).toEqual(["--last"]);
    expect(resumeArgs([])).toEqual(["--resume="]);
    const now = new Date("2026-01-10T12:00:00Z");
    expect(age("2026-01-10T11:59:30Z", now)).toBe("just now");
    expect(age("2026-01-10T09:00:00Z", now)).toBe("3h ago");
    expect(age("2026-01-08T12:00:00Z", now)).toBe("2d ago");
    expect(age("2025-06-01T00:00:00Z", now)).toBe("2025-06-01");
  });
});
