; Weave: modules a Python file imports. `import a.b` → @import; `from .m import x` → @import.from (the
; module as written) and @import.name (each imported name, which may itself be a submodule).
(import_statement name: (dotted_name) @import)
(import_statement name: (aliased_import name: (dotted_name) @import))
(import_from_statement module_name: (_) @import.from)
(import_from_statement name: (dotted_name) @import.name)
(import_from_statement name: (aliased_import name: (dotted_name) @import.name))
