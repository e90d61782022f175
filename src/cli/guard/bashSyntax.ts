// The guard reads shell with the same tree-sitter-bash parser the sandbox reads spec commands with (one loader).
export { bashParser, withBashTree } from '../../core/sandbox/commandLoads/bashSyntax';
