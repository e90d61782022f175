; Weave: module specifiers a TypeScript file depends on (ES imports/re-exports, `import x = require()`,
; require, dynamic import).
(import_statement source: (string (string_fragment) @import))
(export_statement source: (string (string_fragment) @import))
(import_require_clause source: (string (string_fragment) @import))
((call_expression
  function: (identifier) @_require
  arguments: (arguments . (string (string_fragment) @import)))
  (#eq? @_require "require"))
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @import)))
