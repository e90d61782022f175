// The full check: load the specs, plan coverage (which recorded coverage still holds, asked of selection), run
// every spec, record the run, compare against the baseline, save. It sits above check, coverage and selection,
// which it composes; the faces, the agent and the tasks call it.
export {
  checkWorkspace,
  type CheckPhase,
  type CheckProgress,
  type CheckResult,
  type CheckWorkspaceOptions,
} from './checkWorkspace';
