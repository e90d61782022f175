// A reader for the INI dialect of setup.cfg and tox.ini, enough to tell which section and key a change touched.
// Those files are read by Python's configparser (setuptools, pytest's `[tool:pytest]`/`[pytest]`, tox), so this
// follows configparser's rules rather than a JS library's: `key = value` and `key: value`, values continued on
// indented lines, whole-line `#`/`;` comments, case-insensitive keys, repeated sections merged. The npm `ini`
// package (the one maintained JS parser) has npm's rules instead — no continuation lines, `;`/`#` comments
// inside values, `[a.b]` read as nesting — so it would place a multi-line `addopts` or `install_requires` under
// the wrong key. Lines are split as pytest's iniconfig splits them (`str.splitlines()`: also on \r alone, \v, \f,
// \x1c-\x1e, \x85, \u2028 and \u2029): a file split only on \n would read `x = 1\faddopts = -p flip` as one value of
// `x`, while pytest reads an `addopts` (issue #35).

/** Section name (as written, trimmed) → key (lower-cased) → value (continuation lines joined by '\n'). */
export type IniSections = Map<string, Map<string, string>>;

export class IniSyntaxError extends Error {
  override name = 'IniSyntaxError';
}

const SECTION = /^\[([^\]]+)\]\s*(?:[#;].*)?$/;
const ENTRY = /^([^=:\s][^=:]*?)\s*[=:]\s?(.*)$/;
/** Python's `str.splitlines()` line boundaries, \r\n first as one. */
// eslint-disable-next-line no-control-regex -- the control characters are the line breaks being matched
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

export function readIniSections(text: string): IniSections {
  const sections: IniSections = new Map();
  let current: Map<string, string> | undefined;
  let lastKey: string | undefined;
  const lines = text.replace(/^\uFEFF/, '').split(LINE_BREAK);
  lines.forEach((line, index) => {
    // configparser keeps blank lines inside a value: an indented line after one still continues it.
    if (/^\s*$/.test(line)) return;
    if (/^\s*[#;]/.test(line)) return;
    if (/^\s/.test(line)) {
      // A continuation of the last value (configparser keeps the lines; so does this, for the comparison).
      if (current === undefined || lastKey === undefined)
        throw new IniSyntaxError(`line ${index + 1}: an indented line with no key before it`);
      current.set(lastKey, `${current.get(lastKey) ?? ''}\n${line.trim()}`);
      return;
    }
    const section = SECTION.exec(line.trim());
    if (section) {
      const name = section[1]!.trim();
      current = sections.get(name) ?? new Map<string, string>();
      sections.set(name, current);
      lastKey = undefined;
      return;
    }
    const entry = ENTRY.exec(line.trim());
    if (!entry) throw new IniSyntaxError(`line ${index + 1}: neither a [section] nor key = value`);
    if (current === undefined)
      throw new IniSyntaxError(`line ${index + 1}: a key before the first [section]`);
    lastKey = entry[1]!.trim().toLowerCase();
    current.set(lastKey, entry[2]!.trim());
  });
  return sections;
}
