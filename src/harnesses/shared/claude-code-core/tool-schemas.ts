/**
 * JSON schemas of Claude Code 2.1.44's tools as its CLI serializes them (zod v4's JSON Schema
 * output): keys `$schema, type, properties, required, additionalProperties`, the 2020-12
 * dialect, each property's `description` before its `type`. Names, order, types, required lists
 * and enums equal the capture of 2.1.44 (`conformance/harness-requests/claude-code-2.1.44.json`);
 * every description is our wording of 2.1.44's, with its rules, defaults and examples.
 */

const SCHEMA = "https://json-schema.org/draft/2020-12/schema";

const str = (description: string) => ({ description, type: "string" });
const num = (description: string) => ({ description, type: "number" });
const bool = (description: string) => ({ description, type: "boolean" });

function object(properties: Record<string, unknown>, required: string[]) {
  return { $schema: SCHEMA, type: "object", properties, required, additionalProperties: false };
}

export const bashSchema = object(
  {
    command: str("Shell command to run"),
    timeout: num("Optional time limit in milliseconds; 600000 at most"),
    description: str(
      'What the command does, in the active voice, for the user to read. Say it plainly; words such as "complex" or "risk" do not belong here.\n\nA simple command (git, npm, everyday CLI tools) gets 5-10 words:\n- ls → "Show the files in this directory"\n- git status → "Report the working tree\'s state"\n- npm install → "Install the package\'s dependencies"\n\nA command that is hard to read at a glance (pipes, unusual flags and the like) gets enough words to make it clear:\n- find . -name "*.tmp" -exec rm {} \\; → "Delete every .tmp file under this directory"\n- git reset --hard origin/main → "Throw away local changes and reset to remote main"\n- curl -s url | jq \'.data[]\' → "Download JSON and print each item of its data array"',
    ),
    run_in_background: bool("When true, the command is started in the background instead of awaited."),
    dangerouslyDisableSandbox: bool(
      "Asks to run the command outside the sandbox. The permission settings decide; leave it unset.",
    ),
  },
  ["command"],
);

export const readSchema = object(
  {
    file_path: str("Absolute path of the file to read"),
    offset: num("Line number to begin at; pass it only for a file too big to read in one call"),
    limit: num("How many lines to read; pass it only for a file too big to read in one call."),
    pages: str('Page range of a PDF file, such as "1-5" or "3". Only for PDF files; text files ignore it.'),
  },
  ["file_path"],
);

export const writeSchema = object(
  {
    file_path: str("Absolute path of the file to write; a relative path is not accepted"),
    content: str("The full text the file should hold"),
  },
  ["file_path", "content"],
);

export const editSchema = object(
  {
    file_path: str("Absolute path of the file to change"),
    old_string: str("Existing text to swap out"),
    new_string: str("Text to put in its place; it has to differ from old_string"),
    replace_all: {
      description: "Whether to replace each occurrence of old_string instead of one (default false)",
      default: false,
      type: "boolean",
    },
  },
  ["file_path", "old_string", "new_string"],
);

export const globSchema = object(
  {
    pattern: str("Glob pattern that file paths are matched against"),
    path: str(
      'Directory to search. Leave the field out to search the current working directory; IMPORTANT: never pass "undefined" or "null" to get that default, just omit the field. When given, it has to be an existing directory.',
    ),
  },
  ["pattern"],
);

const CONTENT_ONLY = 'Only used when output_mode is "content".';

export const grepSchema = object(
  {
    pattern: str("Regular expression to look for in file contents"),
    path: str("File or directory to search (rg's PATH); the current working directory if left out."),
    glob: str(
      'Glob limiting which files are searched, passed on as rg --glob (for example "*.js" or "*.{ts,tsx}")',
    ),
    output_mode: {
      description:
        'What to return: "content" gives the matching lines (with -A/-B/-C context, -n line numbers and head_limit), "files_with_matches" only the paths of matching files, "count" the number of matches per file; both of those honor head_limit too. The default is "files_with_matches".',
      type: "string",
      enum: ["content", "files_with_matches", "count"],
    },
    "-B": num(`Lines of context to print before each match (rg -B). ${CONTENT_ONLY}`),
    "-A": num(`Lines of context to print after each match (rg -A). ${CONTENT_ONLY}`),
    "-C": num("Same as context."),
    context: num(`Lines of context to print on both sides of each match (rg -C). ${CONTENT_ONLY}`),
    "-n": bool(`Prefix each matching line with its line number (rg -n); true unless set. ${CONTENT_ONLY}`),
    "-i": bool("Match regardless of case (rg -i)"),
    type: str(
      "Restrict the search to one ripgrep file type (rg --type), such as js, py, rust, go or java. For standard file types this is more efficient than a glob filter.",
    ),
    head_limit: num(
      'Keep only the first N lines or entries, as "| head -N" would, in every output mode: output lines for content, paths for files_with_matches, entries for count. 0 or leaving it out means no limit.',
    ),
    offset: num(
      'How many lines or entries to drop before head_limit is applied, as "| tail -n +N | head -N" would, in every output mode. 0 by default.',
    ),
    multiline: bool(
      "Let a pattern span several lines, with . matching newlines too (rg -U --multiline-dotall). Off by default.",
    ),
  },
  ["pattern"],
);

export const todoWriteSchema = object(
  {
    todos: {
      description: "The whole todo list as it stands after this update",
      type: "array",
      items: {
        type: "object",
        properties: {
          content: { type: "string", minLength: 1 },
          status: { type: "string", enum: ["pending", "in_progress", "completed"] },
          activeForm: { type: "string", minLength: 1 },
        },
        required: ["content", "status", "activeForm"],
        additionalProperties: false,
      },
    },
  },
  ["todos"],
);

export const skillSchema = object(
  {
    skill: str('Which skill to run, by name, such as "pdf", "commit" or "review-pr"'),
    args: str("Arguments handed to the skill, if any"),
  },
  ["skill"],
);

export const notebookEditSchema = object(
  {
    notebook_path: {
      description:
        "Absolute path of the Jupyter notebook (.ipynb) to edit; a relative path is taken from the working directory.",
      type: "string",
    },
    cell_id: {
      description:
        "The id of the cell to change. An inserted cell goes right after this one, or first when no id is given.",
      type: "string",
    },
    new_source: { description: "The cell's new source.", type: "string" },
    cell_type: {
      description:
        "The cell's type, code or markdown. Needed for an insert; on a replace, the current type is kept unless given.",
      type: "string",
      enum: ["code", "markdown"],
    },
    edit_mode: {
      description: "What to do: replace the cell (the default), insert a new one, or delete it.",
      type: "string",
      enum: ["replace", "insert", "delete"],
    },
  },
  ["notebook_path", "new_source"],
);

export const webFetchSchema = object(
  {
    url: { description: "The address of the page to fetch", type: "string", format: "uri" },
    prompt: str("What to find out from the fetched page"),
  },
  ["url", "prompt"],
);

const domains = (description: string) => ({ description, type: "array", items: { type: "string" } });

export const webSearchSchema = object(
  {
    query: { description: "What to search the web for", type: "string", minLength: 2 },
    allowed_domains: domains("Keep only results from these domains"),
    blocked_domains: domains("Leave out results from these domains"),
  },
  ["query"],
);

export const taskOutputSchema = object(
  {
    task_id: str("Id of the task whose output to get"),
    block: { description: "Wait for the task to finish first", default: true, type: "boolean" },
    timeout: {
      description: "Longest wait, in ms",
      default: 30000,
      type: "number",
      minimum: 0,
      maximum: 600000,
    },
  },
  ["task_id", "block", "timeout"],
);

/** Nothing is required: `shell_id` is the older name of `task_id`, and either one will do. */
export const taskStopSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {
    task_id: str("Id of the background task to stop"),
    shell_id: str("Older name for task_id; prefer task_id"),
  },
  additionalProperties: false,
};
