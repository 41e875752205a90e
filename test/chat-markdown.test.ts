import { describe, expect, it } from "vitest";
import type { SessionUpdate } from "../src/acp/local-client.js";
import { MarkdownStream } from "../src/cli/chat/markdown-stream.js";
import { type MarkdownState, renderInline, renderMarkdownLine } from "../src/cli/chat/markdown-view.js";
import { Renderer } from "../src/cli/chat/renderer.js";
import { createStyle } from "../src/cli/chat/style.js";

const colour = createStyle(true);
const plain = createStyle(false);
const ESC = "\x1b[";
const bold = (t: string) => `${ESC}1m${t}${ESC}22m`;
const dim = (t: string) => `${ESC}2m${t}${ESC}22m`;
const italic = (t: string) => `${ESC}3m${t}${ESC}23m`;
const cyan = (t: string) => `${ESC}36m${t}${ESC}39m`;
const magenta = (t: string) => `${ESC}35m${t}${ESC}39m`;

/** Renders whole lines with the fence state carried along, as the stream does. */
const lines = (...input: string[]) => {
  let state: MarkdownState = {};
  return input.map((line) => {
    const out = renderMarkdownLine(line, state, { style: colour, width: 20 });
    state = out.state;
    return out.text;
  });
};

describe("markdown lines (colour terminal)", () => {
  const table: [string, string[], string[]][] = [
    ["a paragraph passes through", ["just words"], ["just words"]],
    ["h1: bold, magenta, underlined", ["# Title"], [`${ESC}4m${bold(magenta("Title"))}${ESC}24m`]],
    [
      "h2 drops closing hashes and inner markers",
      ["## Use `npm` **now** ##"],
      [bold(magenta("Use npm now"))],
    ],
    ["bold", ["a **b** c"], [`a ${bold("b")} c`]],
    ["bold with underscores", ["__b__"], [bold("b")]],
    ["italic with * and _", ["*i* and _j_"], [`${italic("i")} and ${italic("j")}`]],
    ["bold italic", ["***x***"], [bold(italic("x"))]],
    ["inline code, unparsed inside", ["run `a **b**` now"], [`run ${cyan("a **b**")} now`]],
    ["double-backtick code keeps a backtick", ["`` a`b ``"], [cyan("a`b")]],
    [
      "a link: text, then the url dimmed",
      ["see [docs](https://x.io/a_(b))"],
      [`see docs ${dim("(https://x.io/a_(b))")}`],
    ],
    ["a link inside bold keeps the rest bold", ["**[a](u) b**"], [bold(`a ${dim("(u)")}${ESC}1m b`)]],
    ["an autolink", ["<https://x.io>"], [cyan("https://x.io")]],
    ["bullets become •, nesting kept", ["- one", "  * two", "+ three"], ["• one", "  • two", "• three"]],
    ["task items", ["- [ ] to do", "- [x] done"], ["☐ to do", "☒ done"]],
    [
      "numbered items keep their numbers",
      ["1. first", "10) **tenth**"],
      ["1. first", `10) ${bold("tenth")}`],
    ],
    ["a block quote gets a dim bar", ["> said **so**"], [`${dim("│")} said ${bold("so")}`]],
    ["a rule fits the width", ["---", "* * *"], [dim("─".repeat(19)), dim("─".repeat(19))]],
    [
      "a fenced block: border with language, content indented, no inline parsing",
      ["```ts", "const a = **1**;", "", "```", "after *x*"],
      [dim("┌─ ts"), `  ${cyan("const a = **1**;")}`, "", dim("└─"), `after ${italic("x")}`],
    ],
    [
      "a longer fence is closed only by one at least as long; ~~~ fences work",
      ["````", "```", "````", "~~~", "# not a heading", "~~~"],
      [dim("┌─"), `  ${cyan("```")}`, dim("└─"), dim("┌─"), `  ${cyan("# not a heading")}`, dim("└─")],
    ],
    [
      "unmatched markers, snake_case and escapes stay readable",
      ["2 * 3 and snake_case_name and \\*lit\\* and **open", "`tick"],
      ["2 * 3 and snake_case_name and *lit* and **open", "`tick"],
    ],
    ["#hashtag is not a heading", ["#hashtag"], ["#hashtag"]],
  ];

  it.each(table)("%s", (_name, input, expected) => {
    expect(lines(...input)).toEqual(expected);
  });

  it("renders inline markers without escapes when colours are off", () => {
    expect(renderInline("**a** `b` [c](d)", plain)).toBe("a b c (d)");
  });
});

describe("markdown stream", () => {
  const answer = [
    "# Plan",
    "Some **bold** and `code`, see [docs](https://x.io).",
    "",
    "```sh",
    "npm test -- *x*",
    "```",
    "1. first",
    "- *item*",
    "> quote",
    "---",
    "last line, no newline",
  ].join("\n");
  const render = (chunks: string[], style = colour) => {
    const stream = new MarkdownStream({ style, width: () => 40 });
    return chunks.map((chunk) => stream.push(chunk)).join("") + stream.end();
  };

  it("holds a partial line until its newline, then writes it styled once", () => {
    const stream = new MarkdownStream({ style: colour, width: () => 40 });
    expect(stream.push("some **bo")).toBe("");
    expect(stream.pending).toBe("some **bo");
    expect(stream.push("ld**\nnext *i")).toBe(`some ${bold("bold")}\n`);
    expect(stream.pending).toBe("next *i");
    expect(stream.end()).toBe("next *i");
    expect(stream.pending).toBe("");
  });

  it("renders the same whether the text arrives whole, in two pieces split anywhere, or char by char", () => {
    const whole = render([answer]);
    expect(whole).toContain(bold("bold"));
    expect(whole.split("\n")).toHaveLength(answer.split("\n").length);
    for (let at = 0; at <= answer.length; at++) {
      expect(render([answer.slice(0, at), answer.slice(at)])).toBe(whole);
    }
    expect(render([...answer])).toBe(whole);
  });

  it("passes text through unchanged and at once without colours (NO_COLOR, a pipe)", () => {
    const stream = new MarkdownStream({ style: plain, width: () => 40 });
    expect(stream.push("**bo")).toBe("**bo");
    expect(stream.pending).toBe("");
    for (let at = 0; at <= answer.length; at++) {
      expect(render([answer.slice(0, at), answer.slice(at)], plain)).toBe(answer);
    }
  });

  it("forgets an unclosed code block when the message ends", () => {
    const stream = new MarkdownStream({ style: colour, width: () => 40 });
    stream.push("```\ncode\n");
    stream.end();
    expect(stream.push("**b**\n")).toBe(`${bold("b")}\n`);
  });
});

describe("renderer with colours", () => {
  const text = (t: string): SessionUpdate => ({
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text: t },
  });
  const thought = (t: string): SessionUpdate => ({
    sessionUpdate: "agent_thought_chunk",
    content: { type: "text", text: t },
  });

  it("styles the answer's Markdown but leaves reasoning dimmed plain, and ends a held line before a tool", () => {
    let out = "";
    const renderer = new Renderer({
      write: (t) => (out += t),
      style: colour,
      animate: false,
      columns: () => 80,
    });
    renderer.turnStarted();
    for (const update of [
      thought("**why**"),
      text("It is **"),
      text("done**"),
      { sessionUpdate: "tool_call", toolCallId: "c1", title: "ls", status: "completed" } as SessionUpdate,
      text("- `a`\n"),
      text("end"),
    ]) {
      renderer.update(update);
    }
    renderer.turnEnded("end_turn");
    expect(out).toBe(
      [
        dim(italic("**why**")),
        `It is ${bold("done")}`,
        `${ESC}32m✓${ESC}39m ls`,
        `• ${cyan("a")}`,
        "end",
        "",
        "",
      ].join("\n"),
    );
  });

  it("on a terminal previews the held line unstyled in place, then writes it styled", () => {
    let out = "";
    const renderer = new Renderer({
      write: (t) => (out += t),
      style: colour,
      animate: true,
      columns: () => 80,
    });
    renderer.turnStarted();
    renderer.update(text("It is **do"));
    expect(out.endsWith("It is **do")).toBe(true);
    renderer.update(text("ne**\n"));
    renderer.turnEnded("end_turn");
    expect(out).toContain(`\r${ESC}2KIt is ${bold("done")}\n`);
  });
});
