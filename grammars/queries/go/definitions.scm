; Weave: a method's receiver type qualifies its name (`Type.Method`): @qualifier is the scope node and
; @qualifier.name the type that names it.
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @qualifier.name
        (pointer_type (type_identifier) @qualifier.name)
        (generic_type type: (type_identifier) @qualifier.name)
        (pointer_type (generic_type type: (type_identifier) @qualifier.name))
      ]))) @qualifier
