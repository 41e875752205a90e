/** Gemini CLI wraps what commands and the web return, so the model treats it as data; a closing tag inside is defused. */
export function untrustedContext(text: string): string {
  return `<untrusted_context>\n${text.replaceAll("</untrusted_context>", "&lt;/untrusted_context&gt;")}\n</untrusted_context>`;
}
