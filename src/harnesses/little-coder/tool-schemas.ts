/**
 * The tools little-coder registers on top of pi's four (itayinbarr/little-coder
 * `.pi/extensions/{evidence,extra-tools,shell-session}`; the wire form and order as
 * openinterpreter `codex-rs/core/src/harness/little_coder.rs` sends them, `strict: false`).
 * Names, parameter names, types, `required`, key order (pi 0.83 builds extension schemas with
 * its own TypeBox 1.3, in place of the @sinclair/typebox they import) and the presence of every
 * description are the original's; the description texts are our own wording of its.
 */

const noParameters = { type: "object", properties: {} };

export const evidenceAddDescription =
  "Keep a short piece of evidence: where it came from, a one-line note and the snippet itself. Do this for every fact your final answer will cite. Snippets are kept to 1KB.";
export const evidenceAddSchema = {
  type: "object",
  required: ["source", "note", "snippet"],
  properties: {
    source: { type: "string", description: "Where the fact comes from: a URL or another identifier" },
    note: { type: "string", description: "A one-line summary to find it by later" },
    snippet: { type: "string", description: "The exact span you will cite (1KB at most)" },
  },
};

export const evidenceGetDescription = "Fetch one saved evidence entry by its id.";
export const evidenceGetSchema = {
  type: "object",
  required: ["id"],
  properties: { id: { type: "string", description: "An id that EvidenceAdd or EvidenceList gave" } },
};

export const evidenceListDescription =
  "List every evidence entry of this session with its id, source and one-line note.";
export const evidenceListSchema = noParameters;

export const globDescription =
  "Find files whose paths match a glob pattern and get them back sorted (500 at most). Dependency, build and cache folders (node_modules, .git, dist, …) are not searched and the walk has a bound, so pass a `path` for a focused search instead of globbing a whole home folder.";
export const globSchema = {
  type: "object",
  required: ["pattern"],
  properties: {
    pattern: { type: "string", description: "The glob, e.g. **/*.py" },
    path: { type: "string", description: "Folder to search from (the cwd when left out)" },
  },
};

export const webfetchDescription =
  "Fetch a URL and get its text back with the HTML removed, 25K characters at most.";
export const webfetchSchema = {
  type: "object",
  required: ["url"],
  properties: {
    url: { type: "string", description: "The URL to fetch" },
    prompt: { type: "string", description: "What you are looking for on the page (a note only)" },
  },
};

export const websearchDescription = "Search the web and get the first ~8 results back as Markdown.";
export const websearchSchema = {
  type: "object",
  required: ["query"],
  properties: { query: { type: "string", description: "What to search for" } },
};

export const shellSessionDescription =
  "Run a command in a bash session that lives on between calls: the directory you cd into, exported variables and other shell state carry over. One command per call. The timeout is 30s unless you give one (use 120-300 for installs and builds). Long output keeps its first and last lines, and a footer [exit=N cwd=… timed_out=…] closes every result.";
export const shellSessionSchema = {
  type: "object",
  required: ["command"],
  properties: {
    command: { type: "string", description: "The command for the shell to run" },
    timeout: { type: "integer", description: "Seconds to wait (30 when left out, 600 at most)" },
  },
};

export const shellSessionCwdDescription = "Show the shell session's current working directory.";
export const shellSessionCwdSchema = noParameters;

export const shellSessionResetDescription =
  "Stop the bash session and start it again. Only for a session that no longer responds.";
export const shellSessionResetSchema = noParameters;
