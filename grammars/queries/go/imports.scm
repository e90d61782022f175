; Weave: import paths of a Go file (quoted as written).
(import_spec path: (_) @import)
