; Weave: a Java file's import declarations (the whole declaration; `static` and `.*` are handled in code).
(import_declaration) @import
