// The one base class of bad input: a spec file with errors, an unknown ref or spec id, a wrong flag. Whatever
// front end catches one (the CLI, the MCP server, the extension) shows its message as the answer — exit code 2
// on the command line, never a stack trace — while any other error stays a bug.
export class InputError extends Error {
  override name = 'InputError';
}
