// The check engine's public surface: run spec tests, record runs, compare against baselines. The full check that
// composes them with coverage and selection (checkWorkspace) is one layer up, in core/fullCheck.
export { changeOfResult, compareToBaseline } from './baseline';
export {
  debugPlanOf,
  debugRuntimeOf,
  type DebugPlan,
  type DebugRuntime,
  type PythonDebugSupport,
} from './debugLaunch';
export { markInfrastructureChange } from './containedResults';
export { markSessionTampering } from './sessionTampering';
export { lastRunsOf, type StoredRun } from './lastRuns';
export { ageText } from '../../shared/runAge';
export { failureExcerpt } from './failureExcerpt';
export { isBroken, isUnverifiedPass, isViolation, type ChangesView } from './violations';
export { CheckInputError, runSpecs, type RunProgress, type RunSpecsOptions } from './runSpecs';
export type { CommandInstrumentation } from './runSpec';
export { latestCleanRun, listRuns, newRunId, runsDir, saveRun } from './runStore';
export { ensureRunsIgnored } from './runsIgnored';
export { effectiveTestSettings } from './testSettings';
export { ranNoTest, summarize } from './summary';
export { formatSeconds, verdictOf } from './verdict';
export { isFailing } from './types';
export type * from './types';
