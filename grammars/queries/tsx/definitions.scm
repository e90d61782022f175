; Weave: definitions the stock tags queries miss, with the same capture names (@name + @definition.<kind>).
(enum_declaration name: (identifier) @name) @definition.enum
(type_alias_declaration name: (type_identifier) @name) @definition.type
(internal_module name: (identifier) @name) @definition.module
(public_field_definition
  name: (property_identifier) @name
  value: [(arrow_function) (function_expression)]) @definition.method
