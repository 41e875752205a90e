#!/usr/bin/env node
// A small MCP server over stdio for the tests, built on the SDK's server API. Flags:
//   --hang        never answer (startup timeout)
//   --grandchild  start two sleeping descendants first: one in our process group, one in a
//                 session of its own (as `setsid`/`npx` wrappers leave them)
// Env: CANCEL_FILE is written when `wait_for_cancel` sees `notifications/cancelled`.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const flags = new Set(process.argv.slice(2));
/** A 2 × 2 PNG, red, green, blue and white. */
const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAFElEQVQImWP4z8DAAMIM/////w8AH+4F+0HwQUsAAAAASUVORK5CYII=";
if (flags.has("--hang")) {
  setInterval(() => {}, 1 << 30);
} else {
  if (flags.has("--grandchild")) {
    const sleeper = ["-e", "setInterval(() => {}, 1 << 30)"];
    spawn(process.execPath, sleeper, { stdio: "ignore" });
    spawn(process.execPath, sleeper, { stdio: "ignore", detached: true }).unref();
  }
  await serve();
}

async function serve() {
  const server = new McpServer({ name: "test-server", version: "1.0.0" });
  const text = (value) => ({ content: [{ type: "text", text: value }] });

  server.registerTool("a.b", { description: "dotted name" }, async () => text("dotted"));
  server.registerTool("a_b", { description: "underscored name" }, async () => text("underscored"));
  server.registerTool(`long_${"x".repeat(90)}`, { description: "a very long name" }, async () =>
    text("long"),
  );
  server.registerTool("fail", { description: "always fails" }, async () => {
    throw new Error("boom: the tool failed");
  });
  server.registerTool("crash", { description: "the server exits mid-call" }, async () => {
    process.stderr.write("fatal: crash requested\n");
    process.exit(3);
  });
  server.registerTool(
    "wait_for_cancel",
    { description: "waits until cancelled", annotations: { readOnlyHint: true } },
    // Without an input schema the SDK passes only `extra`.
    async (extra) => {
      await new Promise((resolve) => {
        extra.signal.addEventListener("abort", resolve, { once: true });
        setTimeout(resolve, 30_000);
      });
      if (extra.signal.aborted && process.env.CANCEL_FILE)
        writeFileSync(process.env.CANCEL_FILE, "cancelled");
      return text("finished waiting");
    },
  );
  let added = 0;
  server.registerTool(
    "add_tool",
    { description: "registers one more tool", inputSchema: { name: z.string() } },
    async ({ name }) => {
      added += 1;
      server.registerTool(name, { description: `added tool #${added}` }, async () => text(`I am ${name}`));
      return text(`added ${name}`);
    },
  );
  server.registerTool("resources", { description: "embedded resources" }, async () => ({
    content: [
      { type: "resource", resource: { uri: "file:///notes.txt", mimeType: "text/plain", text: "note body" } },
      {
        type: "resource",
        resource: { uri: "file:///blob.bin", mimeType: "application/octet-stream", blob: "AAAA" },
      },
    ],
  }));
  server.registerTool("snapshot", { description: "text around a small PNG" }, async () => ({
    content: [
      { type: "text", text: "before the image" },
      { type: "image", mimeType: "image/png", data: TINY_PNG },
      { type: "text", text: "after the image" },
    ],
  }));
  server.registerTool("structured_only", { description: "structured content, no text" }, async () => ({
    content: [],
    structuredContent: { answer: 42 },
  }));
  await server.connect(new StdioServerTransport());
}
