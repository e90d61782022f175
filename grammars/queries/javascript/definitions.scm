; Weave: definitions the stock tags query misses, with the same capture names (@name + @definition.<kind>).
(field_definition
  property: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @definition.method
; Weave: class fields (`count = 0`, `static defaults = {}`, `#seen = 0`) are symbols too: `Class.count`.
(field_definition
  property: [(property_identifier) (private_property_identifier)] @name) @definition.field
; Weave: what the stock tags leave out of a class: its constructor (`PathError.constructor`; V8 reports it as a
; function of its own, so coverage can narrow to it), private methods (`#check()`) and static blocks
; (`Class.static`; they run when the class is evaluated, so coverage keeps them with the module's top level).
((method_definition
  name: (property_identifier) @name) @definition.method
  (#eq? @name "constructor"))
(method_definition
  name: (private_property_identifier) @name) @definition.method
(class_static_block "static" @name) @definition.static
; Weave: values assigned to the module's exports (`exports.version = '1.0'`, `module.exports.LIMIT = 3`).
; Functions assigned to members (`picomatch.test = function …`) come from the stock tags; extract.ts
; qualifies both by the object they are assigned to.
(expression_statement
  (assignment_expression
    left: (member_expression
      object: [(identifier) (member_expression)] @_object
      property: (property_identifier) @name)) @definition.constant
  (#match? @_object "^(module\\.)?exports$"))
