; Weave: definitions the stock tags query misses, with the same capture names (@name + @definition.<kind>).
; Class attributes assigned in the class body (`maxsize = 128`, `timeout: float = 1.0`): `Class.maxsize`.
(class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @name) @definition.field)))
