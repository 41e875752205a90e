import path from "node:path";
import { z } from "zod";
import { fence } from "../../tools/markdown-fence.js";
import type { Tool, ToolContext } from "../../tools/types.js";
import type { EditorArgs } from "./editor-args.js";
import { countOf, expandTabs, makeOutput, pyList } from "./editor-text.js";
import { formatObservation } from "./observation.js";

const Args = z.looseObject({
  command: z.string(),
  path: z.string(),
  file_text: z.string().optional(),
  view_range: z.tuple([z.number().int(), z.number().int()]).optional(),
  old_str: z.string().optional(),
  new_str: z.string().optional(),
  insert_line: z.number().int().optional(),
  usage_error: z.string().optional(),
});

const SNIPPET_LINES = 4;

/** What the editor printed; `failed` where it exits non-zero. */
interface Printed {
  text: string;
  failed?: boolean;
}

const fail = (text: string): Printed => ({ text, failed: true });

/**
 * SWE-agent's `str_replace_editor` (1.1.0 `tools/edit_anthropic/bin/str_replace_editor`), the
 * command its default configuration edits with: `view`, `create`, `str_replace`, `insert`,
 * `undo_edit`, with the original's messages, `cat -n` snippets and 16,000-character clip. The
 * harness reads it out of the reply's command line; what it prints comes back as a step.
 * Edits go through the file-system port; `undo_edit` remembers this session's edits.
 */
export function strReplaceEditorTool(): Tool<EditorArgs> {
  const history = new Map<string, string[]>();
  const remember = (file: string, text: string) => history.set(file, [...(history.get(file) ?? []), text]);

  async function run(args: EditorArgs, ctx: ToolContext): Promise<Printed> {
    if (args.usage_error !== undefined) return fail(args.usage_error);
    const file = args.path;
    const stat = path.isAbsolute(file) ? await ctx.fs.stat(file) : undefined;
    if (!path.isAbsolute(file)) {
      return fail(
        `The path ${file} is not an absolute path, it should start with \`/\`. Maybe you meant ${path.join(ctx.cwd, file)}?`,
      );
    }
    if (!stat && args.command !== "create")
      return fail(`The path ${file} does not exist. Please provide a valid path.`);
    if (stat && args.command === "create") {
      return fail(`File already exists at: ${file}. Cannot overwrite files using command \`create\`.`);
    }
    if (stat?.isDirectory && args.command !== "view") {
      return fail(`The path ${file} is a directory and only the \`view\` command can be used on directories`);
    }
    switch (args.command) {
      case "view":
        return stat?.isDirectory ? viewDirectory(args, ctx) : viewFile(args, ctx);
      case "create": {
        if (args.file_text === undefined)
          return fail("Parameter `file_text` is required for command: create");
        if (!(await ctx.fs.stat(path.dirname(file)))?.isDirectory) {
          return fail(`The parent directory ${path.dirname(file)} does not exist. Please create it first.`);
        }
        await ctx.fs.writeText(file, args.file_text);
        remember(file, args.file_text);
        return { text: `File created successfully at: ${file}` };
      }
      case "str_replace":
        if (args.old_str === undefined)
          return fail("Parameter `old_str` is required for command: str_replace");
        return strReplace(args as EditorArgs & { old_str: string }, ctx);
      case "insert":
        if (args.insert_line === undefined)
          return fail("Parameter `insert_line` is required for command: insert");
        if (args.new_str === undefined) return fail("Parameter `new_str` is required for command: insert");
        return insert(file, args.insert_line, args.new_str, ctx);
      case "undo_edit": {
        const stack = history.get(file) ?? [];
        const previous = stack.pop();
        if (previous === undefined) return fail(`No edit history found for ${file}.`);
        await ctx.fs.writeText(file, previous);
        return { text: `Last edit to ${file} undone successfully. ${makeOutput(previous, file)}` };
      }
      default:
        return fail(
          `Unrecognized command ${args.command}. The allowed commands for the str_replace_editor tool are: "view", "create", "str_replace", "insert", "undo_edit"`,
        );
    }
  }

  async function strReplace(args: EditorArgs & { old_str: string }, ctx: ToolContext): Promise<Printed> {
    const file = args.path;
    const content = expandTabs(await readFile(file, ctx));
    const oldStr = expandTabs(args.old_str);
    const newStr = args.new_str !== undefined ? expandTabs(args.new_str) : "";
    const occurrences = countOf(content, oldStr);
    if (occurrences === 0) {
      return fail(`No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${file}.`);
    }
    if (occurrences > 1) {
      const lines = content.split("\n").flatMap((line, i) => (line.includes(oldStr) ? [i + 1] : []));
      return fail(
        `No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines ${pyList(lines)}. Please ensure it is unique`,
      );
    }
    if (newStr === oldStr) {
      return fail(
        `No replacement was performed, old_str \`${oldStr}\` is the same as new_str \`${newStr}\`.`,
      );
    }
    const updated = content.split(oldStr).join(newStr);
    await ctx.fs.writeText(file, updated);
    remember(file, content);
    const replacementLine = countOf(content.split(oldStr)[0]!, "\n");
    const start = Math.max(1, replacementLine - SNIPPET_LINES);
    const end = Math.min(
      replacementLine + SNIPPET_LINES + countOf(newStr, "\n"),
      updated.split(/\r\n|\r|\n/).length - (/(\r\n|\r|\n)$/.test(updated) ? 1 : 0),
    );
    const snippet = updated
      .split("\n")
      .slice(start - 1, end)
      .join("\n");
    return {
      text:
        `The file ${file} has been edited. ${makeOutput(snippet, `a snippet of ${file}`, start)}` +
        "Review the changes and make sure they are as expected. Edit the file again if necessary.",
    };
  }

  async function insert(file: string, line: number, text: string, ctx: ToolContext): Promise<Printed> {
    const content = expandTabs(await readFile(file, ctx));
    const newStr = expandTabs(text);
    const lines = content.split("\n");
    if (line < 0 || line > lines.length) {
      return fail(
        `Invalid \`insert_line\` parameter: ${line}. It should be within the range of lines of the file: ${pyList([0, lines.length])}`,
      );
    }
    const inserted = newStr.split("\n");
    await ctx.fs.writeText(file, [...lines.slice(0, line), ...inserted, ...lines.slice(line)].join("\n"));
    remember(file, content);
    const snippet = [
      ...lines.slice(Math.max(0, line - SNIPPET_LINES), line),
      ...inserted,
      ...lines.slice(line, line + SNIPPET_LINES),
    ].join("\n");
    return {
      text:
        `The file ${file} has been edited. ${makeOutput(snippet, "a snippet of the edited file", Math.max(1, line - SNIPPET_LINES + 1))}` +
        "Review the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.",
    };
  }

  return {
    name: "str_replace_editor",
    description: "Custom editing tool for viewing, creating and editing files",
    kind: "edit",
    capability: "edit",
    parameters: {
      type: "object",
      properties: {
        command: { type: "string", enum: ["view", "create", "str_replace", "insert", "undo_edit"] },
        path: { type: "string" },
        file_text: { type: "string" },
        old_str: { type: "string" },
        new_str: { type: "string" },
        insert_line: { type: "integer" },
        view_range: { type: "array", items: { type: "integer" } },
      },
      required: ["command", "path"],
    },
    schema: Args as unknown as z.ZodType<EditorArgs>,
    preview: async (args) => ({
      title: `str_replace_editor ${args.command} ${args.path}`,
      locations: path.isAbsolute(args.path) ? [{ path: args.path }] : [],
    }),
    access: (args, ctx) => {
      if (args.usage_error !== undefined) return { type: "none" };
      const file = path.resolve(ctx.cwd, args.path);
      return args.command === "view" ? { type: "read", paths: [file] } : { type: "write", paths: [file] };
    },
    async execute(args, ctx) {
      const printed = await run(args, ctx);
      // `print` ends each message with a newline; a listing whose `find` failed prints nothing.
      const output = printed.text === "" ? "" : `${printed.text}\n`;
      return {
        output: formatObservation(output),
        isError: printed.failed === true,
        display: [{ type: "text", text: fence(output) }],
      };
    },
  };
}

/** The original tries UTF-8, then Latin-1 (which reads any bytes). */
async function readFile(file: string, ctx: ToolContext): Promise<string> {
  try {
    return await ctx.fs.readText(file);
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") throw error;
    return Buffer.from(await ctx.fs.readBytes(file)).toString("latin1");
  }
}

async function viewDirectory(args: EditorArgs, ctx: ToolContext): Promise<Printed> {
  if (args.view_range)
    return fail("The `view_range` parameter is not allowed when `path` points to a directory.");
  const quoted = `'${args.path.replace(/'/g, `'"'"'`)}'`;
  const result = await ctx.exec.run({
    command: `find ${quoted} -maxdepth 2 -not -path '*/\\.*'`,
    cwd: ctx.cwd,
    timeoutMs: 30_000,
    signal: ctx.signal,
  });
  if (result.streams?.stderr) return { text: "" };
  const listing = result.streams?.stdout ?? result.output;
  return {
    text: `Here's the files and directories up to 2 levels deep in ${args.path}, excluding hidden items:\n${listing}\n`,
  };
}

async function viewFile(args: EditorArgs, ctx: ToolContext): Promise<Printed> {
  const content = await readFile(args.path, ctx);
  if (!args.view_range) return { text: makeOutput(content, args.path, 1) };
  const lines = content.split("\n");
  const [first, last] = args.view_range;
  const range = `[${first}, ${last}]`;
  if (first < 1 || first > lines.length) {
    return fail(
      `Invalid \`view_range\`: ${range}. Its first element \`${first}\` should be within the range of lines of the file: ${pyList([1, lines.length])}`,
    );
  }
  if (last > lines.length) {
    return fail(
      `Invalid \`view_range\`: ${range}. Its second element \`${last}\` should be smaller than the number of lines in the file: \`${lines.length}\``,
    );
  }
  if (last !== -1 && last < first) {
    return fail(
      `Invalid \`view_range\`: ${range}. Its second element \`${last}\` should be larger or equal than its first \`${first}\``,
    );
  }
  const end = last === -1 ? lines.length : last;
  return { text: makeOutput(lines.slice(first - 1, end).join("\n"), args.path, first) };
}
