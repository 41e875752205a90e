/**
 * Gemini CLI sends the same tools with different descriptions to Gemini 3 models and to every
 * other model (google-gemini/gemini-cli `packages/core/src/tools/definitions/modelFamilyService.ts`,
 * `config/models.ts::isGemini3Model`). A provider prefix such as `google/` is ignored here.
 */
export type ToolFamily = "gemini-3" | "default-legacy";

export function toolFamily(model: string): ToolFamily {
  const slug = model.toLowerCase().split("/").pop() ?? "";
  return /^gemini-3(\.|-|$)/.test(slug) ? "gemini-3" : "default-legacy";
}
