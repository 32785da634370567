// External scanner for the WGSL grammar.
//
// WGSL decides whether `<` opens a template list by "template list discovery"
// (WGSL spec, section "Template Lists"): a `<` after an identifier is a
// candidate, and it is a template list exactly when a matching `>` is found
// before anything that cannot occur inside one (`;`, `{`, `:`, an assignment,
// `&&` or `||` at the same nesting depth, or an unbalanced `)`/`]`).
// An LR parser cannot make that decision with one token of lookahead, so the
// scanner looks ahead over the characters without consuming them.
//
// It also lexes nested block comments, which a regular lexer cannot.

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>

enum TokenType {
  TEMPLATE_START,
  TEMPLATE_END,
  BLOCK_COMMENT,
  ERROR_SENTINEL,
};

// A legitimate template list is a few dozen characters. Bounding the
// look-ahead keeps adversarial input (a megabyte of `a<a<a<...`) linear.
#define MAX_LOOKAHEAD 4096
// Nested candidates tracked at once; deeper nesting is not a template list
// anyone writes, and such candidates are treated as plain operators.
#define MAX_PENDING 64

static inline void advance(TSLexer *lexer) { lexer->advance(lexer, false); }
static inline void skip(TSLexer *lexer) { lexer->advance(lexer, true); }

static bool is_ident_start(int32_t c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

static bool is_ident_continue(int32_t c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

static bool is_space(int32_t c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == 0x85 ||
         c == 0x200E || c == 0x200F || c == 0x2028 || c == 0x2029;
}

// Consumes the rest of a block comment whose `/*` has been consumed.
// Returns false when the file ends first; the comment still spans to the end.
static bool finish_block_comment(TSLexer *lexer, int *budget) {
  int depth = 1;
  while (depth > 0) {
    if (lexer->eof(lexer)) return false;
    if (budget && --*budget < 0) return false;
    int32_t c = lexer->lookahead;
    advance(lexer);
    if (c == '/' && lexer->lookahead == '*') {
      advance(lexer);
      depth++;
    } else if (c == '*' && lexer->lookahead == '/') {
      advance(lexer);
      depth--;
    }
  }
  return true;
}

// Runs template list discovery from a `<` that follows an identifier (the
// lexer is positioned just after that `<`). Returns true when it opens a
// template list. Every character looked at costs one unit of `budget`, so the
// look-ahead for one candidate is at most MAX_LOOKAHEAD characters however the
// text after it is made (long identifiers, comments, literals).
//
// One deliberate difference from the spec's character-level algorithm: a `<`
// or `>` that is not a candidate swallows a following `=` or `<` (`1 <= 2`,
// `(x) << 2`), as a tokenizing implementation such as Tint's does; the spec
// would read that `=` as an assignment and drop every pending candidate.
static bool discover_template(TSLexer *lexer) {
  int pending_depth[MAX_PENDING];
  int pending = 0;
  int depth = 0;
  int budget = MAX_LOOKAHEAD;
  bool after_identifier = false;

#define STEP()                          \
  do {                                  \
    if (--budget < 0) return false;     \
    advance(lexer);                     \
  } while (0)

  // The candidate under test; its `<` has been consumed.
  if (lexer->lookahead == '<' || lexer->lookahead == '=') return false;  // `<<`, `<=`
  pending_depth[pending++] = 0;

  while (!lexer->eof(lexer)) {
    int32_t c = lexer->lookahead;
    if (is_space(c)) {
      STEP();
      continue;
    }
    if (is_ident_start(c)) {
      while (is_ident_continue(lexer->lookahead)) STEP();
      after_identifier = true;
      continue;
    }
    if (c >= '0' && c <= '9') {
      // Numeric literal, including `1e-5`, `0x1p+4f` and `1.5h`.
      int32_t prev = 0;
      while (is_ident_continue(lexer->lookahead) || lexer->lookahead == '.' ||
             ((lexer->lookahead == '+' || lexer->lookahead == '-') &&
              (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P'))) {
        prev = lexer->lookahead;
        STEP();
      }
      after_identifier = false;
      continue;
    }
    bool was_identifier = after_identifier;
    after_identifier = false;
    STEP();
    switch (c) {
      case '/':
        if (lexer->lookahead == '/') {
          while (!lexer->eof(lexer) && lexer->lookahead != '\n' && lexer->lookahead != '\r') STEP();
          after_identifier = was_identifier;
        } else if (lexer->lookahead == '*') {
          STEP();
          if (!finish_block_comment(lexer, &budget)) return false;
          after_identifier = was_identifier;
        }
        break;
      case '<':
        if (lexer->lookahead == '<' || lexer->lookahead == '=') {
          STEP();
        } else if (was_identifier) {
          if (pending == MAX_PENDING) return false;
          pending_depth[pending++] = depth;
        }
        break;
      case '>':
        if (pending > 0 && pending_depth[pending - 1] == depth) {
          pending--;
          if (pending == 0) return true;
        } else if (lexer->lookahead == '=') {
          STEP();
        }
        break;
      case '(':
      case '[':
        depth++;
        break;
      case ')':
      case ']':
        while (pending > 0 && pending_depth[pending - 1] >= depth) pending--;
        if (pending == 0) return false;
        depth = depth > 0 ? depth - 1 : 0;
        break;
      case '!':
        if (lexer->lookahead == '=') STEP();
        break;
      case '=':
        if (lexer->lookahead == '=') {
          STEP();
        } else {
          return false;  // assignment: the whole pending stack is discarded
        }
        break;
      case ';':
      case '{':
      case ':':
        return false;
      case '&':
      case '|':
        if (lexer->lookahead == c) {
          STEP();
          while (pending > 0 && pending_depth[pending - 1] >= depth) pending--;
          if (pending == 0) return false;
        }
        break;
      default:
        break;
    }
  }
#undef STEP
  return false;
}

void *tree_sitter_wgsl_external_scanner_create(void) { return NULL; }
void tree_sitter_wgsl_external_scanner_destroy(void *payload) { (void)payload; }
unsigned tree_sitter_wgsl_external_scanner_serialize(void *payload, char *buffer) {
  (void)payload;
  (void)buffer;
  return 0;
}
void tree_sitter_wgsl_external_scanner_deserialize(void *payload, const char *buffer, unsigned length) {
  (void)payload;
  (void)buffer;
  (void)length;
}

bool tree_sitter_wgsl_external_scanner_scan(void *payload, TSLexer *lexer, const bool *valid_symbols) {
  (void)payload;
  bool recovering = valid_symbols[ERROR_SENTINEL];

  while (is_space(lexer->lookahead)) skip(lexer);

  if (lexer->lookahead == '/' && valid_symbols[BLOCK_COMMENT]) {
    advance(lexer);
    if (lexer->lookahead != '*') return false;
    advance(lexer);
    finish_block_comment(lexer, NULL);
    lexer->mark_end(lexer);
    lexer->result_symbol = BLOCK_COMMENT;
    return true;
  }

  if (recovering) return false;

  if (lexer->lookahead == '>' && valid_symbols[TEMPLATE_END]) {
    advance(lexer);
    lexer->mark_end(lexer);
    lexer->result_symbol = TEMPLATE_END;
    return true;
  }

  if (lexer->lookahead == '<' && valid_symbols[TEMPLATE_START]) {
    // The token is the `<` alone; everything after it is look-ahead only.
    advance(lexer);
    lexer->mark_end(lexer);
    if (!discover_template(lexer)) return false;
    lexer->result_symbol = TEMPLATE_START;
    return true;
  }

  return false;
}
