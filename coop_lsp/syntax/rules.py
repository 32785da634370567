"""Rules reported by the syntax layer.

None of them can be switched off: every WGSL compiler rejects the file.
"""

from ..core.diagnostic import Severity
from ..core.rules import Rule, register

SYNTAX_ERROR = register(Rule(
    code="S001",
    name="syntax_error",
    summary="The text is not valid WGSL syntax.",
    severity=Severity.ERROR,
    layer="syntax",
    explanation=(
        "The parser could not read this part of the file. The message names the token it "
        "expected or the one it did not expect. The rest of the file is still checked: an "
        "error in one function does not hide problems in another."
    ),
    example="fn f() {\n  let x = 1   // expected ';' after 'let' declaration\n}",
    fix="Insert the missing token; where exactly one token repairs the file, a fix inserts it.",
    suppressible=False,
))

MIXED_OPERATORS = register(Rule(
    code="S002",
    name="mixed_operators",
    summary="Operators that WGSL does not let you mix without parentheses.",
    severity=Severity.ERROR,
    layer="syntax",
    explanation=(
        "WGSL has no precedence between some operators and requires parentheses instead: "
        "bitwise '&', '|' and '^' cannot be mixed with each other or with any other binary "
        "operator; '&&' and '||' cannot be mixed; comparisons do not chain; the operands of "
        "'<<' and '>>' must be unary expressions. Other languages accept these expressions "
        "with precedences that differ from each other, so WGSL makes the intent explicit."
    ),
    example="let m = a & b | c;      // error\nlet m = (a & b) | c;    // ok",
    fix="Parenthesize the inner operation; the fix does it, keeping the meaning the parser chose.",
    suppressible=False,
))

MISPLACED_STATEMENT = register(Rule(
    code="S003",
    name="misplaced_statement",
    summary="A statement or declaration in a place where WGSL does not allow it.",
    severity=Severity.ERROR,
    layer="syntax",
    explanation=(
        "'continuing' must be the last statement of a 'loop' body, and 'break if' the last "
        "statement of a 'continuing' block. Functions and structures can only be declared at "
        "module scope; one found inside a function body usually means that a '}' is missing "
        "before it."
    ),
    example="loop {\n  continuing { i++; }\n  x = 1;   // error: continuing must come last\n}",
    suppressible=False,
))

UNTERMINATED_COMMENT = register(Rule(
    code="S004",
    name="unterminated_comment",
    summary="A block comment that is never closed.",
    severity=Severity.ERROR,
    layer="syntax",
    explanation=(
        "Block comments in WGSL nest: every '/*' needs its own '*/'. A comment that is not "
        "closed runs to the end of the file and hides all code after it."
    ),
    example="/* outer /* inner */   // the outer comment is still open",
    suppressible=False,
))

INVALID_ENCODING = register(Rule(
    code="S005",
    name="invalid_encoding",
    summary="The file is not valid UTF-8.",
    severity=Severity.ERROR,
    layer="syntax",
    explanation=(
        "WGSL source is Unicode text, and WebGPU passes it as UTF-8. Bytes that are not valid "
        "UTF-8 are shown as U+FFFD and the rest of the file is checked as usual."
    ),
    suppressible=False,
))
