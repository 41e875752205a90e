import { it } from "vitest";
import { captureOurs, facets, originalSummary } from "./support/fidelity.js";
const P = JSON.parse(process.env.FID ?? '{"harness":"pi","file":"pi-0.73.1.json","wire":"chat","model":"mock-model"}');
it(P.harness, async () => {
  const ours = facets(await captureOurs(P));
  const theirs = facets(originalSummary(P.file));
  for (const k of (process.env.FACETS ?? "schemas,knobs,layout,results").split(",") as Array<keyof typeof ours>) {
    console.log(`== ${k}\n ours   ${JSON.stringify(ours[k]).slice(0, 2500)}\n theirs ${JSON.stringify(theirs[k]).slice(0, 2500)}`);
  }
}, 60_000);
