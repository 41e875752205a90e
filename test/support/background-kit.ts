import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { expect } from "vitest";
import type { Harness } from "../../src/harnesses/types.js";
import { type ChatBody, type ReplyStep, startFakeModel } from "./fake-model.js";
import { type InProcessAgent, startInProcess } from "./in-process.js";

/** A scripted model and the real runtime in-process, with one session in `harness` (`configToml` added to the config). */
export async function harnessSession(harness: Harness, configToml = "") {
  const model = await startFakeModel();
  const agent = await startInProcess({
    model,
    harnesses: [harness],
    configToml: `harness = "${harness.id}"\n${configToml}`,
  });
  return { model, agent, ...(await agent.newSession()) };
}

/** What `/status` answers, which lists the session's background commands with their process groups. */
export async function statusText(agent: InProcessAgent, sessionId: string): Promise<string> {
  agent.editor.clear();
  expect(await agent.prompt(sessionId, "/status")).toBe("end_turn");
  return agent.editor.text(sessionId);
}

/**
 * A scripted step whose reply is built from the request that asks for it: ids the model saw in
 * earlier tool results (task ids, pids) go into its next call, as a real model's would.
 */
export function replyFrom(build: (body: ChatBody) => ReplyStep): ReplyStep {
  const step: ReplyStep = {
    expect(body) {
      const built = build(body);
      built.expect?.(body);
      Object.assign(step, built, { expect: undefined });
    },
  };
  return step;
}

type Message = {
  role: string;
  content: string | Array<{ type: string; text: string }>;
  tool_call_id?: string;
};

const textOf = (content: Message["content"]): string =>
  typeof content === "string" ? content : content.map((part) => part.text ?? "").join("");

/** The text of the tool message answering `callId` in a Chat request body. */
export function toolText(body: ChatBody, callId: string): string {
  const found = (body.messages as Message[]).find((m) => m.role === "tool" && m.tool_call_id === callId);
  if (!found) throw new Error(`no tool message for ${callId}`);
  return textOf(found.content);
}

/** The texts of a request's user messages, in order. */
export function userTexts(body: ChatBody): string[] {
  return (body.messages as Message[]).filter((m) => m.role === "user").map((m) => textOf(m.content));
}

/** The first capture of `pattern` in `text`, or a failure naming what was searched. */
export function capture(pattern: RegExp, text: string): string {
  const match = pattern.exec(text);
  if (!match?.[1]) throw new Error(`${pattern} not found in: ${text.slice(0, 400)}`);
  return match[1];
}

/** A word that names one test's processes: put it in a command line and look for it in /proc. */
export const processMarker = (): string => `oi-bg-${randomUUID().slice(0, 8)}`;

/** Live processes (zombies excluded) whose command line contains `marker`. */
export function liveProcesses(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (state === "Z" || state === "X") continue;
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").includes(marker)) found.push(Number(name));
    } catch {
      // ended while we looked
    }
  }
  return found;
}
