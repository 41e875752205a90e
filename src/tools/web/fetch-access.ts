import type { ToolAccess } from "../types.js";
import { hostListed, hostOf } from "./address-policy.js";
import type { WebAccess } from "./types.js";

/**
 * What a fetch asks the permission gate: the hosts of the URLs it will request first (a redirect
 * the tool follows stays within what the user approved for: the server they allowed chose it).
 * Nothing to ask when there is no URL to fetch; the tool answers with its error then.
 */
export function fetchAccess(urls: readonly URL[], web: WebAccess | undefined): ToolAccess {
  const hosts = [...new Set(urls.map(hostOf))];
  if (hosts.length === 0) return { type: "none" };
  const listed = hosts.every((host) => hostListed(web?.config.allowedHosts ?? [], host));
  return { type: "fetch", hosts, listed };
}
