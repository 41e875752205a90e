/**
 * CodeWhale 0.8.44's schemas for its git and web tools (`tools/{git,fetch_url,web_search}.rs`, as
 * upstream's `deepseek_tui_tools.json` records them): names, order, types, bounds and `required`
 * are the original's; the description texts are our wording.
 */

export const gitStatusSchema = {
  type: "object",
  properties: {
    path: {
      type: "string",
      description: "A folder or file of the workspace to limit the status to (optional).",
    },
  },
  additionalProperties: false,
};

export const gitDiffSchema = {
  type: "object",
  properties: {
    path: {
      type: "string",
      description: "A folder or file of the workspace to limit the diff to (optional).",
    },
    cached: { type: "boolean", description: "Diff what is staged instead (`--cached`)." },
    unified: {
      type: "integer",
      minimum: 0,
      maximum: 50,
      default: 3,
      description: "How many unchanged lines to show around each change.",
    },
  },
  additionalProperties: false,
};

export const fetchUrlSchema = {
  type: "object",
  properties: {
    url: { type: "string", description: "The http:// or https:// address to fetch." },
    format: {
      type: "string",
      enum: ["text", "markdown", "raw"],
      description:
        "What to do with the body. `markdown` (the default) and `text` turn HTML into readable text; `raw` gives the body unchanged.",
    },
    max_bytes: {
      type: "integer",
      description: "Cut the body after this many bytes (1,000,000 by default; 10,485,760 at most).",
    },
    timeout_ms: {
      type: "integer",
      description: "Time limit in milliseconds (15,000 by default; 60,000 at most).",
    },
    fields: {
      type: "array",
      items: { type: "string" },
      description:
        "JSONPath selections from a JSON answer (optional): $, .field, [index], [*] and ['field']; the matches come back under `fields`.",
    },
  },
  required: ["url"],
};

export const webSearchSchema = {
  type: "object",
  properties: {
    query: {
      type: "string",
      description: "What to search for. Also accepted as q, or as search_query[0].q.",
    },
    q: { type: "string", description: "What to search for." },
    search_query: {
      type: "array",
      description: 'The list form, for more control: [{"q":"...", "max_results": 5}]',
      items: {
        type: "object",
        properties: { q: { type: "string" }, query: { type: "string" }, max_results: { type: "integer" } },
      },
    },
    max_results: { type: "integer", description: "How many results to return (5 by default, 10 at most)" },
    timeout_ms: {
      type: "integer",
      description: "Time limit in milliseconds (15000 by default, 60000 at most)",
    },
  },
};

export const gitLogSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "A folder or file to limit the history to (optional)." },
    max_count: {
      type: "integer",
      minimum: 1,
      maximum: 200,
      default: 20,
      description: "How many commits to show at most.",
    },
    author: {
      type: "string",
      description: "Only commits by this author, as `git log --author` reads it (optional).",
    },
    since: {
      type: "string",
      description: "Only commits after this date, such as '2 weeks ago' or an ISO date (optional).",
    },
    until: {
      type: "string",
      description: "Only commits before this date, such as 'yesterday' or an ISO date (optional).",
    },
  },
  additionalProperties: false,
};

export const gitShowSchema = {
  type: "object",
  properties: {
    rev: { type: "string", description: "What to show: a commit, tag, branch or other revision." },
    path: { type: "string", description: "A folder or file to limit the output to (optional)." },
    patch: { type: "boolean", default: true, description: "Show the patch (true by default)." },
    stat: { type: "boolean", default: true, description: "Show the --stat summary (true by default)." },
    unified: {
      type: "integer",
      minimum: 0,
      maximum: 50,
      default: 3,
      description: "Unchanged lines around each change when the patch is shown.",
    },
  },
  required: ["rev"],
  additionalProperties: false,
};

export const gitBlameSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "A tracked file of the workspace." },
    rev: { type: "string", description: "The revision to blame at (HEAD by default)." },
    start_line: { type: "integer", minimum: 1, default: 1, description: "The first line to show." },
    max_lines: {
      type: "integer",
      minimum: 1,
      maximum: 2000,
      default: 200,
      description: "How many lines to show at most.",
    },
    porcelain: { type: "boolean", default: false, description: "Give `--line-porcelain` output instead." },
  },
  required: ["path"],
  additionalProperties: false,
};
