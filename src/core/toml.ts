// smol-toml ships a CommonJS build (dist/index.cjs, its "require" export) beside the ESM one, but declares its
// types for the ESM entry only, which TypeScript's node16 resolution refuses to import from a CommonJS file.
// Node and esbuild pick the CommonJS build through the "require" condition; the types come from the ESM side.
import type * as SmolToml from 'smol-toml' with { 'resolution-mode': 'import' };

// eslint-disable-next-line @typescript-eslint/no-require-imports
const toml = require('smol-toml') as typeof SmolToml;

export const parseToml: typeof SmolToml.parse = toml.parse;
export const stringifyToml: typeof SmolToml.stringify = toml.stringify;
