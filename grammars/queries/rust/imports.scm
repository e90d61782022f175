; Weave: a Rust file's dependencies: `mod x;` declarations (no body) and `use` paths.
(mod_item name: (identifier) @import.mod !body)
(use_declaration argument: (_) @import)
