/**
 * CodeWhale 0.8.44's parameter schemas for the tools we implement (`crates/tui/src/tools/
 * {shell,file,apply_patch,search,file_search,todo,plan}.rs`, as upstream Open Interpreter's
 * `deepseek_tui_tools.json` records them). Property names, order, types, enums and `required`
 * are the original's, `required` left out where it leaves it out; the description texts are
 * our wording.
 */

const STATUS = ["pending", "in_progress", "completed"];

export const execShellSchema = {
  type: "object",
  properties: {
    command: { type: "string", description: "The command line to run" },
    timeout_ms: {
      type: "integer",
      description: "Time limit in milliseconds (120000 by default, at most 600000)",
    },
    background: {
      type: "boolean",
      description:
        "Start it in the background and get a task_id back (false by default). Choose this for anything that may take minutes, then poll with exec_shell_wait or task_shell_wait.",
    },
    interactive: { type: "boolean", description: "Run with terminal input and output (false by default)" },
    stdin: {
      type: "string",
      description: "Text fed to the command's input before waiting (not for interactive runs)",
    },
    cwd: { type: "string", description: "Directory to run in, when not the workspace" },
    tty: {
      type: "boolean",
      description: "Give the command a pseudo-terminal, for interactive programs (means background)",
    },
    combined_output: {
      type: "boolean",
      description:
        "Read stdout and stderr as one stream in the order they were written (false by default). In the foreground it still waits for the end; in the background it means tty.",
    },
  },
  required: ["command"],
};

export const readFileSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "File to read, relative to the workspace or absolute" },
    start_line: { type: "integer", description: "First line to show, counting from 1 (1 by default)" },
    max_lines: {
      type: "integer",
      description: "How many lines to show at most (200 by default, 500 at most)",
    },
    pages: {
      type: "string",
      description: 'For PDFs only: the pages to extract, such as "1-5" or "10". Other files ignore it.',
    },
  },
  required: ["path"],
};

export const writeFileSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "File to write" },
    content: { type: "string", description: "The whole new content" },
  },
  required: ["path", "content"],
};

export const editFileSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "File to change" },
    search: {
      type: "string",
      description:
        "The text to find, character for character: whitespace, indentation and line breaks included",
    },
    replace: { type: "string", description: "What to put in its place" },
    fuzz: {
      type: "boolean",
      description:
        "Let the leading whitespace of each searched line differ from the file's (false by default)",
    },
  },
  required: ["path", "search", "replace"],
};

export const applyPatchSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "The one file the patch changes, relative to the workspace" },
    patch: { type: "string", description: "The patch, as a unified diff" },
    changes: {
      type: "array",
      description: "Whole-file replacements instead of a patch (path and content each).",
      items: {
        type: "object",
        properties: { path: { type: "string" }, content: { type: "string" } },
        required: ["path", "content"],
      },
    },
    fuzz: {
      type: "integer",
      description: "How far a hunk may be found from where its header puts it (default: 3)",
    },
    create_if_missing: {
      type: "boolean",
      description: "Create the file when it does not exist yet (for new files)",
    },
  },
  oneOf: [{}, {}],
};

export const grepFilesSchema = {
  type: "object",
  properties: {
    pattern: { type: "string", description: "Regular expression to look for" },
    path: {
      type: "string",
      description: "Directory or file to search, relative to the workspace (. by default)",
    },
    include: {
      type: "array",
      items: { type: "string" },
      description: "Glob patterns of the files to search (for instance ['*.rs', '*.ts'])",
    },
    exclude: {
      type: "array",
      items: { type: "string" },
      description: "Glob patterns of the files to skip (for instance ['*.min.js', 'node_modules/*'])",
    },
    context_lines: { type: "integer", description: "Lines shown before and after each match (2 by default)" },
    case_insensitive: { type: "boolean", description: "Ignore letter case (false by default)" },
    max_results: { type: "integer", description: "Most matches to return (100 by default)" },
  },
  required: ["pattern"],
};

export const fileSearchSchema = {
  type: "object",
  properties: {
    query: { type: "string", description: "A file name or a piece of a path." },
    path: { type: "string", description: "Where to start looking, relative to the workspace (optional)." },
    limit: { type: "integer", description: "Most results to return (20 by default)." },
    extensions: {
      type: "array",
      items: { type: "string" },
      description: 'Keep only files with these extensions (for instance ["rs", "md"]); optional.',
    },
    exclude: {
      type: "array",
      items: { type: "string" },
      description:
        'Glob patterns to leave out, written as for grep_files (for instance ["target/**", "*.lock"]); optional.',
    },
  },
  required: ["query"],
};

export const listDirSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "Directory, relative to the workspace (. by default)" },
  },
};

export const checklistWriteSchema = {
  type: "object",
  properties: {
    todos: {
      type: "array",
      description: "Every item of the checklist; it replaces the list there was.",
      items: {
        type: "object",
        properties: {
          content: { type: "string", description: "What the item is" },
          status: { type: "string", enum: STATUS, description: "Where it stands" },
        },
        required: ["content", "status"],
      },
    },
  },
  required: ["todos"],
};

export const checklistAddSchema = {
  type: "object",
  properties: {
    content: { type: "string", description: "What the item is" },
    status: { type: "string", enum: STATUS, description: "Where it stands (pending by default)" },
  },
  required: ["content"],
};

export const checklistUpdateSchema = {
  type: "object",
  properties: {
    id: { type: "integer", description: "The item's id" },
    status: { type: "string", enum: STATUS, description: "Its new status" },
  },
  required: ["id", "status"],
};

export const checklistListSchema = { type: "object", properties: {} };

export const updatePlanSchema = {
  type: "object",
  properties: {
    explanation: { type: "string", description: "The approach as a whole, in a few words (optional)" },
    plan: {
      type: "array",
      description: "The steps of the plan",
      items: {
        type: "object",
        properties: {
          step: { type: "string", description: "What the step does" },
          status: { type: "string", enum: STATUS, description: "Where the step stands" },
        },
        required: ["step", "status"],
      },
    },
  },
  required: ["plan"],
};

export const execShellWaitSchema = {
  type: "object",
  properties: {
    task_id: { type: "string", description: "The task_id exec_shell returned" },
    timeout_ms: {
      type: "integer",
      description:
        "How long to wait in milliseconds (30000 by default, at most 600000). Give more to long builds, CI watchers and commands expected to keep printing.",
    },
    wait: { type: "boolean", description: "Wait for the task to end before answering (true by default)" },
  },
  required: ["task_id"],
};

export const execShellCancelSchema = {
  type: "object",
  properties: {
    task_id: { type: "string", description: "The task_id exec_shell or task_shell_start returned" },
    id: { type: "string", description: "Same as task_id" },
    all: { type: "boolean", description: "Stop every background shell task still running" },
  },
};

export const requestUserInputSchema = {
  type: "object",
  properties: {
    questions: {
      type: "array",
      items: {
        type: "object",
        properties: {
          header: { type: "string" },
          id: { type: "string" },
          question: { type: "string" },
          options: {
            type: "array",
            items: {
              type: "object",
              properties: { label: { type: "string" }, description: { type: "string" } },
              required: ["label", "description"],
            },
            minItems: 2,
            maxItems: 3,
          },
        },
        required: ["header", "id", "question", "options"],
      },
      minItems: 1,
      maxItems: 3,
    },
  },
  required: ["questions"],
};
