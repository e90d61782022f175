// The draft agent's shapes: a proposal as the model sends it, a kept draft with its verification, a rejection
// with its reason. `weave draft --json` prints { kept, rejected, review }.
import type { SpecInput } from '../spec';
import type { Spec } from '../../shared/specSchema';

export interface TestFileDraft {
  /** Workspace-relative. */
  path: string;
  content: string;
}

export interface Proposal {
  /** A spec object exactly as in .weave/specs.json v1 (validated by verification, not by the tool call). */
  spec: unknown;
  testFiles: TestFileDraft[];
}

/** Why a proposal was not kept; the stage names the check that refused it. */
export type RejectStage =
  'invalid' | 'test-files' | 'anchors' | 'duplicate' | 'no-test' | 'flaky' | 'error' | 'blocked' | 'vacuous';

export interface Verification {
  /** On the current code: pass (a constraint to keep) or fail by an assertion (a goal not met yet). */
  verdict: 'pass' | 'fail';
  goal: boolean;
  runner: string;
  /** Tests the runner reported (passed + failed). */
  tests: number;
  /** Verdicts over the repeats (the same every time, or it was rejected as flaky). */
  repeats: string[];
  /** Mutants of the anchored code run against the test until one was killed (constraints only). */
  mutantsTried: number;
  mutantsKilled: number;
  /** e.g. "src/age.js:4 >= → >", the mutant that proved the test is not vacuous. */
  killedExample?: string;
}

export interface KeptDraft {
  spec: Spec;
  /** The spec as proposed (no defaults filled in): what accept writes into specs.json. */
  specInput: SpecInput;
  testFiles: TestFileDraft[];
  verification: Verification;
}

export interface RejectedDraft {
  /** The proposal's id, or "(no id)" when it had none. */
  id: string;
  stage: RejectStage;
  reason: string;
}
