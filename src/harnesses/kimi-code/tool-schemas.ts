/**
 * JSON schemas of Kimi Code's core tools exactly as Kimi Code sends them: zod 4
 * `toJSONSchema(draft-7, io: input)` with every object closed (`additionalProperties: false`),
 * so keys come in zod's order (`$schema, type, properties, required, additionalProperties`;
 * a required property lists `type` first, an optional one `description` first). Parameter
 * descriptions are our wording of upstream's, with its defaults, limits and examples.
 *
 * Sources: OI `codex-rs/core/src/harness/kimi_code_tools.json` (captured from the product)
 * and MoonshotAI/kimi-code `packages/agent-core-v2/src/agent/tools/{os/bash,os/read,os/write,
 * edit,os/glob,os/grep,todo-list}/*.ts` (the zod schemas they come from). Bash's `timeout`
 * wording follows agent-core-v2 (`Background default 600s`); the OI capture predates it. The task
 * tools' schemas (TaskList, TaskOutput, TaskStop, WaitFor) are 2.1.0's as captured.
 */

const SCHEMA = "http://json-schema.org/draft-07/schema#";
/** zod's bound for `.int()` (Number.MAX_SAFE_INTEGER). */
const MAX_INT = 9007199254740991;

const str = (description: string) => ({ type: "string", description });
const optStr = (description: string) => ({ description, type: "string" });
const optBool = (description: string) => ({ description, type: "boolean" });
const count = (minimum: number) => ({ type: "integer", minimum, maximum: MAX_INT });
const positive = { type: "integer", exclusiveMinimum: 0, maximum: MAX_INT };
const optCount = (description: string) => ({ description, ...count(0) });

function object(properties: Record<string, unknown>, required: string[]) {
  return { $schema: SCHEMA, type: "object", properties, required, additionalProperties: false };
}

const ignoredFiles = (verb: string) =>
  `When true, ${verb} files that \`.gitignore\`, \`.ignore\` or \`.rgignore\` would leave out, such as \`node_modules\` or build output. ` +
  "Sensitive files like `.env` stay hidden for safety, and version-control directories such as `.git` are skipped even when this is set. False by default.";

export const bashSchema = object(
  {
    command: { type: "string", minLength: 1, description: "Shell command to run." },
    cwd: optStr("Directory to run the command in; the session's working directory if left out."),
    timeout: {
      default: 60,
      description:
        "Optional time limit in seconds. Foreground commands: 60s unless given; one still running then moves to the background. Background commands: 600s unless given, and none at all with disable_timeout=true.",
      type: "integer",
      exclusiveMinimum: 0,
      maximum: MAX_INT,
    },
    description: optStr("Brief label for the background task; needed whenever run_in_background is true."),
    run_in_background: optBool("Start the command in the background rather than waiting for it to finish."),
    disable_timeout: optBool(
      "When true, the command gets no time limit. Has an effect only together with run_in_background.",
    ),
  },
  ["command"],
);

export const editSchema = object(
  {
    path: str(
      "Text file to edit. A relative path is taken from the working directory; anything outside the working directory needs an absolute path.",
    ),
    old_string: {
      type: "string",
      minLength: 1,
      description:
        "The text to replace, exactly as Read displays it, minus the line-number prefix. In a file whose line endings are all CRLF write plain LF; where Read shows \\r, write a real \\r escape.",
    },
    new_string: str(
      "The new text, in the same form as Read displays. LF turns into CRLF on writing only in files whose line endings are all CRLF.",
    ),
    replace_all: optBool(
      "Replace all occurrences of old_string; leave it off unless every one has to change.",
    ),
  },
  ["path", "old_string", "new_string"],
);

export const globSchema = object(
  {
    pattern: str("Glob that file paths must match."),
    head_limit: optCount(
      "Most matching paths to return, counted from offset; 100 unless given, and 0 lifts the count limit. The character limit stays: a large page is saved to a file for Read, and an offset to continue with is given while paths remain. Search-time and output-capture limits apply as well.",
    ),
    offset: optCount(
      "How many matching paths to skip; 0 unless given. Every call searches the file system afresh, so changes in between can move paths from one page to another.",
    ),
    path: optStr(
      "Directory to search in, absolute or relative to the current working directory, which is also where the search runs when this is left out.",
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
    pattern: str("The regular expression to look for."),
    path: optStr(
      "File or directory to search, absolute or relative to the current working directory; the current working directory when left out. If you already know which file you want and need what is in it, use Read instead.",
    ),
    glob: optStr(
      "Optional glob choosing which files to search, such as `*.ts`. It is compared with each file's complete absolute path; hence a pattern tied to a relative folder (`src/**/*.ts`) finds nothing, without any warning: write a file-name pattern (`*.ts`) or begin it with `**/` (`**/src/**/*.ts`). To keep the search inside one directory, set `path` instead.",
    ),
    type: optStr(
      "Optional ripgrep file type, for example ts or py. To narrow the search by language or kind of file, choose this over `glob`: it is faster and harder to get wrong than the matching glob pattern.",
    ),
    output_mode: {
      description:
        "How results are presented. `content`: the matching lines (uses `-A`, `-B`, `-C`, `-n` and `head_limit`). `files_with_matches`: only the paths of files with a match, most recently modified first (uses `head_limit`). `count_matches`: one `path:count` line per file, after a line with the overall total. `files_with_matches` when left out.",
      type: "string",
      enum: ["content", "files_with_matches", "count_matches"],
    },
    "-i": optBool("Ignore case when matching. False by default."),
    "-n": optBool(
      "Put the line number in front of each matching line. Used only with `output_mode` `content`. True by default.",
    ),
    "-A": optCount("Lines of context to include after each match. Used only with `output_mode` `content`."),
    "-B": optCount("Lines of context to include before each match. Used only with `output_mode` `content`."),
    "-C": optCount(
      "Lines of context to include on both sides of each match. Used only with `output_mode` `content`, and wins over `-A` and `-B`.",
    ),
    head_limit: optCount(
      "Show at most N lines/entries, counted from offset. 250 unless given; 0 removes the limit.",
    ),
    offset: optCount(
      "How many lines/entries to skip before `head_limit` is applied. Pair it with `head_limit` to page through long results. 0 by default.",
    ),
    multiline: optBool(
      "Let the pattern match across line breaks, with `.` matching newlines as well. False by default.",
    ),
    include_ignored: optBool(ignoredFiles("search")),
  },
  ["pattern"],
);

export const readSchema = object(
  {
    path: str(
      "Text file to read. A relative path is taken from the working directory; outside the working directory the path must be absolute. Directories cannot be read: list a known one with `ls` through Bash, or find files by pattern with Glob.",
    ),
    line_offset: {
      description:
        "Line to begin reading at; line 1 when left out. A negative number counts back from the end of the file (-100 reads the last 100 lines).",
      anyOf: [
        { type: "integer", minimum: 1, maximum: MAX_INT },
        { type: "integer", minimum: -MAX_INT, exclusiveMaximum: 0 },
      ],
    },
    column_offset: {
      description:
        "Where to resume inside the first line of a forward read: a zero-based position in the line's displayed text, line-number prefix excluded, counted in JavaScript string length. Take it from the Next Read arguments of the previous result to continue a long line.",
      ...count(0),
    },
    n_lines: {
      description:
        "How many lines to read; toward the end of the file when left out. The page still stays within max_chars, and an unfinished range comes with the arguments to continue it.",
      ...positive,
    },
    max_chars: {
      description:
        "Most characters the result may hold, line numbers and status block included. The configured default applies when left out; a larger request than the configured maximum is capped.",
      ...positive,
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
        "The whole todo list after your changes. Leave it out to see the current list without changing it; an empty array clears it.",
      type: "array",
      items: {
        type: "object",
        properties: {
          title: { type: "string", minLength: 1, description: "A brief title that says what to do." },
          status: {
            type: "string",
            enum: ["pending", "in_progress", "done"],
            description: "Where this item stands now.",
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
      "File to create, replace entirely, or append to. A relative path is taken from the working directory; outside it the path must be absolute. Parent directories that do not exist yet are made.",
    ),
    content: str(
      "The complete raw content, written exactly as given; the Read/Edit text view plays no part here.",
    ),
    mode: {
      description:
        "overwrite (the default) replaces the file; append puts content at its end exactly as given, with no newline added.",
      type: "string",
      enum: ["overwrite", "append"],
    },
  },
  ["path", "content"],
);

const pixel = (description: string, minimum: number) => ({
  type: "integer",
  minimum,
  maximum: MAX_INT,
  description,
});

export const readMediaFileSchema = object(
  {
    path: str(
      "The image or video file to view. A relative path is taken from the working directory; anything outside it needs an absolute path. Text files and directories cannot be viewed here.",
    ),
    region: {
      description:
        "Images only: view just this rectangle, in pixels of the original image. Use it after a downsampled view to see fine detail: a region that fits the limits comes at full fidelity.",
      type: "object",
      properties: {
        x: pixel("Left edge of the rectangle, in original-image pixels.", 0),
        y: pixel("Top edge of the rectangle, in original-image pixels.", 0),
        width: pixel("Width of the rectangle, in original-image pixels.", 1),
        height: pixel("Height of the rectangle, in original-image pixels.", 1),
      },
      required: ["x", "y", "width", "height"],
      additionalProperties: false,
    },
    full_resolution: optBool(
      "Images only: send the image at its own resolution without the default downscaling. Fails with an error when the file is over the per-image byte limit; use region for files that big.",
    ),
  },
  ["path"],
);

export const fetchUrlSchema = object({ url: str("The address of the page to fetch.") }, ["url"]);

export const taskListSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {
    active_only: {
      default: true,
      description: "Only tasks still running (the default); false lists finished ones too.",
      type: "boolean",
    },
    limit: {
      default: 20,
      description: "How many tasks to list at most.",
      type: "integer",
      minimum: 1,
      maximum: 100,
    },
  },
  additionalProperties: false,
};

export const taskOutputSchema = object({ task_id: str("Id of the task whose output to show.") }, ["task_id"]);

export const taskStopSchema = object(
  {
    task_id: str("Id of the task to stop."),
    reason: {
      default: "Stopped by TaskStop",
      description: "Why it is stopped, recorded with the task.",
      type: "string",
    },
  },
  ["task_id"],
);

export const waitForSchema = object(
  {
    timeout: {
      type: "integer",
      exclusiveMinimum: 0,
      maximum: 600,
      description:
        "Seconds to wait at most, 1 to 600. Running out is not an error: the result says what still runs, and the end is announced later anyway.",
    },
    task_id: optStr(
      "The task to wait for. Leave it out to wait for whichever running task ends first; an id that names no task is an error.",
    ),
  },
  ["timeout"],
);
