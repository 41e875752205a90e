import { afterEach, describe, expect, it } from "vitest";
import { kimiCliHarness } from "../src/harnesses/kimi-cli/kimi-cli-harness.js";
import { harnessSession, toolText } from "./support/background-kit.js";
import type { ChatBody, FakeModel } from "./support/fake-model.js";
import type { InProcessAgent } from "./support/in-process.js";

// Kimi CLI 1.49.0's Agent end to end: the parent's call starts an explore child session with its
// own role and read-only tools; the child's answer comes back in 1.49.0's block.

let model: FakeModel;
let oi: InProcessAgent | undefined;

afterEach(async () => {
  await oi?.close();
  oi = undefined;
  await model?.close();
});

const toolNames = (body: ChatBody): string[] =>
  (body.tools ?? []).map((t: { function: { name: string } }) => t.function.name);
const systemText = (body: ChatBody): string => String(body.messages[0]?.content ?? "");

describe("kimi-cli Agent", () => {
  it("runs an explore subagent with its role and tools, and answers with 1.49.0's block", async () => {
    const opened = await harnessSession(kimiCliHarness);
    model = opened.model;
    oi = opened.agent;
    let childId = "";
    model.reply(
      {
        toolCalls: [
          {
            id: "Agent:0",
            name: "Agent",
            arguments: { description: "x", prompt: "y", subagent_type: "scout" },
          },
        ],
      },
      {
        expect: (body) =>
          expect(toolText(body, "Agent:0")).toBe(
            "<system>ERROR: Builtin subagent type not found: scout</system>",
          ),
        toolCalls: [
          {
            id: "Agent:1",
            name: "Agent",
            arguments: { description: "Look around", prompt: "What is here?", subagent_type: "explore" },
          },
        ],
      },
      {
        // The child: the subagent and explore roles in ROLE_ADDITIONAL, and explore's tools.
        expect: (body) => {
          expect(systemText(body)).toContain("You now run as a subagent.");
          expect(systemText(body)).toContain("You specialise in exploring codebases.");
          expect(toolNames(body)).toEqual([
            "Shell",
            "ReadFile",
            "ReadMediaFile",
            "Glob",
            "Grep",
            "SearchWeb",
            "FetchURL",
          ]);
        },
        toolCalls: [{ id: "Shell:0", name: "Shell", arguments: { command: "echo explored-here" } }],
      },
      {
        expect: (body) => expect(toolText(body, "Shell:0")).toContain("explored-here"),
        text: "Nothing but an empty folder.",
      },
      {
        expect: (body) => {
          childId = oi!.runtime.store.childSessions(opened.sessionId)[0]!.id;
          expect(toolText(body, "Agent:1")).toBe(
            `agent_id: ${childId}\nresumed: false\nactual_subagent_type: explore\nstatus: completed\n\n[summary]\nNothing but an empty folder.`,
          );
        },
        text: "The folder is empty.",
      },
    );
    expect(await opened.agent.prompt(opened.sessionId, "What is in here?")).toBe("end_turn");
    model.assertDone();
    expect(childId).not.toBe("");
  });
});
