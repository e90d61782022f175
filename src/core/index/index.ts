// The workspace index's public surface (src/core/index/): createIndexer and the shapes it returns.
export { createIndexer } from './indexer';
export type { Indexer, IndexerOptions, IndexWorkspaceOptions, ParsedDocument } from './indexer';
export { WorkspaceIndex } from './workspaceIndex';
export type { LocatedSymbol } from './workspaceIndex';
export { languageOfPath } from './languages';
export { matchAnchors } from './symbolSearch';
export { documentEditFor } from './documentEdit';
export type * from './types';
export { preferNativeParser } from './preferNativeHost';
export type { ParserPreference } from './preferNativeHost';
export { indexSomeFiles, openGrowingIndex, type GrowingIndex, type PartialIndex } from './partialIndex';
export { TreeSitterHost } from './treeSitterHost';
export { locateGrammars } from '../grammarLocation';
export { ensureCacheIgnored } from './indexCache';
export { installedPackageProbe } from './jsPackages';
export { createImportResolver, type ImportResolver, type UntraceableImport } from './resolveImports';
