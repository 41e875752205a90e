import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { diffContextSnippet } from "../src/harnesses/gemini-cli/diff-snippet.js";
import { geminiCliHarness } from "../src/harnesses/gemini-cli/gemini-cli-harness.js";
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

const _surface = (tools: Tool[]) => tools.map((t) => ({ name: t.name, parameters: t.parameters }));

describe("replace", () => {
  const SOURCE =
    "function total(items) {\n  let sum = 0;\n  for (const item of items) {\n    sum += item.price;\n  }\n  return sum;\n}\n";

  it("replaces one exact occurrence and shows the updated code", async () => {
    const { run, file } = setup();
    const target = file("cart.js", SOURCE);
    const result = await run("replace", {
      file_path: "cart.js",
      instruction: "Include quantities in the total.",
      old_string: "    sum += item.price;",
      new_string: "    sum += item.price * item.quantity;",
    });
    expect(result.output).toBe(
      `Successfully modified file: ${target} (1 replacements). Here is the updated code:\n${SOURCE.replace("item.price;", "item.price * item.quantity;")}`,
    );
    expect(readFileSync(target, "utf8")).toContain("item.price * item.quantity;");
  });

  it("finds an old_string whose indentation drifted, as Gemini's flexible matcher does", async () => {
    const { run, file } = setup();
    const target = file("cart.js", SOURCE);
    const result = await run("replace", {
      file_path: target,
      instruction: "Start the sum at one.",
      old_string: "let sum = 0;\nfor (const item of items) {",
      new_string: "let sum = 1;\nfor (const item of items) {",
    });
    expect(result.isError).toBeUndefined();
    expect(readFileSync(target, "utf8")).toBe(SOURCE.replace("sum = 0", "sum = 1"));
  });

  it("answers a missing or ambiguous old_string with Gemini's error texts", async () => {
    const { run, file } = setup();
    file("a.txt", "x = 1\nx = 1\n");
    expect(
      await run("replace", {
        file_path: "a.txt",
        instruction: "i",
        old_string: "y = 2",
        new_string: "y = 3",
      }),
    ).toEqual({
      output:
        "Failed to edit, 0 occurrences found for old_string in a.txt. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.",
      isError: true,
    });
    expect(
      (
        await run("replace", {
          file_path: "a.txt",
          instruction: "i",
          old_string: "x = 1",
          new_string: "x = 2",
        })
      ).output,
    ).toBe(
      "Failed to edit, Expected 1 occurrence but found 2 for old_string in file: a.txt. If you intended to replace multiple occurrences, set 'allow_multiple' to true.",
    );
    const all = await run("replace", {
      file_path: "a.txt",
      instruction: "i",
      old_string: "x = 1",
      new_string: "x = 2",
      allow_multiple: true,
    });
    expect(all.output).toMatch(/ \(2 replacements\)\. Here is the updated code:\nx = 2\nx = 2\n$/);
    expect(
      (
        await run("replace", {
          file_path: "a.txt",
          instruction: "i",
          old_string: "x = 2\n",
          new_string: "x = 2\n",
          allow_multiple: true,
        })
      ).output,
    ).toBe("No changes to apply. The old_string and new_string are identical in file: a.txt");
  });

  it("creates a file from an empty old_string and refuses to re-create it", async () => {
    const { run, cwd } = setup();
    const target = path.join(cwd, "fresh.txt");
    expect(
      (
        await run("replace", {
          file_path: "fresh.txt",
          instruction: "i",
          old_string: "",
          new_string: "hello\n",
        })
      ).output,
    ).toBe(`Created new file: ${target} with provided content. Here is the updated code:\nhello\n`);
    expect(
      (await run("replace", { file_path: "fresh.txt", instruction: "i", old_string: "", new_string: "x" }))
        .output,
    ).toBe(`File already exists, cannot create: ${target}`);
    expect(
      (await run("replace", { file_path: "gone.txt", instruction: "i", old_string: "a", new_string: "b" }))
        .output,
    ).toBe(`File not found: ${path.join(cwd, "gone.txt")}`);
  });

  it("keeps CRLF line endings and refuses placeholders in new_string", async () => {
    const { run, file } = setup();
    const target = file("w.txt", "a\r\nb\r\n");
    await run("replace", { file_path: "w.txt", instruction: "i", old_string: "a\nb", new_string: "a\nc" });
    expect(readFileSync(target, "utf8")).toBe("a\r\nc\r\n");
    expect(
      (
        await run("replace", {
          file_path: "w.txt",
          instruction: "i",
          old_string: "c",
          new_string: "// unchanged code ...",
        })
      ).output,
    ).toBe(
      "`new_string` contains an omission placeholder (for example 'rest of methods ...'). Provide exact literal replacement text.",
    );
  });
});

describe("diffContextSnippet", () => {
  it("shows changed lines with 5 lines of context and ... for the gaps", () => {
    const old = Array.from({ length: 30 }, (_, i) => `l${i + 1}`);
    const next = [...old];
    next[2] = "A";
    next[25] = "B";
    expect(diffContextSnippet(`${old.join("\n")}\n`, `${next.join("\n")}\n`)).toBe(
      [
        "l1",
        "l2",
        "A",
        "l4",
        "l5",
        "l6",
        "l7",
        "l8",
        "...",
        "l21",
        "l22",
        "l23",
        "l24",
        "l25",
        "B",
        "l27",
        "l28",
        "l29",
        "l30",
        "",
      ].join("\n"),
    );
    expect(diffContextSnippet("", "new\n")).toBe("new\n");
  });
});
