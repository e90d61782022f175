// Reading `.weave/specs.json` safely, before any parsing: a missing file, a directory, a file too big to be a
// spec file, unreadable or not UTF-8 each become one located problem (invalid bytes at their line and column)
// instead of an exception. Parsing the text is load.ts's job.
import { promises as fs } from 'node:fs';
import { LineMap } from './locations';
import type { SpecProblem } from './problems';
import { MAX_SPEC_FILE_BYTES } from '../specFileLocation';

export { MAX_SPEC_FILE_BYTES } from '../specFileLocation';

export type SpecFileText = { ok: true; text: string } | { ok: false; problem: SpecProblem };

/** The spec file's text, or the one problem that keeps it from being read. */
export async function readSpecFileText(file: string): Promise<SpecFileText> {
  const fail = (message: string): SpecFileText => ({
    ok: false,
    problem: { file, line: 1, column: 1, path: '', message, severity: 'error' },
  });

  let bytes: Buffer;
  try {
    const stat = await fs.stat(file);
    if (stat.isDirectory()) {
      return fail(
        'this is a directory, but it must be the JSON spec file (remove it, then run `weave init`)',
      );
    }
    if (!stat.isFile()) return fail('this is not a regular file; the spec file must be a JSON file');
    if (stat.size > MAX_SPEC_FILE_BYTES) {
      return fail(
        `the spec file is ${formatBytes(stat.size)}, over the ${formatBytes(MAX_SPEC_FILE_BYTES)} limit; is this really a spec file?`,
      );
    }
    bytes = await fs.readFile(file);
  } catch (error) {
    return fail(readErrorMessage(error));
  }
  // Checked again after reading: the file may have grown between stat and read.
  return specFileTextOf(bytes, file);
}

/** The text of spec file bytes already read, or the problem with them (too big, not UTF-8). */
export function specFileTextOf(bytes: Uint8Array, file: string): SpecFileText {
  if (bytes.length > MAX_SPEC_FILE_BYTES) {
    const message = `the spec file is over the ${formatBytes(MAX_SPEC_FILE_BYTES)} limit; is this really a spec file?`;
    return { ok: false, problem: { file, line: 1, column: 1, path: '', message, severity: 'error' } };
  }
  return decodeUtf8(bytes, file);
}

/** Strict UTF-8 (a UTF-8 BOM is fine); invalid bytes are located so the user can find them. */
function decodeUtf8(bytes: Uint8Array, file: string): SpecFileText {
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    const bad = firstInvalidUtf8Offset(bytes);
    const before = new TextDecoder('utf-8').decode(bytes.subarray(0, bad));
    const { line, column } = new LineMap(before).position(before.length);
    const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
    const byte = (bytes[bad] ?? 0).toString(16).padStart(2, '0');
    const message = utf16
      ? 'the spec file is UTF-16; save it as UTF-8'
      : `the spec file is not valid UTF-8 (byte 0x${byte} at byte offset ${bad}); save it as UTF-8`;
    return { ok: false, problem: { file, line, column, path: '', message, severity: 'error' } };
  }
}

/** Byte offset of the first byte that does not start or continue a well-formed UTF-8 sequence. */
function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    let length: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      length = 2;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      min = 0x10000;
    } else {
      return i;
    }
    if (i + length > bytes.length) return i;
    let codePoint = b & (0xff >> (length + 1));
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k] ?? 0;
      if ((c & 0xc0) !== 0x80) return i;
      codePoint = (codePoint << 6) | (c & 0x3f);
    }
    if (codePoint < min || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return i;
    i += length;
  }
  return bytes.length;
}

function readErrorMessage(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'the spec file does not exist; run `weave init` in the workspace folder to create a starter';
    case 'ENOTDIR':
      return 'cannot read the spec file: a folder on its path is a file';
    case 'EACCES':
    case 'EPERM':
      return 'cannot read the spec file: permission denied';
    default:
      return `cannot read the spec file: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
