import { lookup } from "node:dns/promises";
import type { Config } from "../config/types.js";
import { webExchange } from "../providers/web-exchange.js";
import type { WebAccess } from "../tools/web/types.js";

/**
 * The web tools' access for a runtime: HTTP from the providers layer (the daemon's one owner of
 * outbound connections), config's `[web]` and `[web_search]`, and the system resolver whose
 * every answer the SSRF check reads. Never the command sandbox's network, which stays off.
 */
export function sessionWeb(config: Config): WebAccess {
  return {
    exchange: webExchange,
    config: config.web,
    ...(config.webSearch ? { search: config.webSearch } : {}),
    configFile: config.file,
    resolve: (host) => lookup(host, { all: true, verbatim: true }),
  };
}
