/**
 * `interpreter doctor` names the model servers it finds on loopback. Run in a network namespace
 * of its own (see first-run-tmux.test.ts): one with the scripted model relayed onto Ollama's
 * port, one with nothing on any port, so the answer does not depend on what this machine runs.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkById, type DoctorJson } from "./support/doctor-run.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { tempDir } from "./support/in-process.js";
import { bridge, inNetns, netnsFlags, runToEnd } from "./support/netns.js";
import { BIN } from "./support/spawn-agent.js";

const flags = netnsFlags();
const missing = typeof flags === "string" ? flags : undefined;

let model: FakeModel;
let relay: { close(): Promise<void> };
let socket: string;

beforeAll(async () => {
  if (missing) return;
  model = await startFakeModel({ models: ["qwen2.5-coder:7b", "llama3.2:3b", "nomic-embed-text"] });
  socket = path.join(tempDir("oi-relay-"), "ollama.sock");
  relay = await bridge(socket, Number(new URL(model.url).port));
});

afterAll(async () => {
  await relay?.close();
  await model?.close();
});

function doctor(options: { ollama: boolean; json: boolean }) {
  const home = tempDir("oi-doctor-");
  const argv = inNetns({
    flags: flags as string[],
    relays: options.ollama ? { 11434: socket } : {},
    command: [
      "env",
      "-i",
      `PATH=${process.env.PATH ?? "/usr/bin:/bin"}`,
      `HOME=${home}`,
      `INTERPRETER_HOME=${home}`,
      process.execPath,
      BIN,
      "doctor",
      "--timeout",
      "2",
      ...(options.json ? ["--json"] : []),
    ],
  });
  return runToEnd(argv, { cwd: home });
}

describe.skipIf(missing !== undefined)(
  `doctor's local servers${missing ? ` (skipped: ${missing})` : ""}`,
  () => {
    it("names Ollama on its port with its model count", async () => {
      const result = await doctor({ ollama: true, json: false });
      expect(result.stdout).toMatch(
        /^✓ {2}Local servers +Ollama at http:\/\/127\.0\.0\.1:11434 \(3 models\)$/m,
      );
      const json = await doctor({ ollama: true, json: true });
      const check = checkById(JSON.parse(json.stdout) as DoctorJson, "local-servers");
      expect(check).toEqual({
        id: "local-servers",
        title: "Local servers",
        status: "ok",
        detail: "Ollama at http://127.0.0.1:11434 (3 models)",
      });
      // Listing is all it does: nothing is sent to a server that was not configured.
      expect(model.requests).toHaveLength(0);
    });

    it("says where it looked when nothing answers", async () => {
      const result = await doctor({ ollama: false, json: true });
      const check = checkById(JSON.parse(result.stdout) as DoctorJson, "local-servers");
      expect(check.status).toBe("ok");
      expect(check.detail).toBe(
        "none answering on 127.0.0.1 (Ollama :11434, LM Studio :1234, llama.cpp :8080, vLLM :8000, SGLang :30000)",
      );
    });
  },
);
