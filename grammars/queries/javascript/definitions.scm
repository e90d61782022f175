; Weave: definitions the stock tags query misses, with the same capture names (@name + @definition.<kind>).
(field_definition
  property: (property_identifier) @name
  value: [(arrow_function) (function_expression)]) @definition.method
