import { createRequire } from "node:module";
import { Ajv2020 } from "ajv/dist/2020.js";

const require = createRequire(import.meta.url);
const schema = require("@agentclientprotocol/sdk/schema/v1/schema.json") as {
  $defs: Record<string, { "x-method"?: string; "x-side"?: string }>;
};

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

/**
 * Validates every line the agent writes against the ACP v1 JSON schema shipped in the SDK.
 * Responses are matched to the method of the request they answer via `sent`.
 */
export function createAcpValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  for (const format of ["uint16", "uint32", "uint64", "int32", "int64", "double", "float", "uri"]) {
    ajv.addFormat(format, true);
  }
  ajv.addSchema(schema, "acp");
  const cache = new Map<string, Validate>();
  const byName = (name: string): Validate => {
    let validate = cache.get(name);
    if (!validate) {
      validate = ajv.getSchema(`acp#/$defs/${name}`) as Validate;
      if (!validate) throw new Error(`no schema definition ${name}`);
      cache.set(name, validate);
    }
    return validate;
  };
  const defFor = (method: string, side: "agent" | "client", suffix: string) =>
    Object.entries(schema.$defs).find(
      ([name, def]) => def["x-method"] === method && def["x-side"] === side && name.endsWith(suffix),
    )?.[0];

  return {
    /** Throws with the schema errors when `message` (one parsed line from the agent) is invalid. */
    check(message: Record<string, unknown>, sent: Map<unknown, string>): void {
      const fail = (what: string, errors?: unknown) => {
        throw new Error(
          `invalid ${what}: ${JSON.stringify(message).slice(0, 500)}\n${JSON.stringify(errors)}`,
        );
      };
      if (message.jsonrpc !== "2.0") fail("JSON-RPC envelope");
      if (typeof message.method === "string") {
        const method = message.method;
        if (method === "$/cancel_request") return;
        const name =
          "id" in message ? defFor(method, "client", "Request") : defFor(method, "client", "Notification");
        if (!name) {
          fail(`unknown method ${method}`);
          return;
        }
        const validate = byName(name);
        if (!validate(message.params)) fail(name, validate.errors);
        return;
      }
      if ("error" in message) {
        const error = message.error as { code?: unknown; message?: unknown };
        if (!Number.isInteger(error?.code) || typeof error?.message !== "string") fail("error response");
        return;
      }
      const method = sent.get(message.id);
      if (!method) {
        fail("response to an unknown request id");
        return;
      }
      const name = defFor(method, "agent", "Response");
      if (!name) return;
      const validate = byName(name);
      if (!validate(message.result)) fail(name, validate.errors);
    },
  };
}
