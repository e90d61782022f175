// The workspace index's public surface (src/core/index/): createIndexer and the shapes it returns.
export { createIndexer } from './indexer';
export type { Indexer, IndexerOptions, IndexWorkspaceOptions, ParsedDocument } from './indexer';
export { WorkspaceIndex } from './workspaceIndex';
export type { LocatedSymbol } from './workspaceIndex';
export { languageOfPath } from './languages';
export { documentEditFor } from './documentEdit';
export type * from './types';
export { preferNativeParser } from './preferNativeHost';
export type { ParserPreference } from './preferNativeHost';
