// The spec model: schema, loading with located problems, the spec graph, anchors and text edits.
export * from '../../shared/specSchema';
export {
  loadSpecFile,
  parseSpecFileBytes,
  parseSpecText,
  specFilePath,
  SPEC_FILE_RELATIVE_PATH,
} from './load';
export { MAX_SPEC_FILE_BYTES } from './readSpecFile';
export type { SpecLoadResult } from './load';
export { formatProblem, formatJsonPath, SpecLoadError } from './problems';
export type { SpecProblem, SpecProblemSeverity } from './problems';
export { SpecLocations, LineMap, locateSpecInText } from './locations';
export type { JsonPath, SourceLocation } from './locations';
export { SpecGraph } from './graph';
export { findDependencyCycles } from '../../shared/crossSpecRules';
export type { GraphWalkOptions } from './graph';
export { anchorProblem, parseAnchor, relativePathProblem } from './anchors';
export type { ParsedAnchor } from './anchors';
export { addSpec, updateSpec, removeSpec, applyTextEdits } from './edit';
export type { SpecInput, TextEdit } from './edit';
export { addSpecEdit, removeSpecEdit, SpecEditError, updateSpecEdit, type SpecTextEdit } from './specEdits';
export {
  detectTestRunner,
  starterNotes,
  starterSpecs,
  starterSpecText,
  type DetectedRunner,
} from './starter';
export { rankedMatches } from './suggest';
export { withTest } from './withTest';
