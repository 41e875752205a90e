import { describe, expect, it } from "vitest";
import { mapCallResult } from "../src/tools/mcp/call-result.js";
import type { McpManager, McpToolInfo } from "../src/tools/mcp/mcp-manager.js";
import { mcpTool, toolParameters } from "../src/tools/mcp/mcp-tool.js";
import { modelToolNames } from "../src/tools/mcp/tool-names.js";
import type { ToolContext } from "../src/tools/types.js";

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe("modelToolNames", () => {
  it.each([
    [{ server: "github", tool: "create_issue" }, "mcp__github__create_issue"],
    [{ server: "my server", tool: "do.it" }, "mcp__my_server__do_it"],
    [{ server: "a__b", tool: "t" }, "mcp__a_b__t"],
    [{ server: "_x_", tool: "t" }, "mcp__x__t"],
    [{ server: "ünï", tool: "tööl" }, "mcp__n__t__l"],
    [{ server: "", tool: "t" }, "mcp__server__t"],
    [{ server: "s", tool: "kebab-case" }, "mcp__s__kebab-case"],
  ])("%j → %s", (raw, expected) => {
    expect(modelToolNames([raw])).toEqual([expected]);
  });

  it("hashes every member of a colliding group, whatever the order", () => {
    const a = { server: "s", tool: "a.b" };
    const b = { server: "s", tool: "a_b" };
    const c = { server: "s", tool: "c" };
    const forward = modelToolNames([a, b, c]);
    const backward = modelToolNames([c, b, a]);
    expect(forward[0]).toMatch(/^mcp__s__a_b_[0-9a-f]{12}$/);
    expect(forward[1]).toMatch(/^mcp__s__a_b_[0-9a-f]{12}$/);
    expect(forward[0]).not.toBe(forward[1]);
    expect(forward[2]).toBe("mcp__s__c");
    expect(backward).toEqual([forward[2], forward[1], forward[0]]);
  });

  it("cuts names over 64 characters and keeps them distinct", () => {
    const long = "x".repeat(80);
    const names = modelToolNames([
      { server: "srv", tool: `${long}1` },
      { server: "srv", tool: `${long}2` },
      { server: "s".repeat(70), tool: "t" },
    ]);
    for (const name of names) expect(name).toMatch(NAME);
    expect(names.every((name) => name.length === 64)).toBe(true);
    expect(new Set(names).size).toBe(3);
    expect(names[0]!.startsWith("mcp__srv__xxxx")).toBe(true);
  });
});

describe("mapCallResult", () => {
  it.each([
    [
      "joins text items",
      {
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
      "a\nb",
    ],
    [
      "keeps text over structured content",
      { content: [{ type: "text", text: "t" }], structuredContent: { x: 1 } },
      "t",
    ],
    [
      "sends structured content without text as JSON",
      { content: [], structuredContent: { x: 1 } },
      '{"x":1}',
    ],
    [
      "describes an image",
      { content: [{ type: "image", data: "A".repeat(4096), mimeType: "image/png" }] },
      "[image: image/png, 3.0 KB]",
    ],
    [
      "describes audio",
      { content: [{ type: "audio", data: "AAAA", mimeType: "audio/wav" }] },
      "[audio: audio/wav, 3 B]",
    ],
    [
      "puts embedded text under its uri",
      { content: [{ type: "resource", resource: { uri: "file:///a", text: "body" } }] },
      "[resource file:///a]\nbody",
    ],
    [
      "describes a resource link",
      {
        content: [
          {
            type: "resource_link",
            uri: "file:///r",
            name: "r.txt",
            mimeType: "text/plain",
            size: 2048,
            description: "notes",
          },
        ],
      },
      "[resource link r.txt <file:///r> (text/plain, 2.0 KB): notes]",
    ],
    ["sends the legacy toolResult", { toolResult: { ok: true } }, '{"ok":true}'],
    ["is empty for an empty result", { content: [] }, ""],
  ])("%s", (_label, result, output) => {
    expect(mapCallResult(result as never).output).toBe(output);
  });

  it("gives the model images in order with the texts, and leaves parts out of text-only results", () => {
    const mapped = mapCallResult({
      content: [
        { type: "text", text: "before" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        { type: "text", text: "after" },
      ],
    } as never);
    expect(mapped.parts).toEqual([
      { type: "text", text: "before" },
      { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
      { type: "text", text: "after" },
    ]);
    expect(mapped.output).toBe("before\n[image: image/png, 8 B]\nafter");
    expect(mapCallResult({ content: [{ type: "text", text: "only text" }] }).parts).toBeUndefined();
  });

  it("keeps isError and shows the output in the editor", () => {
    expect(mapCallResult({ content: [{ type: "text", text: "bad" }], isError: true })).toEqual({
      output: "bad",
      display: [{ type: "text", text: "bad" }],
      isError: true,
    });
    expect(mapCallResult({ content: [] }).display).toEqual([]);
  });

  it("caps the output and says how much was dropped", () => {
    const { output } = mapCallResult({ content: [{ type: "text", text: "y".repeat(150) }] }, 100);
    expect(output).toBe(`${"y".repeat(100)}\n[… 50 more characters not shown]`);
  });
});

describe("mcpTool", () => {
  const info = (readOnly: boolean): McpToolInfo => ({
    modelName: "mcp__gh__create_issue",
    server: "gh",
    name: "create_issue",
    title: "Create issue",
    description: "Opens an issue",
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { title: { type: "string" } },
      required: ["title"],
    },
    readOnly,
  });
  const calls: unknown[] = [];
  const manager = {
    call: async (...args: unknown[]) => {
      calls.push(args);
      return { output: "done", display: [], isError: false };
    },
  } as unknown as McpManager;
  const ctx = { signal: new AbortController().signal, onProgress: () => {} } as unknown as ToolContext;

  it("asks the permission gate about tools that are not read-only", async () => {
    const tool = mcpTool(info(false), manager);
    expect(tool).toMatchObject({
      name: "mcp__gh__create_issue",
      description: "Opens an issue",
      kind: "other",
      capability: "other",
    });
    expect(tool.access({ title: "x" }, ctx)).toEqual({
      type: "tool",
      key: "mcp__gh__create_issue",
      label: "calling gh's create_issue tool",
    });
    expect(await tool.preview({ title: "x" }, ctx)).toEqual({ title: "gh: create_issue" });
  });

  it("runs read-only tools without asking", () => {
    const tool = mcpTool(info(true), manager);
    expect(tool.kind).toBe("read");
    expect(tool.access({}, ctx)).toEqual({ type: "none" });
  });

  it("sends the server's schema without $schema, and any object through", async () => {
    const tool = mcpTool(info(false), manager);
    expect(tool.parameters).toEqual({
      type: "object",
      properties: { title: { type: "string" } },
      required: ["title"],
    });
    expect(tool.schema.safeParse({ title: "t", extra: 1 })).toEqual({
      success: true,
      data: { title: "t", extra: 1 },
    });
    expect(tool.schema.safeParse("text").success).toBe(false);
    expect(await tool.execute({ title: "t" }, ctx)).toEqual({ output: "done", display: [], isError: false });
    expect(calls).toEqual([
      ["mcp__gh__create_issue", { title: "t" }, { signal: ctx.signal, onProgress: ctx.onProgress }],
    ]);
  });

  it("makes every input schema an object schema with properties", () => {
    expect(toolParameters({})).toEqual({ type: "object", properties: {} });
    expect(toolParameters({ type: "object" })).toEqual({ type: "object", properties: {} });
  });
});
