// Diagnostics (the Problems panel and their hover) are plain text, so the Markdown code spans Weave's own messages
// carry for the terminal and Markdown surfaces would show as raw backticks there. An identifier-like span loses
// its backticks (the edit to LruCache.get breaks no-stale-read); anything else (an operator, an expression) is
// quoted: No spec notices if ‘+’ becomes ‘-’. Only for text Weave writes, never for a test's own output.
const IDENTIFIER_LIKE = /^[\w.$#/@:-]+$/;

export function plainText(message: string): string {
  return message.replace(/`([^`\n]+)`/g, (_all, code: string) =>
    IDENTIFIER_LIKE.test(code) && /\w/.test(code) ? code : `‘${code}’`,
  );
}
