/**
 * JSON schemas of Kimi CLI 1.49.0's tools as it sends them: pydantic's `model_json_schema` with
 * titles dropped and `$defs` inlined (kosong `tooling/__init__.py`), so each property lists its
 * keys alphabetically (`anyOf`, `default`, `description`, `enum`, `items`, `maximum`,
 * `minimum`, `type`), optional fields carry their default, nullable ones an `anyOf` with null,
 * and no object is closed. Names, keys, types, defaults and bounds are 1.49.0's (held to its
 * `tests/tools/test_tool_schemas.py` snapshots); the descriptions are our wording of its.
 */

const str = (description: string) => ({ description, type: "string" });
const nullable = (type: Record<string, unknown>, description: string, fallback: unknown = null) => ({
  anyOf: [type, { type: "null" }],
  default: fallback,
  description,
});
const flag = (fallback: boolean, description: string) => ({
  default: fallback,
  description,
  type: "boolean",
});

function object(properties: Record<string, unknown>, required?: string[]) {
  return { properties, ...(required ? { required } : {}), type: "object" };
}

const PATH_HINT = "Paths outside the working directory must be absolute.";

export const shellSchema = object(
  {
    command: str("The command to run."),
    timeout: {
      default: 60,
      description: "Seconds the command may take before it is killed.",
      maximum: 86400,
      minimum: 1,
      type: "integer",
    },
    run_in_background: flag(false, "Run the command as a background task."),
    description: {
      default: "",
      description: "A short label for the background task; needed when run_in_background=true.",
      type: "string",
    },
  },
  ["command"],
);

export const readFileSchema = object(
  {
    path: str(`The file to read. ${PATH_HINT}`),
    line_offset: {
      default: 1,
      description:
        "The line to start from; the first line unless given. Give it when the file is too long to read in one go. A negative value counts from the end (-100 reads the last 100 lines); it may not go below -1000.",
      type: "integer",
    },
    n_lines: {
      default: 1000,
      description:
        "How many lines to read; 1000 unless given, which is also the most allowed. Give it when the file is too long to read in one go.",
      minimum: 1,
      type: "integer",
    },
  },
  ["path"],
);

export const readMediaFileSchema = object({ path: str(`The file to read. ${PATH_HINT}`) }, ["path"]);

export const globSchema = object(
  {
    pattern: str("The glob pattern files and directories must match."),
    directory: nullable(
      { type: "string" },
      "Absolute path of the directory to search in; the working directory if left out.",
    ),
    include_dirs: flag(true, "Whether directories are listed too."),
  },
  ["pattern"],
);

const contextLines = (option: string, what: string) =>
  nullable(
    { type: "integer" },
    `Lines of context to show ${what} each match (the \`${option}\` option). Only with \`output_mode\` \`content\`.`,
  );

export const grepSchema = object(
  {
    pattern: str("The regular expression to look for in file contents"),
    path: {
      default: ".",
      description:
        "The file or directory to search; the working directory if left out. When given, it must be an absolute path.",
      type: "string",
    },
    glob: nullable(
      { type: "string" },
      "Only search files matching this glob (e.g. `*.js`, `*.{ts,tsx}`). No filter unless given.",
    ),
    output_mode: {
      default: "files_with_matches",
      description:
        "`content` shows the matching lines (with `-B`, `-A`, `-C`, `-n`, `head_limit`); `files_with_matches` shows the paths of matching files (with `head_limit`); `count_matches` shows how many matches there are. `files_with_matches` unless given.",
      type: "string",
    },
    "-B": contextLines("-B", "before"),
    "-A": contextLines("-A", "after"),
    "-C": contextLines("-C", "before and after"),
    "-n": flag(
      true,
      "Show line numbers (the `-n` option). Only with `output_mode` `content`. True unless given.",
    ),
    "-i": flag(false, "Ignore case (the `-i` option)."),
    type: nullable(
      { type: "string" },
      "A file type to search, such as py, rust, js, ts, go or java. Cheaper than `glob` for the usual file types.",
    ),
    head_limit: nullable(
      { minimum: 0, type: "integer" },
      "Show at most the first N lines or entries, like `| head -N`, in every output mode (content lines, file paths, count entries). 250 unless given; 0 means no limit (use it sparingly: big results fill the context).",
      250,
    ),
    offset: {
      default: 0,
      description:
        "Skip the first N lines or entries before head_limit applies, like `| tail -n +N | head -N`, in every output mode. 0 unless given.",
      minimum: 0,
      type: "integer",
    },
    multiline: flag(
      false,
      "Multiline mode: `.` matches newlines and a pattern may span lines (the `-U` and `--multiline-dotall` options). Off unless given.",
    ),
    include_ignored: flag(
      false,
      "Also search files that `.gitignore`, `.ignore` and other ignore rules leave out, such as build output (`dist/`, `build/`) or `node_modules`. Sensitive files (like `.env`) stay filtered out. False unless given.",
    ),
  },
  ["pattern"],
);

export const writeFileSchema = object(
  {
    path: str(`The file to write. ${PATH_HINT}`),
    content: str("What to write to the file"),
    mode: {
      default: "overwrite",
      description:
        "How to write: `overwrite` replaces the whole file, `append` adds to the end of an existing file.",
      enum: ["overwrite", "append"],
      type: "string",
    },
  },
  ["path", "content"],
);

const edit = object(
  {
    old: str("The text to replace; may span lines."),
    new: str("The text to put in its place; may span lines."),
    replace_all: flag(false, "Replace every occurrence."),
  },
  ["old", "new"],
);

export const strReplaceFileSchema = object(
  {
    path: str(`The file to edit. ${PATH_HINT}`),
    edit: {
      anyOf: [edit, { items: edit, type: "array" }],
      description: "One edit, or a list of edits, to apply to the file.",
    },
  },
  ["path", "edit"],
);

export const setTodoListSchema = object({
  todos: nullable(
    {
      items: object(
        {
          title: { description: "What the item is", minLength: 1, type: "string" },
          status: {
            description: "Where the item stands",
            enum: ["pending", "in_progress", "done"],
            type: "string",
          },
        },
        ["title", "status"],
      ),
      type: "array",
    },
    "The whole new todo list. Leave it out to get the current list back unchanged.",
  ),
});

export const searchWebSchema = object(
  {
    query: str("What to search for."),
    limit: {
      default: 5,
      description:
        "How many results to return. Usually leave it alone; when the results miss what you need, a more precise query helps more.",
      maximum: 20,
      minimum: 1,
      type: "integer",
    },
    include_content: flag(
      false,
      "Also return the text of each page. This can cost many tokens; avoid it together with a large `limit`.",
    ),
  },
  ["query"],
);

export const fetchUrlSchema = object({ url: str("The URL to fetch.") }, ["url"]);

const option = (label: string, description: string) =>
  object(
    {
      label: str(label),
      description: { default: "", description, type: "string" },
    },
    ["label"],
  );

export const askUserQuestionSchema = object(
  {
    questions: {
      description: "The questions for the user (1 to 4).",
      items: object(
        {
          question: str("A specific question the user can act on, ending with '?'."),
          header: {
            default: "",
            description: "A short category tag (12 characters at most, e.g. 'Auth', 'Style').",
            type: "string",
          },
          options: {
            description:
              "2 to 4 meaningful, distinct options. Do NOT add an 'Other' option: the system adds one itself.",
            items: option(
              "Short display text (1-5 words); append '(Recommended)' to the one you recommend.",
              "A brief word on the trade-offs or consequences of this option.",
            ),
            maxItems: 4,
            minItems: 2,
            type: "array",
          },
          multi_select: flag(false, "Whether the user may pick several options."),
        },
        ["question", "options"],
      ),
      maxItems: 4,
      minItems: 1,
      type: "array",
    },
  },
  ["questions"],
);

export const enterPlanModeSchema = object({});

export const exitPlanModeSchema = object({
  options: {
    anyOf: [
      {
        items: option(
          "A short name for this approach (1-8 words); append '(Recommended)' to the one you recommend.",
          "A brief summary of this approach and its trade-offs.",
        ),
        maxItems: 3,
        type: "array",
      },
      { type: "null" },
    ],
    default: null,
    description:
      "When the plan holds alternative approaches, list them here (2-3) so the user can choose which to carry out, one option per approach. Never label one 'Reject', 'Revise', 'Approve' or 'Reject and Exit'.",
  },
});

export const taskListSchema = object({
  active_only: flag(true, "List only the background tasks that have not ended."),
  limit: { default: 20, description: "The most tasks to list.", maximum: 100, minimum: 1, type: "integer" },
});

export const taskOutputSchema = object(
  {
    task_id: str("The ID of the background task to look at."),
    block: flag(false, "Wait for the task to end before answering."),
    timeout: {
      default: 30,
      description: "The most seconds to wait when block=true.",
      maximum: 3600,
      minimum: 0,
      type: "integer",
    },
  },
  ["task_id"],
);

export const taskStopSchema = object(
  {
    task_id: str("The ID of the background task to stop."),
    reason: {
      default: "Stopped by TaskStop",
      description: "A short reason kept with the stopped task.",
      type: "string",
    },
  },
  ["task_id"],
);

export const agentSchema = object(
  {
    description: str("A short (3-5 word) label of the task"),
    prompt: str("The task for the agent"),
    subagent_type: {
      default: "coder",
      description: "Which built-in agent type to use; `coder` unless given.",
      type: "string",
    },
    model: nullable(
      { type: "string" },
      "A model to use instead. This parameter wins, then the agent type's own default model, then the parent agent's current model.",
    ),
    resume: nullable(
      { type: "string" },
      "The ID of an existing agent to continue instead of starting a new one.",
    ),
    run_in_background: flag(
      false,
      "Run the agent in the background. Keep false unless the task can go on by itself and handing control back before its result is needed clearly pays.",
    ),
    timeout: nullable(
      { maximum: 3600, minimum: 30, type: "integer" },
      "Seconds the agent may run before it is stopped. Foreground: no limit unless given, at most 3600 (an hour). Background: the configured default (15 minutes), at most 3600.",
    ),
  },
  ["description", "prompt"],
);
