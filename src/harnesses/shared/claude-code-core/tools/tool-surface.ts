/**
 * What the model sees of a shared tool: each harness passes its original's description and
 * schema, the executor and its result texts stay one.
 */
export interface ToolSurface {
  description: string;
  parameters: Record<string, unknown>;
}
