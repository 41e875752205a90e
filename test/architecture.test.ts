import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../src");

/** architecture.md: imports point down this list only. */
const LAYERS: Record<string, number> = {
  cli: 0,
  // Edges beside acp that drive the in-process ACP agent (Codex's app-server, an MCP server).
  "app-server": 0.5,
  "mcp-server": 0.5,
  // The shared daemon and the proxy `interpreter acp` is by default: above the ACP edge it serves.
  daemon: 0.5,
  acp: 1,
  sessions: 2,
  harnesses: 3,
  context: 4,
  tools: 4,
  providers: 4,
  store: 5,
  config: 5,
  types: 6,
};
const ONLY_IN: Record<string, string | string[]> = {
  "@agentclientprotocol/sdk": "acp",
  "better-sqlite3": "store",
  // Image decoding and scaling (a native addon), for the image tools.
  sharp: "tools",
  // The model endpoints: the official SDKs over undici; plain node:http for discovery.
  "node:http": "providers",
  "node:https": "providers",
  openai: "providers",
  "@anthropic-ai/sdk": "providers",
  undici: "providers",
  // The MCP client (tools) and the MCP server edge.
  "@modelcontextprotocol/sdk": ["tools", "mcp-server"],
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith(".ts") ? [full] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [
    ...text.matchAll(
      /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g,
    ),
  ].map((m) => (m[1] ?? m[2])!);
}

const layerOf = (file: string) => path.relative(SRC, file).split(path.sep)[0]!;

describe("module boundaries", () => {
  const all = files(SRC);

  it("every source folder is a known layer", () => {
    expect(all.map(layerOf).filter((l) => !(l in LAYERS))).toEqual([]);
  });

  it("imports only point down the layer list", () => {
    const violations: string[] = [];
    for (const file of all) {
      const from = layerOf(file);
      for (const spec of imports(file)) {
        if (!spec.startsWith(".")) continue;
        const to = layerOf(path.resolve(path.dirname(file), spec));
        if (to !== from && LAYERS[to]! <= LAYERS[from]!)
          violations.push(`${path.relative(SRC, file)} -> ${spec}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("harness folders never import each other, and shared/ imports none of them", () => {
    const HARNESSES = path.join(SRC, "harnesses");
    // The folder under src/harnesses a file lives in; undefined for its top-level files.
    const folderOf = (file: string) => {
      const parts = path.relative(HARNESSES, file).split(path.sep);
      return parts.length > 1 && parts[0] !== ".." ? parts[0] : undefined;
    };
    const violations: string[] = [];
    for (const file of all.filter((f) => folderOf(f) !== undefined)) {
      const from = folderOf(file)!;
      for (const spec of imports(file)) {
        if (!spec.startsWith(".")) continue;
        const to = folderOf(path.resolve(path.dirname(file), spec));
        if (to !== undefined && to !== from && to !== "shared")
          violations.push(`${path.relative(SRC, file)} -> ${spec}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("harnesses and the file executors read file content only through the file-system port", () => {
    // Metadata and directory walks stay local, as do grepping and the .gitignore files a walk
    // reads: ACP has no methods for them. Content a tool shows or edits goes through ToolContext.fs.
    const WALKS = ["tools/fs/grep-fallback.ts", "tools/fs/gitignore.ts"].map((f) => path.join(SRC, f));
    const READS_CONTENT =
      /\b(readFile|readFileSync|createReadStream|open|openSync|read|readSync)\b|\*\s+as|promises/;
    const violations = all
      .filter((f) => /^(harnesses|tools\/fs)\//.test(path.relative(SRC, f).split(path.sep).join("/")))
      .filter((f) => !WALKS.includes(f))
      .flatMap((f) =>
        [...readFileSync(f, "utf8").matchAll(/import\s+([^;]*?)\s+from\s+["']node:fs(?:\/promises)?["']/g)]
          .filter((m) => READS_CONTENT.test(m[1]!))
          .map((m) => `${path.relative(SRC, f)}: ${m[0]}`),
      );
    expect(violations).toEqual([]);
  });

  it("only the owning layer imports the ACP SDK, better-sqlite3, HTTP and the MCP SDK", () => {
    const violations: string[] = [];
    for (const file of all) {
      for (const spec of imports(file)) {
        const owner = Object.entries(ONLY_IN).find(
          ([pkg]) => spec === pkg || spec.startsWith(`${pkg}/`),
        )?.[1];
        if (owner && ![owner].flat().includes(layerOf(file)))
          violations.push(`${path.relative(SRC, file)} imports ${spec}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("store and config import nothing else from src", () => {
    const violations = all
      .filter((f) => ["store", "config"].includes(layerOf(f)))
      .flatMap((f) =>
        imports(f).filter(
          (s) => s.startsWith(".") && layerOf(path.resolve(path.dirname(f), s)) !== layerOf(f),
        ),
      );
    expect(violations).toEqual([]);
  });

  it("no console calls in src (stdout is the protocol)", () => {
    const offenders = all.filter((f) =>
      /\bconsole\.(log|info|debug|warn|error)\(/.test(readFileSync(f, "utf8")),
    );
    expect(offenders).toEqual([]);
  });

  it("no hand-written file is past 400 lines", () => {
    const long = all
      .filter((f) => readFileSync(f, "utf8").split("\n").length > 400)
      .map((f) => path.relative(SRC, f));
    expect(long).toEqual([]);
  });
});
