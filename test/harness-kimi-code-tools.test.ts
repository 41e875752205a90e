import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { kimiCodeHarness } from "../src/harnesses/kimi-code/kimi-code-harness.js";
import type { HarnessContext } from "../src/harnesses/types.js";
import type { Tool, ToolResult } from "../src/tools/types.js";
import { harnessContext, tempDir, toolContext, toolRunner, writeFileAt } from "./support/harness-fixtures.js";

let dir: string;
let scratch: string;
let call: (name: string, args: object) => Promise<ToolResult>;

/** Bash, Glob and Grep lead with Kimi Code 2.1.0's wall-time line: checked here, then set aside. */
function withoutWallTime(name: string, result: ToolResult): ToolResult {
  if (!["Bash", "Glob", "Grep"].includes(name)) return result;
  expect(result.output).toMatch(/^Wall time: \d+\.\d{3} seconds\n/);
  return { ...result, output: result.output.replace(/^Wall time: [0-9.]+ seconds\n/, "") };
}

beforeEach(() => {
  dir = tempDir("oi-kimi-tools-");
  scratch = tempDir("oi-kimi-scratch-");
  const opened = kimiCodeHarness.open(harnessContext({ cwd: dir, scratchDir: scratch }));
  const tools = opened.tools;
  const run = toolRunner(tools, toolContext(dir));
  call = async (name, args) => withoutWallTime(name, await run(name, args));
});

const file = (name: string, content: string | Buffer) => writeFileAt(dir, name, content);
const lines = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `line${i + from}`);
const numbered = (n: number, from = 1) =>
  lines(n, from)
    .map((l, i) => `${i + from}\t${l}`)
    .join("\n");

describe("Bash", () => {
  it("returns the output as is on success, and Kimi's message when there is none", async () => {
    expect(await call("Bash", { command: "echo hi" })).toMatchObject({ output: "hi\n", isError: false });
    expect((await call("Bash", { command: "true" })).output).toBe("Command executed successfully.");
  });

  it("ends a failure with Kimi's exit-code line, and runs in `cwd`", async () => {
    mkdirSync(path.join(dir, "sub"));
    expect(await call("Bash", { command: "pwd; exit 3", cwd: "sub" })).toMatchObject({
      output: `${path.join(dir, "sub")}\nCommand failed with exit code: 3.`,
      isError: true,
    });
    expect((await call("Bash", { command: "exit 2" })).output).toBe(
      "Process exited with code 2\nCommand failed with exit code: 2.",
    );
    expect((await call("Bash", { command: "ls", cwd: "nope" })).output).toBe(
      `bash: line 1: cd: ${path.join(dir, "nope")}: No such file or directory\nCommand failed with exit code: 1.`,
    );
  });

  it("moves a command that reaches its timeout to the background, with what it printed so far", async () => {
    const out = await call("Bash", { command: "echo started; sleep 5", timeout: 1 });
    expect(out.isError).toBeFalsy();
    expect(out.output).toMatch(
      /^task_id: bash-[0-9a-z]{8}\npid: \d+\ndescription: Bash: echo started; sleep 5\nstatus: running\nautomatic_notification: true\nnext_step: The task now runs in the background\. You will be automatically notified when it completes — do NOT wait, poll, or call TaskOutput on it; continue with your current work\.\nhuman_shell_hint: The task is visible in the background-task panel\.\n\nforeground_output:\nstarted\n$/,
    );
  });

  it("checks only that a timeout is a positive whole number, as 2.1.0 does", async () => {
    const { tools } = kimiCodeHarness.open({ scratchDir: scratch } as HarnessContext);
    const bash = tools.find((tool) => tool.name === "Bash") as Tool;
    expect(bash.schema.safeParse({ command: "ls", timeout: 301 }).success).toBe(true);
    expect(bash.schema.safeParse({ command: "ls", timeout: 100_000, run_in_background: true }).success).toBe(
      true,
    );
    expect(bash.schema.safeParse({ command: "ls", timeout: 0 }).success).toBe(false);
    expect((await call("Bash", { command: "echo ok", timeout: 301 })).output).toBe("ok\n");
  });

  it("caps lines at 2000 and output at 50 000 characters, and saves the full log for Read", async () => {
    const out = await call("Bash", {
      command:
        "node -e \"for (let i = 0; i < 40; i++) console.log(String(i).padStart(4, '0') + 'x'.repeat(1500))\"",
    });
    const [head, reference] = out.output.split("\n\n[Full output saved]\n");
    const shown = head?.split("\n") ?? [];
    expect(shown.length).toBe(35);
    expect(shown[32]).toBe(`0032${"x".repeat(1500)}`);
    expect(shown[33]).toBe(`0033${"x".repeat(316)}[...truncated]`);
    expect(shown[34]).toBe("Command executed successfully. Output is truncated to fit in the message.");
    const match =
      /^task_id: (bash-[0-9a-z]{8})\noutput_path: (.+)\noutput_size_bytes: (\d+)\nnext_step: Use Read with output_path to page through the full log\.$/.exec(
        reference ?? "",
      );
    expect(match?.[2]).toBe(path.join(scratch, "tasks", match?.[1] ?? "", "output.log"));
    const log = readFileSync(match?.[2] ?? "", "utf8");
    expect(log.split("\n")).toHaveLength(41);
    expect(match?.[3]).toBe(String(Buffer.byteLength(log)));
  });

  it("cuts an overlong line with the marker even when the total is small", async () => {
    const out = await call("Bash", { command: "printf 'a%.0s' $(seq 2500); echo; exit 1" });
    expect(out.output.split("\n").slice(0, 2)).toEqual([
      `${"a".repeat(1985)}[...truncated]`,
      "Command failed with exit code: 1. Output is truncated to fit in the message.",
    ]);
    expect(out.output).toContain("[Full output saved]");
  });
});

describe("Read", () => {
  it("numbers lines `<n>\\t` and appends the <system> status block", async () => {
    file("a.txt", "alpha\n\tbeta\n");
    expect(await call("Read", { path: "a.txt" })).toEqual({
      output:
        "1\talpha\n2\t\tbeta\n<system>2 lines read from file starting from line 1. Total lines in file: 2. Requested range complete. Effective max_chars: 100000. End of file reached.</system>",
    });
  });

  it("reads a window, and from the end with a negative offset", async () => {
    file("b.txt", `${lines(20).join("\n")}\n`);
    expect((await call("Read", { path: "b.txt", line_offset: 5, n_lines: 2 })).output).toBe(
      `${numbered(2, 5)}\n<system>2 lines read from file starting from line 5. Total lines in file: 20. Requested range complete. Effective max_chars: 100000.</system>`,
    );
    expect((await call("Read", { path: "b.txt", line_offset: -3 })).output).toBe(
      `${numbered(3, 18)}\n<system>3 lines read from file starting from line 18. Total lines in file: 20. Requested range complete. Effective max_chars: 100000. End of file reached.</system>`,
    );
  });

  it("has no line cap and keeps long lines whole within the character budget", async () => {
    file("c.txt", [...lines(2), "y".repeat(2100), ...lines(1200, 4)].join("\n"));
    const out = (await call("Read", { path: "c.txt" })).output;
    expect(out.split("\n")[2]).toBe(`3\t${"y".repeat(2100)}`);
    expect(out.split("\n").at(-2)).toBe("1203\tline1203");
    expect(out.split("\n").at(-1)).toBe(
      "<system>1203 lines read from file starting from line 1. Total lines in file: 1203. Requested range complete. Effective max_chars: 100000. End of file reached.</system>",
    );
  });

  it("shows CRLF files with LF and marks lone carriage returns", async () => {
    file("crlf.txt", "a\r\nb\r\n");
    expect((await call("Read", { path: "crlf.txt" })).output).toBe(
      "1\ta\n2\tb\n<system>2 lines read from file starting from line 1. Total lines in file: 2. Requested range complete. Effective max_chars: 100000. End of file reached.</system>",
    );
    file("mixed.txt", "a\r\nb\n");
    expect((await call("Read", { path: "mixed.txt" })).output).toBe(
      "1\ta\\r\n2\tb\n<system>2 lines read from file starting from line 1. Total lines in file: 2. Requested range complete. Effective max_chars: 100000. End of file reached. Mixed or lone carriage-return line endings are shown as \\r. Use exact \\r\\n or \\r escapes in Edit.old_string for those lines.</system>",
    );
  });

  it("reports an empty file with Kimi's empty-output line", async () => {
    file("empty.txt", "");
    expect((await call("Read", { path: "empty.txt" })).output).toBe(
      "<system>Tool output is empty.</system>\n<system>No lines read from file. Total lines in file: 0. Requested range complete. Effective max_chars: 100000. End of file reached.</system>",
    );
  });

  it("keeps a page over 50 000 characters inline: Read results are never spilled", async () => {
    file("wide.txt", `${Array.from({ length: 40 }, (_, i) => `${i}`.padEnd(1500, "z")).join("\n")}\n`);
    const out = (await call("Read", { path: "wide.txt" })).output;
    expect(out).toMatch(/^1\t0z+\n2\t1z+/);
    expect(out.slice(60150)).toBe(
      "\n<system>40 lines read from file starting from line 1. Total lines in file: 40. Requested range complete. Effective max_chars: 100000. End of file reached.</system>",
    );
    expect(readdirSync(scratch)).toEqual([]);
  });

  it("words refusals the way Kimi Code does", async () => {
    file(".env", "SECRET=1");
    file("bin.dat", Buffer.from([0x41, 0x00, 0x42]));
    mkdirSync(path.join(dir, "folder"));
    const err = async (args: object) => {
      const out = await call("Read", args);
      expect(out.isError).toBe(true);
      return out.output;
    };
    expect(await err({ path: "missing.txt" })).toBe('"missing.txt" does not exist.');
    expect(await err({ path: "folder" })).toBe('"folder" is not a file.');
    expect(await err({ path: "bin.dat" })).toBe(
      '"bin.dat" is not readable as UTF-8 text. Only text files can be read.',
    );
    expect(await err({ path: ".env" })).toBe(
      '".env" matches a sensitive-file pattern (env / credential / SSH key). Access is blocked to protect secrets.',
    );
    expect(await err({ path: "../elsewhere.txt" })).toBe(
      '"../elsewhere.txt" is not an absolute path. You must provide an absolute path to read a file outside the working directory.',
    );
  });
});
