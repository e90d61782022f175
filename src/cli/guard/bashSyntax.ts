// The guard reads shell with the same tree-sitter-bash parser the sandbox reads spec commands with (one loader).
// Loaded only for a command plainShell.ts cannot read exactly: compiling and starting the grammar's WebAssembly
// costs a hook process ~40 ms of CPU.
import { bashParser, withBashTree } from '../../core/sandbox/commandLoads/bashSyntax';
import type { ShellParse } from './shellSyntax';

export { bashParser, withBashTree };

/** tree-sitter-bash as the shell reader's parser (each tree deleted after its walk). */
export async function bashParse(): Promise<ShellParse> {
  const bash = await bashParser();
  return (source, read) => withBashTree(bash, source, read);
}
