; Weave: definitions the stock tags query misses, with the same capture names (@name + @definition.<kind>).
(field_definition
  property: (property_identifier) @name
  value: [(arrow_function) (function_expression)]) @definition.method
; Weave: class fields (`count = 0`, `static defaults = {}`) are symbols too: `Class.count`.
(field_definition
  property: (property_identifier) @name) @definition.field
; Weave: values assigned to the module's exports (`exports.version = '1.0'`, `module.exports.LIMIT = 3`).
; Functions assigned to members (`picomatch.test = function …`) come from the stock tags; extract.ts
; qualifies both by the object they are assigned to.
(expression_statement
  (assignment_expression
    left: (member_expression
      object: [(identifier) (member_expression)] @_object
      property: (property_identifier) @name)) @definition.constant
  (#match? @_object "^(module\\.)?exports$"))
