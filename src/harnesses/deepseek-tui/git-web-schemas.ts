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
