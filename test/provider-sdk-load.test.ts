import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkById, type DoctorJson } from "./support/doctor-run.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { tempDir } from "./support/in-process.js";
import { LAUNCHER } from "./support/spawn-agent.js";

// The model SDKs and undici are never in the start-up snapshot or the start path: they are
// required at run time, from their one-file bundles in dist/, by the first request (or the
// preload after session/new). `doctor` streams through the provider, so it loads them as a session does.

let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

function launch(home: string, url: string, env: Record<string, string>) {
  const child = spawn("sh", [LAUNCHER, "doctor", "--json", "--timeout", "10", "-m", "m"], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      INTERPRETER_HOME: home,
      OPENAI_BASE_URL: url,
      OPENAI_API_KEY: "sk-load",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise<{ stdout: string; stderr: string }>((resolve) =>
    child.on("close", () => resolve({ stdout, stderr })),
  );
}

describe("the model SDK at run time", () => {
  it("the snapshot bundle holds stubs that require the one-file openai, undici and @anthropic-ai/sdk, not their code", () => {
    const text = readFileSync(path.resolve("dist/snapshot.cjs"), "utf8");
    for (const file of ["vendor-openai.cjs", "vendor-undici.cjs", "vendor-anthropic-sdk.cjs"]) {
      expect(text.includes(`("./${file}")`), file).toBe(true);
      expect(existsSync(path.resolve("dist", file)), file).toBe(true);
    }
    // Strings from inside the SDK and undici (not from our code that uses them).
    expect(text.includes("X-Stainless-Retry-Count")).toBe(false);
    expect(text.includes("no proxy agent")).toBe(false);
  });

  it.each([
    ["the start-up snapshot", {}],
    ["the plain entry point", { INTERPRETER_SNAPSHOT: "0" }],
  ])("doctor streams and calls the probe tool from %s", async (_from, env) => {
    model = await startFakeModel({ models: ["m"] });
    model.reply({ text: "ok" }, { toolCalls: [{ name: "doctor_ping", arguments: {} }] });
    const { stdout, stderr } = await launch(tempDir("oi-sdk-load-"), model.url, env);
    expect(stderr).toBe("");
    const report = JSON.parse(stdout) as DoctorJson;
    expect(checkById(report, "streaming").status).toBe("ok");
    expect(checkById(report, "tools").status).toBe("ok");
    expect(model.requests[0]!.headers["user-agent"]).toMatch(/^OpenAI\/JS /);
    model.assertDone();
  });
});
