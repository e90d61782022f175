// What the two Harbor runners (harborContract.ts on this machine, harborDocker.ts in a real engine) read back the
// same way: the last lines of a failed step's output, indented under its message, and the verifier's JSON files.
import { promises as fs } from 'node:fs';

/** The last `count` lines of `text`, each indented four spaces (under a failure's one-line message). */
export function indentedTail(text: string, count: number): string {
  return text
    .trimEnd()
    .split('\n')
    .slice(-count)
    .map((l) => `    ${l}`)
    .join('\n');
}

/** A verifier file's JSON, or undefined when it is missing or not JSON (the report then says what is missing). */
export async function readJsonFile(file: string): Promise<unknown> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}
