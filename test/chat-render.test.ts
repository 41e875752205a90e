import { describe, expect, it } from "vitest";
import type { SessionUpdate } from "../src/acp/local-client.js";
import { diffRows, renderDiff } from "../src/cli/chat/diff-view.js";
import { foldOutput, lastLine, unfence } from "../src/cli/chat/fold-output.js";
import { permissionHint, permissionKeys } from "../src/cli/chat/permission-prompt.js";
import { planChecklist } from "../src/cli/chat/plan-checklist.js";
import { Renderer } from "../src/cli/chat/renderer.js";
import { age } from "../src/cli/chat/session-picker.js";
import { colourWanted, createStyle } from "../src/cli/chat/style.js";

const plain = createStyle(false);
const colour = createStyle(true);

describe("diff view", () => {
  it("finds the changed lines with context and marks skipped runs", () => {
    const before = ["a", "b", "c", "d", "e", "f", "g", "h"].join("\n");
    const after = ["a", "b", "c", "D", "e", "f", "g", "h", "i"].join("\n");
    expect(diffRows(`${before}\n`, `${after}\n`, 1)).toEqual([
      { kind: "gap", text: "⋮ 2 unchanged lines" },
      { kind: "ctx", text: "c" },
      { kind: "del", text: "d" },
      { kind: "add", text: "D" },
      { kind: "ctx", text: "e" },
      { kind: "gap", text: "⋮ 2 unchanged lines" },
      { kind: "ctx", text: "h" },
      { kind: "add", text: "i" },
    ]);
  });

  it("keeps moved and repeated lines in order (LCS, not a naive zip)", () => {
    const rows = diffRows("x\ny\nz\n", "y\nz\nx\n", 5);
    expect(rows).toEqual([
      { kind: "del", text: "x" },
      { kind: "ctx", text: "y" },
      { kind: "ctx", text: "z" },
      { kind: "add", text: "x" },
    ]);
  });

  it("colours additions green and removals red, with a header counting them", () => {
    const lines = renderDiff({
      path: "src/a.ts",
      oldText: "one\n",
      newText: "two\n",
      style: colour,
      width: 80,
    });
    expect(lines[0]).toContain("src/a.ts");
    expect(lines[0]).toContain("\x1b[32m+1\x1b[39m");
    expect(lines[0]).toContain("\x1b[31m-1\x1b[39m");
    expect(lines).toContain("\x1b[31m    - one\x1b[39m");
    expect(lines).toContain("\x1b[32m    + two\x1b[39m");
  });

  it("calls a file without old text new, and cuts long diffs", () => {
    const newText = Array.from({ length: 60 }, (_, i) => `line ${i}`).join("\n");
    const lines = renderDiff({
      path: "big.txt",
      oldText: null,
      newText,
      style: plain,
      width: 80,
      maxRows: 10,
    });
    expect(lines[0]).toBe("  big.txt (new file) +60 -0");
    expect(lines).toHaveLength(12);
    expect(lines.at(-1)).toBe("    … 50 more lines");
  });
});

describe("folded command output", () => {
  it("shows the head and tail of long output with a count between", () => {
    const text = Array.from({ length: 20 }, (_, i) => `row ${i + 1}`).join("\n");
    expect(foldOutput(`\`\`\`\n${text}\n\`\`\``, { width: 80 })).toEqual([
      "row 1",
      "row 2",
      "… 15 more lines",
      "row 18",
      "row 19",
      "row 20",
    ]);
  });

  it("keeps short output whole, strips escapes, resolves carriage returns and clips wide lines", () => {
    expect(foldOutput("a\n\x1b[31mred\x1b[0m\n50%\r100%\n\n", { width: 80 })).toEqual(["a", "red", "100%"]);
    expect(foldOutput("x".repeat(30), { width: 10 })).toEqual(["xxxxxxxxx…"]);
  });

  it("unfences only a whole fence and finds the last line for the spinner", () => {
    expect(unfence("````\nhas ``` inside\n````")).toBe("has ``` inside");
    expect(unfence("not fenced")).toBe("not fenced");
    expect(lastLine("```\nbuilding\ncompiling 3/7\n\n```")).toBe("compiling 3/7");
  });
});

describe("plan checklist", () => {
  it("marks each entry by status and counts what is done", () => {
    const lines = planChecklist(
      [
        { content: "Read the code", status: "completed" },
        { content: "Fix the bug", status: "in_progress" },
        { content: "Run the tests", status: "pending" },
      ],
      { style: plain, width: 80 },
    );
    expect(lines).toEqual([
      "  Plan (1/3 done)",
      "    ☒ Read the code",
      "    ▸ Fix the bug",
      "    ☐ Run the tests",
    ]);
  });
});

describe("permission keys", () => {
  const options = [
    { optionId: "allow_once", name: "Allow once", kind: "allow_once" as const },
    { optionId: "allow_always", name: "Always allow `make` in this project", kind: "allow_always" as const },
    { optionId: "reject_once", name: "Reject", kind: "reject_once" as const },
    { optionId: "reject_always", name: "Always reject `make`", kind: "reject_always" as const },
  ];

  it("maps y / a / n / N to the option kinds the agent offers", () => {
    expect(permissionKeys(options).map((k) => [k.key, k.option.optionId])).toEqual([
      ["y", "allow_once"],
      ["a", "allow_always"],
      ["n", "reject_once"],
      ["N", "reject_always"],
    ]);
    expect(permissionKeys([options[0]!, options[2]!]).map((k) => k.key)).toEqual(["y", "n"]);
  });

  it("numbers the options of a choice among several of one kind, named as the agent names them", () => {
    const choice = [
      { optionId: "option-0", name: "SQLite", kind: "allow_once" as const },
      { optionId: "option-1", name: "Postgres", kind: "allow_once" as const },
      { optionId: "skip", name: "Skip", kind: "reject_once" as const },
    ];
    expect(permissionKeys(choice).map((k) => [k.key, k.option.optionId])).toEqual([
      ["1", "option-0"],
      ["2", "option-1"],
      ["3", "skip"],
    ]);
    expect(permissionHint(permissionKeys(choice), plain, 100)).toEqual([
      "  [1] SQLite  [2] Postgres  [3] Skip",
    ]);
  });

  it("says what `always` would remember", () => {
    expect(permissionHint(permissionKeys(options), plain, 100)).toEqual([
      "  [y] yes  [a] always  [n] no  [N] never",
      "  always = Always allow `make` in this project",
    ]);
  });
});

describe("colours", () => {
  it("follow the terminal, NO_COLOR and FORCE_COLOR", () => {
    expect(colourWanted({ isTTY: true, env: {} })).toBe(true);
    expect(colourWanted({ isTTY: true, env: { NO_COLOR: "1" } })).toBe(false);
    expect(colourWanted({ isTTY: false, env: {} })).toBe(false);
    expect(colourWanted({ isTTY: false, env: { FORCE_COLOR: "1" } })).toBe(true);
    expect(plain.red("x")).toBe("x");
  });

  it("session ages read as minutes, hours or days", () => {
    const now = new Date("2026-01-02T12:00:00Z");
    expect(age("2026-01-02T11:55:00Z", now)).toBe("5 min ago");
    expect(age("2026-01-02T09:00:00Z", now)).toBe("3 h ago");
    expect(age("2025-12-28T12:00:00Z", now)).toBe("5 d ago");
  });
});

describe("renderer (off a terminal)", () => {
  const render = (updates: SessionUpdate[], replaying = false) => {
    let out = "";
    const renderer = new Renderer({
      write: (t) => (out += t),
      style: plain,
      columns: () => 80,
    });
    renderer.replaying = replaying;
    renderer.turnStarted();
    for (const update of updates) renderer.update(update);
    if (!replaying) renderer.turnEnded("end_turn");
    else renderer.settle();
    return out;
  };
  const text = (t: string): SessionUpdate => ({
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text: t },
  });
  const call: SessionUpdate[] = [
    { sessionUpdate: "user_message_chunk", content: { type: "text", text: "list it" } },
    { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" } },
    text("Listing"),
    text(" files."),
    { sessionUpdate: "tool_call", toolCallId: "c1", title: "ls", kind: "execute", status: "pending" },
    { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "in_progress" },
    {
      sessionUpdate: "tool_call_update",
      toolCallId: "c1",
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "```\na.txt\nb.txt\n```" } }],
    },
    text("Two files."),
  ];

  it("streams text, puts each tool call on its own ✓ line with its output, and writes no escapes", () => {
    expect(render(call)).toBe("hmm\nListing files.\n✓ ls\n    a.txt\n    b.txt\nTwo files.\n\n");
  });

  it("replays history compactly: the user's words, answers and tool lines only", () => {
    expect(render(call, true)).toBe("\n› list it\nListing files.\n✓ ls\nTwo files.\n");
  });

  it("marks a failed call and says when a turn was cancelled", () => {
    let out = "";
    const renderer = new Renderer({
      write: (t) => (out += t),
      style: plain,
      columns: () => 80,
    });
    renderer.turnStarted();
    renderer.update({ sessionUpdate: "tool_call", toolCallId: "c2", title: "make", status: "pending" });
    renderer.update({
      sessionUpdate: "tool_call_update",
      toolCallId: "c2",
      status: "failed",
      content: [{ type: "content", content: { type: "text", text: "The user rejected this call." } }],
    });
    renderer.turnEnded("cancelled");
    expect(out).toBe("✗ make\n    The user rejected this call.\n⏹ Cancelled.\n\n");
  });
});
