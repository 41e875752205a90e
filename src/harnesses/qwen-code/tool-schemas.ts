/**
 * JSON schemas of Qwen Code 0.24.4's tools as it sends them: its property names, types,
 * nullable unions, integer bounds, `required` and key order (some tools put `type` first, some
 * last). The parameter descriptions are our wording.
 */

type Schema = Record<string, unknown>;

export function editSchema(): Schema {
  return {
    properties: {
      file_path: { description: "Absolute path of the file to change; it starts with '/'.", type: "string" },
      old_string: {
        description:
          "The text to be replaced, character for character as it stands in the file, without added escaping. Unless replace_all is set it must occur exactly once, so take in a few surrounding lines (about three before and after) with their exact whitespace. An empty old_string creates a new file.",
        type: "string",
      },
      new_string: {
        description:
          "The text that takes old_string's place, exactly as it should read afterwards, without added escaping; the result has to be correct code.",
        type: "string",
      },
      replace_all: { type: "boolean", description: "Change every occurrence of old_string, not just one." },
    },
    required: ["file_path", "old_string", "new_string"],
    type: "object",
  };
}

export function globSchema(): Schema {
  return {
    properties: {
      pattern: { description: "Glob pattern the file paths have to match.", type: "string" },
      path: {
        description:
          "Directory to search under. Leave the field out to search the working directory; do not pass the words 'undefined' or 'null'. When given, it has to be an existing directory.",
        type: "string",
      },
    },
    required: ["pattern"],
    type: "object",
  };
}

export function grepSearchSchema(): Schema {
  return {
    properties: {
      pattern: { type: "string", description: "Regular expression searched for in the contents of files." },
      glob: {
        type: "string",
        description: 'Glob that limits which files are searched, e.g. "*.ts" or "*.{js,jsx}".',
      },
      path: {
        type: "string",
        description: "File or directory to search; the working directory when left out.",
      },
      limit: {
        type: "integer",
        minimum: 1,
        description:
          "Show at most this many result lines (a positive integer). Leave it out to see every match.",
      },
    },
    required: ["pattern"],
    type: "object",
  };
}

export function notebookEditSchema(): Schema {
  return {
    properties: {
      notebook_path: {
        description: "Absolute path of the Jupyter notebook to edit; it must end in .ipynb.",
        type: "string",
      },
      cell_id: {
        description:
          "The cell to act on, by the id read_file shows (or cell-N, counted from 0, for a cell without one). Needed to replace or delete; an inserted cell goes after it, or first when it is left out.",
        type: "string",
      },
      new_source: {
        description: "The cell's new source, for replace and insert; a delete needs none.",
        type: "string",
      },
      cell_type: {
        description: "The type of an inserted cell, or the new type on a replace.",
        type: "string",
        enum: ["code", "markdown"],
      },
      edit_mode: {
        description: "What to do with the cell; replace unless given.",
        type: "string",
        enum: ["replace", "insert", "delete"],
      },
    },
    required: ["notebook_path"],
    type: "object",
  };
}

export function readFileSchema(): Schema {
  return {
    properties: {
      file_path: {
        description:
          "Absolute path of the file to read, e.g. '/home/user/project/notes.txt'. Relative paths are refused.",
        type: "string",
      },
      offset: {
        description:
          "Text files only: the line to start from, counted from 0. Goes together with limit when a large file is read in pieces.",
        type: ["integer", "null"],
      },
      limit: {
        description:
          "Text files only: how many lines to return at most. Goes together with offset for large files; without it the file is read whole, up to the default cap.",
        type: ["integer", "null"],
      },
      pages: {
        description:
          "PDF files only: the pages to extract, as a single page or a range such as '3' or '2-6'. PDF extraction is not available in this session.",
        type: ["string", "null"],
      },
    },
    required: ["file_path"],
    type: "object",
  };
}

export function runShellCommandSchema(): Schema {
  return {
    type: "object",
    properties: {
      command: { type: "string", description: "The bash command line to run, as `bash -c <command>`." },
      is_background: {
        type: "boolean",
        description:
          "Whether the command should keep running in the background (servers, watchers): the call returns at once with the shell's id, output file and status file. Leave it out or false for commands whose result you need now.",
      },
      timeout: {
        type: "integer",
        minimum: 1,
        maximum: 600000,
        description: "Time limit in milliseconds (at most 600000).",
      },
      description: {
        type: "string",
        description:
          "A short, specific summary of what the command does, shown to the user: one sentence, three at most, on a single line.",
      },
      directory: {
        type: "string",
        description:
          "Optional absolute path of the directory to run in; the project root when left out. It has to exist already and lie inside the workspace.",
      },
    },
    required: ["command"],
  };
}

export function skillSchema(): Schema {
  return {
    type: "object",
    properties: {
      skill: { type: "string", description: "Name of the skill to load, as the skills list gives it." },
      args: { type: "string", description: "Optional arguments handed to the skill along with it." },
    },
    required: ["skill"],
  };
}

export function writeFileSchema(): Schema {
  return {
    properties: {
      file_path: {
        description:
          "Absolute path of the file to write, e.g. '/home/user/project/notes.txt'. Relative paths are refused.",
        type: "string",
      },
      content: { description: "The file's complete new content.", type: "string" },
      record_as_artifact: {
        description:
          "Whether the file is a deliverable to keep track of for the user rather than a working file. Accepted here but has no effect: there is no artifact list in this session.",
        type: "boolean",
      },
    },
    required: ["file_path", "content"],
    type: "object",
  };
}
