// What the docs link test and the README-to-docs heading check read from Markdown: headings, the anchors GitHub
// gives them, and links. Code blocks are skipped (a `# comment` in a shell block is not a heading).

/** Lines outside fenced code blocks, with their 1-based line numbers. */
export function proseLines(text) {
  const lines = [];
  let fence = null;
  text.split('\n').forEach((line, i) => {
    const m = /^\s*(```+|~~~+)/.exec(line);
    if (m) {
      if (fence === null) fence = m[1][0];
      else if (m[1][0] === fence) fence = null;
      return;
    }
    if (fence === null) lines.push({ line, number: i + 1 });
  });
  return lines;
}

/** The headings of a Markdown text: level, text, and the anchor GitHub gives it (duplicates get -1, -2, …). */
export function headings(text) {
  const seen = new Map();
  const result = [];
  for (const { line, number } of proseLines(text)) {
    const m = /^(#{1,6}) +(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[2]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.push({ level: m[1].length, text: m[2], anchor: n === 0 ? base : `${base}-${n}`, line: number });
  }
  return result;
}

/** GitHub's heading anchor: lower case, punctuation (but - and _) dropped, spaces to hyphens. */
export function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}_\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Inline links and images `[text](target)` outside code blocks and inline code, with their line numbers. */
export function links(text) {
  const result = [];
  for (const { line, number } of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) result.push({ target: m[1], line: number });
  }
  return result;
}
