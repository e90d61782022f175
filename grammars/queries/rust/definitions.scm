; Weave: an impl block qualifies its methods with the implementing type (`Type.method`), and trait method
; signatures are definitions too.
(impl_item
  type: [
    (type_identifier) @qualifier.name
    (generic_type type: (type_identifier) @qualifier.name)
    (scoped_type_identifier name: (type_identifier) @qualifier.name)
  ]) @qualifier
(function_signature_item name: (identifier) @name) @definition.method
