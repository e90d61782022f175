// Environment set-up commands recorded in the task (SWE-bench keeps these in per-repository install specs;
// a Weave task carries its own). Chosen from the lockfiles at the workspace root: reproducible installs only.
import { promises as fs } from 'node:fs';
import path from 'node:path';

// One JavaScript package manager: the first lockfile found wins.
const JAVASCRIPT: Array<[file: string, command: string]> = [
  ['package-lock.json', 'npm ci'],
  ['npm-shrinkwrap.json', 'npm ci'],
  ['pnpm-lock.yaml', 'pnpm install --frozen-lockfile'],
  ['yarn.lock', 'yarn install --frozen-lockfile'],
];
const OTHERS: Array<[file: string, command: string]> = [
  ['requirements.txt', 'python3 -m pip install -r requirements.txt'],
  ['go.sum', 'go mod download'],
  ['Cargo.lock', 'cargo fetch --locked'],
];

export async function environmentSetupCommands(treeDir: string): Promise<string[]> {
  const commands: string[] = [];
  for (const [file, command] of JAVASCRIPT) {
    if (await exists(path.join(treeDir, file))) {
      commands.push(command);
      break;
    }
  }
  for (const [file, command] of OTHERS) if (await exists(path.join(treeDir, file))) commands.push(command);
  return commands;
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}
