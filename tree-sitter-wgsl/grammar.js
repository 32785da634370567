/**
 * Tree-sitter grammar for WGSL (WebGPU Shading Language), written for coop-lsp.
 *
 * Scope: the whole current language plus the cooperative / subgroup matrix
 * extensions. The grammar knows no meaning: `coop_mat8x8<f32, A>` and
 * `subgroupMatrixLoad<...>(...)` are ordinary templated identifiers.
 *
 * Two deliberate departures from the spec's grammar, both for error tolerance:
 *  - Binary operators use one precedence table. WGSL forbids mixing some of
 *    them without parentheses (`a & b | c`, `a && b || c`, `a < b < c`,
 *    `a + b << c`); those parse here and the syntax layer reports them with a
 *    message naming both operators, instead of an opaque ERROR node.
 *  - Assignment targets are general expressions; which ones are references
 *    is a semantic question.
 *
 * Template lists are found by the spec's template-list discovery, run by the
 * external scanner (src/scanner.c) at each `<` that follows an identifier.
 */

const PREC = {
  logical: 1,
  bitwise: 2,
  relational: 3,
  shift: 4,
  additive: 5,
  multiplicative: 6,
  unary: 7,
  postfix: 8,
};

const commaSep1 = (rule) => seq(rule, repeat(seq(',', rule)), optional(','));
const commaSep = (rule) => optional(commaSep1(rule));

module.exports = grammar({
  name: 'wgsl',

  externals: ($) => [
    $._template_start,
    $._template_end,
    $.block_comment,
    // Never used in a rule: tree-sitter marks every symbol valid during error
    // recovery, and this one tells the scanner that it is in that mode.
    $._error_sentinel,
  ],

  extras: ($) => [/\s/, $.line_comment, $.block_comment],

  word: ($) => $.identifier,

  supertypes: ($) => [$._expression],

  conflicts: ($) => [],

  rules: {
    source_file: ($) => seq(repeat($._global_directive), repeat($._global_declaration)),

    // ---------------------------------------------------------------- directives
    _global_directive: ($) => choice($.enable_directive, $.requires_directive, $.diagnostic_directive),

    enable_directive: ($) => seq('enable', commaSep1(field('extension', $.identifier)), ';'),

    requires_directive: ($) => seq('requires', commaSep1(field('feature', $.identifier)), ';'),

    diagnostic_directive: ($) => seq('diagnostic', $.diagnostic_control, ';'),

    diagnostic_control: ($) =>
      seq('(', field('severity', $.identifier), ',', field('rule', $.diagnostic_rule_name), optional(','), ')'),

    diagnostic_rule_name: ($) => seq($.identifier, optional(seq('.', $.identifier))),

    // -------------------------------------------------------------- attributes
    attribute: ($) =>
      seq(
        '@',
        choice(
          seq(field('name', alias('diagnostic', $.identifier)), $.diagnostic_control),
          seq(
            field('name', choice($.identifier, alias('const', $.identifier))),
            optional(field('arguments', $.attribute_arguments)),
          ),
        ),
      ),

    attribute_arguments: ($) => seq('(', commaSep($._expression), ')'),

    // ------------------------------------------------------------ declarations
    _global_declaration: ($) =>
      choice(
        $.empty_declaration,
        seq($.variable_declaration, ';'),
        seq($.const_declaration, ';'),
        seq($.override_declaration, ';'),
        seq($.type_alias_declaration, ';'),
        $.struct_declaration,
        $.function_declaration,
        seq($.const_assert_statement, ';'),
      ),

    empty_declaration: (_) => ';',

    variable_declaration: ($) =>
      seq(
        repeat($.attribute),
        'var',
        optional(field('template', $.template_list)),
        field('name', $.identifier),
        optional(seq(':', field('type', $.type_specifier))),
        optional(seq('=', field('value', $._expression))),
      ),

    const_declaration: ($) =>
      seq(
        'const',
        field('name', $.identifier),
        optional(seq(':', field('type', $.type_specifier))),
        '=',
        field('value', $._expression),
      ),

    let_declaration: ($) =>
      seq(
        'let',
        field('name', $.identifier),
        optional(seq(':', field('type', $.type_specifier))),
        '=',
        field('value', $._expression),
      ),

    override_declaration: ($) =>
      seq(
        repeat($.attribute),
        'override',
        field('name', $.identifier),
        optional(seq(':', field('type', $.type_specifier))),
        optional(seq('=', field('value', $._expression))),
      ),

    type_alias_declaration: ($) =>
      seq('alias', field('name', $.identifier), '=', field('type', $.type_specifier)),

    struct_declaration: ($) => seq('struct', field('name', $.identifier), field('body', $.struct_body)),

    struct_body: ($) => seq('{', commaSep($.struct_member), '}'),

    struct_member: ($) =>
      seq(repeat($.attribute), field('name', $.identifier), ':', field('type', $.type_specifier)),

    function_declaration: ($) =>
      seq(
        repeat($.attribute),
        'fn',
        field('name', $.identifier),
        field('parameters', $.parameter_list),
        optional(seq('->', repeat(field('return_attribute', $.attribute)), field('return_type', $.type_specifier))),
        field('body', $.compound_statement),
      ),

    parameter_list: ($) => seq('(', commaSep($.parameter), ')'),

    parameter: ($) => seq(repeat($.attribute), field('name', $.identifier), ':', field('type', $.type_specifier)),

    const_assert_statement: ($) => seq('const_assert', field('condition', $._expression)),

    // ------------------------------------------------------------------- types
    type_specifier: ($) => seq(field('name', $.identifier), optional(field('template', $.template_list))),

    template_list: ($) => seq($._template_start, commaSep1($._expression), $._template_end),

    // -------------------------------------------------------------- statements
    _statement: ($) =>
      choice(
        $.empty_statement,
        $.compound_statement,
        $.if_statement,
        $.switch_statement,
        $.loop_statement,
        $.for_statement,
        $.while_statement,
        seq($.return_statement, ';'),
        seq($.call_statement, ';'),
        seq($.variable_declaration, ';'),
        seq($.let_declaration, ';'),
        seq($.const_declaration, ';'),
        seq($.break_statement, ';'),
        seq($.continue_statement, ';'),
        seq($.discard_statement, ';'),
        seq($._updating_statement, ';'),
        seq($.const_assert_statement, ';'),
        $.break_if_statement,
        $.continuing_statement,
        // Never valid inside a function. Accepting them makes a missing `}`
        // cost one diagnostic instead of swallowing every later function.
        $.function_declaration,
        $.struct_declaration,
      ),

    empty_statement: (_) => ';',

    compound_statement: ($) => seq(repeat($.attribute), '{', repeat($._statement), '}'),

    if_statement: ($) =>
      prec.right(
        seq(
          repeat($.attribute),
          'if',
          field('condition', $._expression),
          field('consequence', $.compound_statement),
          optional(field('alternative', $.else_clause)),
        ),
      ),

    else_clause: ($) => seq('else', choice($.if_statement, $.compound_statement)),

    switch_statement: ($) =>
      seq(repeat($.attribute), 'switch', field('value', $._expression), field('body', $.switch_body)),

    switch_body: ($) => seq(repeat($.attribute), '{', repeat(choice($.case_clause, $.default_clause)), '}'),

    case_clause: ($) =>
      seq('case', field('selectors', $.case_selectors), optional(':'), field('body', $.compound_statement)),

    case_selectors: ($) => commaSep1(choice(alias('default', $.default_selector), $._expression)),

    default_clause: ($) => seq('default', optional(':'), field('body', $.compound_statement)),

    loop_statement: ($) => seq(repeat($.attribute), 'loop', field('body', $.compound_statement)),

    // `continuing` and `break if` are only valid at the end of a loop body;
    // accepting them anywhere keeps the tree intact and lets the syntax layer
    // say where they belong.
    continuing_statement: ($) => seq('continuing', field('body', $.compound_statement)),

    break_if_statement: ($) => seq('break', 'if', field('condition', $._expression), ';'),

    for_statement: ($) =>
      seq(
        repeat($.attribute),
        'for',
        '(',
        optional(field('initializer', $._for_init)),
        ';',
        optional(field('condition', $._expression)),
        ';',
        optional(field('update', $._for_update)),
        ')',
        field('body', $.compound_statement),
      ),

    _for_init: ($) =>
      choice($.variable_declaration, $.let_declaration, $.const_declaration, $._updating_statement, $.call_statement),

    _for_update: ($) => choice($._updating_statement, $.call_statement),

    while_statement: ($) =>
      seq(repeat($.attribute), 'while', field('condition', $._expression), field('body', $.compound_statement)),

    return_statement: ($) => seq('return', optional(field('value', $._expression))),

    break_statement: (_) => 'break',

    continue_statement: (_) => 'continue',

    discard_statement: (_) => 'discard',

    call_statement: ($) => $.call_expression,

    _updating_statement: ($) =>
      choice($.assignment_statement, $.compound_assignment_statement, $.increment_statement, $.decrement_statement),

    assignment_statement: ($) =>
      seq(field('left', choice($._expression, $.phony)), '=', field('right', $._expression)),

    phony: (_) => '_',

    compound_assignment_statement: ($) =>
      seq(
        field('left', $._expression),
        field('operator', choice('+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '>>=', '<<=')),
        field('right', $._expression),
      ),

    increment_statement: ($) => seq(field('operand', $._expression), '++'),

    decrement_statement: ($) => seq(field('operand', $._expression), '--'),

    // ------------------------------------------------------------- expressions
    _expression: ($) =>
      choice(
        $.identifier,
        $.templated_identifier,
        $.call_expression,
        $.int_literal,
        $.float_literal,
        $.bool_literal,
        $.paren_expression,
        $.index_expression,
        $.member_expression,
        $.unary_expression,
        $.binary_expression,
      ),

    templated_identifier: ($) => seq(field('name', $.identifier), field('template', $.template_list)),

    call_expression: ($) =>
      prec(
        PREC.postfix,
        seq(field('function', choice($.identifier, $.templated_identifier)), field('arguments', $.argument_list)),
      ),

    // WGSL has no strings; naga's `debugPrintf("fmt", ...)` (enable wgpu_debug_printf) takes one as its
    // first argument. Allowed first in any call so the tree stays whole; the semantic layer refuses it
    // everywhere but debugPrintf.
    argument_list: ($) =>
      seq(
        '(',
        optional(seq(choice($._expression, $.string_literal), repeat(seq(',', $._expression)), optional(','))),
        ')',
      ),

    paren_expression: ($) => seq('(', $._expression, ')'),

    index_expression: ($) =>
      prec(PREC.postfix, seq(field('value', $._expression), '[', field('index', $._expression), ']')),

    member_expression: ($) => prec(PREC.postfix, seq(field('value', $._expression), '.', field('member', $.identifier))),

    unary_expression: ($) =>
      prec.right(PREC.unary, seq(field('operator', choice('-', '!', '~', '*', '&')), field('operand', $._expression))),

    binary_expression: ($) => {
      const table = [
        [PREC.multiplicative, choice('*', '/', '%')],
        [PREC.additive, choice('+', '-')],
        [PREC.shift, choice('<<', '>>')],
        [PREC.relational, choice('<', '>', '<=', '>=', '==', '!=')],
        [PREC.bitwise, choice('&', '|', '^')],
        [PREC.logical, choice('&&', '||')],
      ];
      return choice(
        ...table.map(([precedence, operator]) =>
          prec.left(
            precedence,
            seq(field('left', $._expression), field('operator', operator), field('right', $._expression)),
          ),
        ),
      );
    },

    // ---------------------------------------------------------------- literals
    bool_literal: (_) => choice('true', 'false'),

    string_literal: (_) => token(seq('"', repeat(choice(/[^"\\\n]/, /\\./)), '"')),

    int_literal: (_) => token(choice(/0[xX][0-9a-fA-F]+[iu]?/, /0[iu]?/, /[1-9][0-9]*[iu]?/)),

    float_literal: (_) =>
      token(
        choice(
          /0[fh]/,
          /[1-9][0-9]*[fh]/,
          /[0-9]*\.[0-9]+([eE][+-]?[0-9]+)?[fh]?/,
          /[0-9]+\.[0-9]*([eE][+-]?[0-9]+)?[fh]?/,
          /[0-9]+[eE][+-]?[0-9]+[fh]?/,
          /0[xX][0-9a-fA-F]*\.[0-9a-fA-F]+([pP][+-]?[0-9]+[fh]?)?/,
          /0[xX][0-9a-fA-F]+\.[0-9a-fA-F]*([pP][+-]?[0-9]+[fh]?)?/,
          /0[xX][0-9a-fA-F]+[pP][+-]?[0-9]+[fh]?/,
        ),
      ),

    identifier: (_) => /[_\p{XID_Start}][\p{XID_Continue}]*/,

    line_comment: (_) => token(seq('//', /[^\n\r]*/)),
  },
});
