// What the shell reader (shellReader.ts) and the command table (commands/) hand each other: resolved
// words, the reader's state, the effects a command reports. Kept below both, so neither imports the other for
// its types (the reader calls the table; the table never calls the reader, it gets a CommandContext).
/** A word after expansion. `text` is exact when `exact`; else it holds the word as written, for reasons. */
export interface ShellWord {
  text: string;
  exact: boolean;
  /** Unquoted glob characters: the word may stand for several paths. */
  glob: boolean;
}

/**
 * What a command does with a path: `read` (a known read: never blocked), `write` (it changes, deletes or
 * replaces it, or writes inside it when it is a folder), `other` (a command the guard does not know: blocked
 * when the path is protected — deny by default).
 */
export type PathAccess = 'read' | 'write' | 'other';

export type ShellEffect =
  | { kind: 'path'; word: ShellWord; dirs: readonly string[] | undefined; access: PathAccess; how: string }
  /** A write target the reader cannot resolve (a substitution, an unknown variable, xargs' stdin). */
  | { kind: 'unresolved'; text: string; how: string }
  /** Code for another interpreter (python -c, node -e, a heredoc fed to one): scanned for protected names. */
  | { kind: 'inline'; code: string; dirs: readonly string[] | undefined; how: string };

/** Where commands run: every directory the working directory may be (undefined: unknown), plus variables. */
export interface ShellState {
  dirs: string[] | undefined;
  stack: Array<string[] | undefined>;
  /** Variables assigned in the command; undefined marks one whose value the reader cannot know. */
  vars: Map<string, string | undefined>;
  /** Arrays assigned in the command (`a=(sed -i …)`): their elements, or undefined when one cannot be read. */
  arrays: Map<string, ShellWord[] | undefined>;
  /** What the command has done to the file system so far: shared by every copy of the state (a subshell's
   * links and files outlive it). */
  files: ShellFiles;
}

/** Links and files a command made before a later part of it runs (shellFiles.ts reads and fills this). */
export interface ShellFiles {
  /** Absolute link path → the absolute path it stands for (`ln -s test t`: /w/t → /w/test). */
  links: Map<string, string>;
  /** Absolute paths written so far (a script or a Makefile made here and then run cannot be read beforehand). */
  written: Set<string>;
}

/** Everything commands/ needs to report what a simple command does. */
export interface CommandContext {
  /** This command's own state: `env -C`, `sudo -D`, `git -C` change its directory, not the shell's. */
  state: ShellState;
  /** The shell's state: `cd`, `pushd`, `popd` change it for the commands that follow. */
  shellState: ShellState;
  emit(effect: ShellEffect): void;
  /** Shell source this command runs (sh -c, eval, a heredoc fed to bash), read recursively; `eval` and
   * `source` run it in this shell (sameShell), `sh -c` in a child whose `cd` ends with it. */
  shell(source: string, sameShell: boolean): void;
  /** What the command reads on stdin when the reader knows it (a heredoc, a herestring, an echo piped in). */
  stdin: string | undefined;
  /** The file a `<` redirection feeds it, as written. */
  stdinFile: ShellWord | undefined;
}
