import {
  modelsSummary,
  portsLooked,
  probeLocalServers,
  serverAddress,
} from "../../providers/local-servers.js";
import { type Check, ok } from "./check.js";

/**
 * Which model servers answer on loopback (Ollama, LM Studio, llama.cpp, vLLM, SGLang on their
 * usual ports), with how many models each lists. Informational: none running is a normal set-up
 * (a hosted provider), so this check never fails.
 */
export async function localServersCheck(): Promise<Check> {
  const probes = await probeLocalServers();
  const found = probes.flatMap((p) =>
    p.found ? [`${serverAddress(p)} (${modelsSummary(p.models, p.server)})`] : [],
  );
  const detail = found.length > 0 ? found.join("; ") : `none answering on 127.0.0.1 (${portsLooked(probes)})`;
  return ok("local-servers", "Local servers", detail);
}
