// The installed-dependency folders git does not track (one list for every kind of scratch copy and the sandbox):
// never copied into a copy of a workspace. A worktree links them from the workspace; a contained copy shows them
// read-only at their place (bwrap binds), an explicitly unsandboxed one links them.

export const DEPENDENCY_DIRS: readonly string[] = ['node_modules', '.venv', 'venv'];
