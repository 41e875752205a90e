/** Markdown assets (prompts, tool descriptions) are bundled as text by esbuild. */
declare module "*.md" {
  const text: string;
  export default text;
}
