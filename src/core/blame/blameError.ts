// Why blame cannot answer as asked, as a code the CLI and the tools map to exit codes and messages.
export type BlameErrorCode =
  | 'unknown-spec'
  | 'not-git'
  | 'no-baseline'
  | 'baseline-missing'
  | 'empty-diff'
  | 'not-broken'
  | 'fails-on-baseline'
  | 'cancelled';

/** Blame cannot answer as asked; `message` says why and what to do. The CLI prints it (exit 2 or 1). */
export class BlameError extends Error {
  override name = 'BlameError';
  constructor(
    readonly code: BlameErrorCode,
    message: string,
  ) {
    super(message);
  }
}
