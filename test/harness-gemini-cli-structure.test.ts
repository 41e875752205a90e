import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { geminiCliHarness } from "../src/harnesses/gemini-cli/gemini-cli-harness.js";
import type { HistoryEvent } from "../src/store/events.js";
import { createLocalExec } from "../src/tools/exec/run-command.js";
import type { ExecPort } from "../src/tools/types.js";
import { firstRequest, harnessWorkspace, toolContext, toolRunner } from "./support/harness-fixtures.js";

/**
 * Our gemini-cli harness against the structure-only summaries of Gemini CLI 0.61.0's own requests
 * (`shared/conformance/harness-requests`, one per model family). The originals speak the Gemini
 * API; ours renders the same structure on Chat: systemInstruction -> the system message,
 * contents -> the messages, functionDeclarations -> the tools.
 */
const CAPTURES = path.resolve(import.meta.dirname, "../../shared/conformance/harness-requests");

/** What 0.61 sends that belongs to later work (listed as pending in docs/harnesses.md). */
const PENDING_TOOLS = ["update_topic", "activate_skill"];
/** Prompt sections of features we leave out with those tools (topic updates, sub-agents, hooks). */
const PENDING_SECTIONS = [
  "## Topic Updates",
  "# Available Sub-Agents",
  "### Strategic Orchestration & Delegation",
  "# Hook Context",
];
const PENDING_TAGS = ["available_subagents"];

const FAMILIES = [
  { file: "gemini-cli-0.61.0-gemini-2.5-flash.json", model: "gemini-2.5-flash" },
  { file: "gemini-cli-0.61.0-gemini-3-pro-preview.json", model: "gemini-3-pro-preview" },
];

type Json = Record<string, unknown>;
interface Summary {
  requests: Array<{ tools: { ref: string }; system: Array<{ outline_ref: string }>; layout: Layout[] }>;
  tool_sets: Record<string, { tools: Array<{ functionDeclarations: Json[] }> }>;
  texts: Record<string, { outline: Array<{ h?: string | null; tag?: string }> }>;
  scripted_calls: Array<{ call: string; tool: string; args: Json; result: { content: { output: string } } }>;
}
interface Layout {
  role: string;
  parts: Array<{ part: string; injected?: string[]; prompt?: number; text?: string }>;
}

/** A schema's shape: descriptions (text, or a capture's {chars, sha256_8}) become one marker. */
function shape(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(shape);
  if (schema === null || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, key === "description" ? "<text>" : shape(value)]),
  );
}

/** Property names in order, at every depth (toEqual ignores key order). */
function propertyOrder(schema: unknown, at = ""): string[] {
  if (schema === null || typeof schema !== "object") return [];
  const props = (schema as Json).properties as Json | undefined;
  const own = props ? [`${at}: ${Object.keys(props).join(",")}`] : [];
  const nested = props ? Object.entries(props).flatMap(([k, v]) => propertyOrder(v, `${at}.${k}`)) : [];
  const items = (schema as Json).items ? propertyOrder((schema as Json).items, `${at}[]`) : [];
  return [...own, ...nested, ...items];
}

/** The capture's cuts and placeholders (`reduce.mjs::resultText`); the spill file's name varies per run. */
function comparable(text: string, workspace: string): string {
  const lines = text
    .replaceAll(workspace, "<WS>")
    .replace(/For full output see: \S+\.txt/, "For full output see: <FILE>")
    .split("\n");
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    const joined = run.join("\n");
    if (joined.length > 400)
      out.push(`${joined.slice(0, 200)}[… cut ${joined.length - 400} chars …]${joined.slice(-200)}`);
    else if (run.length > 0) out.push(joined);
    run = [];
  };
  for (const line of lines) {
    if (/^\s*\d+(\s*[→\t|:]\s*\d*)?\s*$/.test(line)) run.push(line);
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out.join("\n");
}

for (const family of FAMILIES) {
  const file = path.join(CAPTURES, family.file);
  const present = existsSync(file);
  const title = present
    ? `gemini-cli against the Gemini CLI 0.61.0 capture for ${family.model}`
    : `gemini-cli against ${family.file} (skipped: no capture at ${CAPTURES})`;
  describe.skipIf(!present)(title, () => {
    const summary = (): Summary => JSON.parse(readFileSync(file, "utf8"));
    const first = () => summary().requests[0]!;
    const declarations = () => summary().tool_sets[first().tools.ref]!.tools[0]!.functionDeclarations;
    const setup = () =>
      harnessWorkspace(geminiCliHarness, {
        prefix: "oi-gcs-",
        context: {
          model: family.model,
          mode: "workspace-write",
          isGitRepo: true,
          sandboxed: false,
          skills: [{ name: "release", description: "Cut a release", path: "/skills/release/SKILL.md" }],
        },
      });
    const prompt: HistoryEvent = {
      type: "user_message",
      turnId: "t1",
      content: [{ type: "text", text: "Please run the checks" }],
    };

    it("sends the capture's tools in its order, less the pending ones, with the same parameter shapes", () => {
      const theirs = declarations();
      const ours = setup().tools();
      expect(ours.map((t) => t.name)).toEqual(
        theirs.map((t) => t.name).filter((name) => !PENDING_TOOLS.includes(name as string)),
      );
      expect(theirs.map((t) => t.name).filter((name) => PENDING_TOOLS.includes(name as string))).toEqual(
        PENDING_TOOLS.filter((name) => theirs.some((t) => t.name === name)),
      );
      for (const tool of ours) {
        const original = theirs.find((t) => t.name === tool.name)!.parametersJsonSchema;
        expect(shape(tool.parameters), tool.name).toEqual(shape(original));
        expect(propertyOrder(tool.parameters), tool.name).toEqual(propertyOrder(original));
      }
    });

    it("lists every pending tool of this family in docs/harnesses.md", () => {
      const docs = readFileSync(path.resolve(import.meta.dirname, "../docs/harnesses.md"), "utf8");
      const section = docs.slice(docs.indexOf("## gemini-cli"));
      for (const t of declarations()) {
        if (PENDING_TOOLS.includes(t.name as string)) expect(section).toContain(`pending: \`${t.name}\``);
      }
    });

    it("lays out the first request as the capture: system text, then one user message of context and prompt", () => {
      const { ctx } = setup();
      const request = firstRequest(geminiCliHarness, ctx, [prompt]);
      const [system, ...contents] = request.messages;
      expect(first().system).toHaveLength(1);
      expect(system?.role).toBe("system");
      const roles: Record<string, string> = { user: "user", model: "assistant" };
      expect(contents.map((m) => m.role)).toEqual(first().layout.map((m) => roles[m.role]));
      const parts = contents[0]!.content as Array<{ type: string; text: string }>;
      const expected = first().layout[0]!.parts;
      expect(parts.map((p) => p.type)).toEqual(expected.map((p) => p.part));
      expect(expected[0]!.injected).toEqual(["session_context"]);
      expect(parts[0]!.text).toMatch(/^<session_context>\n[\s\S]*\n<\/session_context>$/);
      expect(expected[1]).toMatchObject({ prompt: 1, text: "Please run the checks" });
      expect(parts[1]!.text).toBe("Please run the checks");
    });

    it("follows the capture's system prompt outline, less the sections of pending features", () => {
      const { ctx } = setup();
      const text = firstRequest(geminiCliHarness, ctx, [prompt]).messages[0]!.content as string;
      const outline = summary().texts[first().system[0]!.outline_ref]!.outline;
      const headings = text.split("\n").filter((line) => /^#{1,6}\s+\S/.test(line));
      expect(headings).toEqual(outline.flatMap((s) => (s.h && !PENDING_SECTIONS.includes(s.h) ? [s.h] : [])));
      const tags = [...text.matchAll(/^<([A-Za-z][\w:.-]*)(?=[\s>/])[^>]*>/gm)].map((m) => m[1]);
      expect(tags).toEqual(outline.flatMap((s) => (s.tag && !PENDING_TAGS.includes(s.tag) ? [s.tag] : [])));
    });

    it("answers the scripted calls with the capture's result texts", async () => {
      const { tools, file, cwd } = setup();
      file("notes.txt", "alpha\nbeta\ngamma\ndelta\nepsilon\n");
      for (const call of summary().scripted_calls) {
        // Real commands, reporting the capture's group id: its digits move the spill's cut points.
        const pgid = /Process Group PGID: (\d+)/.exec(call.result.content.output)?.[1];
        const local = createLocalExec();
        const exec: ExecPort = {
          run: async (request) => ({ ...(await local.run(request)), processGroup: Number(pgid) }),
        };
        const run = toolRunner(tools, toolContext(cwd, pgid ? { exec } : {}));
        const args = JSON.parse(JSON.stringify(call.args).replaceAll("<WS>", cwd));
        const ours = await run(call.tool, args);
        const theirs = call.result.content.output.replace(/^(For full output see: )\S+/m, "$1<FILE>");
        expect(comparable(ours.output, cwd), call.call).toBe(comparable(theirs, cwd));
      }
    });
  });
}
