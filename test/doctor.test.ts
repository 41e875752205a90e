import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MIN_NODE, nodeCheck } from "../src/cli/doctor/local-checks.js";
import { checkById, type DoctorJson, runCli } from "./support/doctor-run.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { tempDir } from "./support/in-process.js";
import { needs } from "./support/requires.js";

const MCP_SERVER = path.resolve("test/support/mcp-test-server.mjs");

let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

function doctor(home: string, url: string, args: string[] = []) {
  return runCli(["doctor", "--timeout", "10", ...args], {
    home,
    env: { OPENAI_BASE_URL: url, OPENAI_API_KEY: "sk-doctor-test" },
  });
}

function parse(stdout: string): DoctorJson {
  return JSON.parse(stdout) as DoctorJson;
}

describe("interpreter doctor", () => {
  needs("bwrap").it(
    "all green: every check passes, the probes are one plain and one tool request, exit 0",
    async () => {
      model = await startFakeModel({ models: ["kimi-k2-instruct", "other"] });
      model.reply(
        { text: "ok", expect: (body) => expect(body.tools).toBeUndefined() },
        {
          toolCalls: [{ name: "doctor_ping", arguments: {} }],
          expect: (body) => expect(body.tools[0].function.name).toBe("doctor_ping"),
        },
      );
      const home = tempDir("oi-doctor-");
      writeFileSync(
        path.join(home, "config.toml"),
        `[mcp_servers.tester]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(MCP_SERVER)}]\n`,
      );
      const result = await doctor(home, model.url, ["-m", "kimi-k2-instruct"]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      const lines = result.stdout.split("\n");
      for (const title of [
        "Node.js",
        "Home folder",
        "Database",
        "Config",
        "Endpoint",
        "API key",
        "Models",
        "Streaming",
        "Tool calls",
        "Usage",
        "Harness",
        "MCP tester",
      ]) {
        expect(lines.find((l) => l.includes(` ${title} `)) ?? `missing ${title}`).toMatch(/^✓ /);
      }
      expect(result.stdout).toMatch(/Harness\s+kimi-code \(automatic: kimi-k2-instruct belongs to the Kimi/);
      expect(result.stdout).toMatch(/Models\s+2 listed, including kimi-k2-instruct/);
      expect(result.stdout).toMatch(
        /✓ +Provider +openai on chat \(Chat Completions\) at http:\/\/127\.0\.0\.1:\d+/,
      );
      expect(result.stdout).toMatch(/MCP tester\s+started over stdio, \d+ tools/);
      expect(result.stdout).not.toContain("fix:");
      model.assertDone();
      expect(model.requests.every((r) => r.body.stream_options?.include_usage === true)).toBe(true);
      expect(model.requests[0]!.headers.authorization).toBe("Bearer sk-doctor-test");
    },
  );

  it("endpoint down: fails with the base-URL fix, skips what depends on it, names a broken MCP server; --json", async () => {
    const closed = await startFakeModel();
    const url = closed.url;
    await closed.close();
    const home = tempDir("oi-doctor-");
    writeFileSync(
      path.join(home, "config.toml"),
      '[mcp_servers.broken]\ncommand = "/nonexistent/mcp-server"\n',
    );
    const result = await doctor(home, url, ["-m", "mock-model", "--json"]);
    expect(result.code).toBe(1);
    const report = parse(result.stdout);
    expect(report.ok).toBe(false);
    const endpoint = checkById(report, "endpoint");
    expect(endpoint).toMatchObject({ status: "fail" });
    expect(endpoint.detail).toContain("Cannot reach openai at http://127.0.0.1:");
    expect(endpoint.fix).toContain("OPENAI_BASE_URL");
    for (const id of ["key", "models", "streaming", "tools", "usage"])
      expect(checkById(report, id).status).toBe("skip");
    const mcp = checkById(report, "mcp:broken");
    expect(mcp.status).toBe("fail");
    expect(mcp.fix).toContain("[mcp_servers.broken]");
    expect(checkById(report, "config").status).toBe("ok");
  });

  it("401: says the key was rejected and where the key comes from", async () => {
    model = await startFakeModel();
    model.reply({
      status: 401,
      body: { error: { message: "Incorrect API key provided", type: "invalid_request_error" } },
    });
    const home = tempDir("oi-doctor-");
    const result = await doctor(home, model.url, ["-m", "fake-model"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ {2}API key\s+key rejected: .*returned HTTP 401/);
    expect(result.stdout).toMatch(/fix: Put a valid key for OpenAI in `OPENAI_API_KEY`/);
    expect(result.stdout).toMatch(/- {2}Tool calls\s+not checked: the key was rejected/);
    expect(result.stdout).not.toContain("sk-doctor-test");
    model.assertDone();
  });

  it("tools rejected: a warning that the text-protocol harness hermes is needed; still exit 0", async () => {
    model = await startFakeModel({ models: ["mock-model"] });
    model.reply(
      { text: "ok", usage: false },
      { status: 400, body: { error: { message: "Unsupported param: tools" } } },
    );
    const home = tempDir("oi-doctor-");
    const result = await doctor(home, model.url, ["-m", "mock-model", "--json"]);
    const report = parse(result.stdout);
    expect(result.code).toBe(0);
    expect(report.ok).toBe(true);
    const tools = checkById(report, "tools");
    expect(tools.status).toBe("warn");
    expect(tools.detail).toContain("needs text-protocol harness hermes");
    expect(tools.fix).toContain('harness = "hermes"');
    expect(checkById(report, "harness")).toMatchObject({ status: "warn" });
    expect(checkById(report, "harness").detail).toContain("switch to hermes");
    expect(checkById(report, "usage").status).toBe("warn");
    model.assertDone();
  });

  it("broken config: fails naming the file and the key, and sends nothing to the endpoint", async () => {
    model = await startFakeModel();
    const home = tempDir("oi-doctor-");
    const file = path.join(home, "config.toml");
    writeFileSync(file, '[model_providers.openai]\nrequest_max_retries = "five"\n');
    const result = await doctor(home, model.url, ["--json"]);
    expect(result.code).toBe(1);
    const report = parse(result.stdout);
    const config = checkById(report, "config");
    expect(config.status).toBe("fail");
    expect(config.detail).toContain(file);
    expect(config.detail).toContain("model_providers.openai.request_max_retries");
    expect(config.fix).toContain(`key \`model_providers.openai.request_max_retries\` in ${file}`);
    expect(checkById(report, "endpoint").status).toBe("skip");
    expect(model.requests).toHaveLength(0);
    expect(model.modelListRequests).toHaveLength(0);
  });

  it("a preset without its key: the provider line names the wire and the variable, the set-up message, nothing sent", async () => {
    model = await startFakeModel();
    const home = tempDir("oi-doctor-");
    writeFileSync(
      path.join(home, "config.toml"),
      `model = "kimi-k2.5"\nmodel_provider = "moonshot-anthropic"\n[model_providers.moonshot-anthropic]\nbase_url = "${model.url}"\n`,
    );
    const result = await runCli(["doctor", "--timeout", "10", "--json"], {
      home,
      env: { GROQ_API_KEY: "gsk-doctor-test-1" },
    });
    expect(result.code).toBe(1);
    const json = parse(result.stdout);
    expect(checkById(json, "provider")).toMatchObject({
      status: "warn",
      detail: expect.stringMatching(
        /^moonshot-anthropic on messages \(Anthropic Messages\) at http:\/\/127\.0\.0\.1:\d+\/v1; `MOONSHOT_API_KEY` is not set; keys also set for groq \(chat\)$/,
      ),
    });
    expect(checkById(json, "endpoint")).toMatchObject({
      status: "fail",
      detail:
        "The Moonshot (Kimi, Anthropic API) provider reads its API key from `MOONSHOT_API_KEY`, which is not set",
      fix: expect.stringContaining("Get a key at https://platform.moonshot.ai/console/api-keys"),
    });
    expect(checkById(json, "key").status).toBe("skip");
    expect(model.requests).toHaveLength(0);
  });

  it("checks Node against package.json engines", () => {
    const engines = (JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } })
      .engines.node;
    expect(engines).toBe(`>=${MIN_NODE.replace(/\.0$/, "")}`);
    expect(nodeCheck("20.19.0").status).toBe("ok");
    const old = nodeCheck("20.11.1");
    expect(old.status).toBe("fail");
    expect(old.fix).toContain("Node 20.19 or newer");
  });
});
