/**
 * JSON schemas of Kimi Code's core tools exactly as Kimi Code sends them: zod 4
 * `toJSONSchema(draft-7, io: input)` with every object closed (`additionalProperties: false`),
 * so keys come in zod's order (`$schema, type, properties, required, additionalProperties`;
 * a required property lists `type` first, an optional one `description` first). Parameter
 * descriptions are upstream's exact strings.
 *
 * Sources: OI `codex-rs/core/src/harness/kimi_code_tools.json` (captured from the product)
 * and MoonshotAI/kimi-code `packages/agent-core-v2/src/agent/tools/{os/bash,os/read,os/write,
 * edit,os/glob,os/grep,todo-list}/*.ts` (the zod schemas they come from). Bash's `timeout`
 * wording follows agent-core-v2 (`Background default 600s`); the OI capture predates it.
 */

const SCHEMA = "http://json-schema.org/draft-07/schema#";
/** zod's bound for `.int()` (Number.MAX_SAFE_INTEGER). */
const MAX_INT = 9007199254740991;

const str = (description: string) => ({ type: "string", description });
const optStr = (description: string) => ({ description, type: "string" });
const optBool = (description: string) => ({ description, type: "boolean" });
const optCount = (description: string) => ({ description, type: "integer", minimum: 0, maximum: MAX_INT });

function object(properties: Record<string, unknown>, required: string[]) {
  return { $schema: SCHEMA, type: "object", properties, required, additionalProperties: false };
}

const ignoredFiles = (verb: string) =>
  `Also ${verb} ` +
  "files excluded by ignore files such as `.gitignore`, `.ignore`, and `.rgignore` (for example `node_modules` or build outputs). Sensitive files (such as `.env`) remain filtered out for safety. VCS metadata directories (`.git` and similar) are always skipped, even when this is true. Defaults to false.";

export const bashSchema = object(
  {
    command: { type: "string", minLength: 1, description: "The command to execute." },
    cwd: optStr(
      "The working directory in which to run the command. When omitted, the command runs in the session's working directory.",
    ),
    timeout: {
      default: 60,
      description:
        "Optional timeout in seconds for the command to execute. Foreground default 60s, max 300s. Background default 600s, max 86400s. Ignored for background commands when disable_timeout=true.",
      type: "integer",
      exclusiveMinimum: 0,
      maximum: MAX_INT,
    },
    description: optStr(
      "A short description for the background task. Required when run_in_background is true.",
    ),
    run_in_background: optBool("Whether to run the command as a background task."),
    disable_timeout: optBool(
      "If true, do not apply a timeout to the command. Only applies when run_in_background is true.",
    ),
  },
  ["command"],
);

export const editSchema = object(
  {
    path: str(
      "Path to the text file to edit. Relative paths resolve against the working directory; a path outside the working directory must be absolute.",
    ),
    old_string: {
      type: "string",
      minLength: 1,
      description:
        "Exact content to replace from the Read output view, without the line-number prefix. Use LF for pure CRLF files; use actual \\r escapes where Read shows \\r.",
    },
    new_string: str(
      "Replacement text in the same Read output view. LF is written back as CRLF only for pure CRLF files.",
    ),
    replace_all: optBool("Set true only when every occurrence of old_string should be replaced."),
  },
  ["path", "old_string", "new_string"],
);

export const globSchema = object(
  {
    pattern: str("Glob pattern to match files."),
    path: optStr(
      "Directory to search. Accepts an absolute path, or a path relative to the current working directory. Defaults to the current working directory.",
    ),
    include_ignored: optBool(ignoredFiles("match")),
    include_dirs: optBool(
      "No longer used: only files are returned, never directories. The flag is still accepted so that callers which send it keep passing validation.",
    ),
  },
  ["pattern"],
);

export const grepSchema = object(
  {
    pattern: str("Regular expression to search for."),
    path: optStr(
      "File or directory to search. Accepts an absolute path, or a path relative to the current working directory. Omit to search the current working directory. Use Read instead when you already know a concrete file path and need its contents.",
    ),
    glob: optStr(
      "Optional glob filter for which files to search, e.g. `*.ts`. Matched against each file's full absolute path, so a path-anchored pattern like `src/**/*.ts` silently matches nothing — use a basename pattern (`*.ts`), or anchor with `**/` (`**/src/**/*.ts`). To scope the search to a directory, use `path` instead.",
    ),
    type: optStr(
      "Optional ripgrep file type filter, such as ts or py. Prefer this over `glob` when filtering by language or file kind: it is more efficient and less error-prone than an equivalent glob pattern.",
    ),
    output_mode: {
      description:
        "Shape of the result. `content` shows matching lines (honors `-A`, `-B`, `-C`, `-n`, and `head_limit`); `files_with_matches` shows only the paths of files that contain a match, most-recently-modified first (honors `head_limit`); `count_matches` shows per-file match counts as `path:count` lines, preceded by an aggregate total line. Defaults to `files_with_matches`.",
      type: "string",
      enum: ["content", "files_with_matches", "count_matches"],
    },
    "-i": optBool("Perform a case-insensitive search. Defaults to false."),
    "-n": optBool(
      "Prefix each matching line with its line number. Applies only when `output_mode` is `content`. Defaults to true.",
    ),
    "-A": optCount("Number of lines to show after each match. Applies only when `output_mode` is `content`."),
    "-B": optCount(
      "Number of lines to show before each match. Applies only when `output_mode` is `content`.",
    ),
    "-C": optCount(
      "Number of lines to show before and after each match. Applies only when `output_mode` is `content`; takes precedence over `-A` and `-B`.",
    ),
    head_limit: optCount(
      "Limit output to the first N lines/entries after offset. Defaults to 250. Pass 0 for unlimited.",
    ),
    offset: optCount(
      "Number of leading lines/entries to skip before applying `head_limit`. Use it together with `head_limit` to page through large result sets. Defaults to 0.",
    ),
    multiline: optBool(
      "Enable multiline matching, where the pattern can span line boundaries and `.` also matches newlines. Defaults to false.",
    ),
    include_ignored: optBool(ignoredFiles("search")),
  },
  ["pattern"],
);

export const readSchema = object(
  {
    path: str(
      "Path to a text file. Relative paths resolve against the working directory; a path outside the working directory must be absolute. Directories are not supported; use `ls` via Bash for a known directory, or Glob for pattern search.",
    ),
    line_offset: {
      description:
        "The line number to start reading from. Omit to start at line 1. Negative values read from the end of the file; the absolute value cannot exceed 1000.",
      anyOf: [
        { type: "integer", minimum: 1, maximum: MAX_INT },
        { type: "integer", minimum: -1000, maximum: -1 },
      ],
    },
    n_lines: {
      description:
        "The number of lines to read; the tool also applies its internal cap. Omit to read up to the internal cap of 1000 lines.",
      type: "integer",
      exclusiveMinimum: 0,
      maximum: MAX_INT,
    },
  },
  ["path"],
);

export const todoListSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {
    todos: {
      description:
        "The updated todo list. Omit to read the current todo list without making changes. Pass an empty array to clear the list.",
      type: "array",
      items: {
        type: "object",
        properties: {
          title: { type: "string", minLength: 1, description: "Short, actionable title for the todo." },
          status: {
            type: "string",
            enum: ["pending", "in_progress", "done"],
            description: "Current status of the todo.",
          },
        },
        required: ["title", "status"],
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
};

export const writeSchema = object(
  {
    path: str(
      "Path to the file to create, append to, or completely overwrite. Relative paths resolve against the working directory; a path outside the working directory must be absolute. Missing parent directories are created automatically.",
    ),
    content: str(
      "Raw full file content to write exactly as provided. This does not use the Read/Edit text view.",
    ),
    mode: {
      description:
        "Write mode. Defaults to overwrite. append adds content to the end exactly as provided and does not add a newline.",
      type: "string",
      enum: ["overwrite", "append"],
    },
  },
  ["path", "content"],
);
