// (b) The TextMate grammar, run through VS Code's own tokenizer
// (vscode-textmate on vscode-oniguruma), over the example kernels and over
// every builtin name that queries/highlights.scm knows.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { clientRoot, repoRoot } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

let grammar;

before(async () => {
  const wasm = readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== "source.wgsl") return null;
      const path = join(clientRoot, "syntaxes", "wgsl.tmLanguage.json");
      return vsctm.parseRawGrammar(readFileSync(path, "utf8"), path);
    },
  });
  grammar = await registry.loadGrammar("source.wgsl");
  assert.ok(grammar, "the grammar loads");
});

/** Every token of `text`: { line, text, scopes } (scopes innermost last). */
function tokenize(text) {
  const out = [];
  let stack = vsctm.INITIAL;
  text.split(/\r?\n/).forEach((line, index) => {
    const result = grammar.tokenizeLine(line, stack);
    for (const token of result.tokens) {
      out.push({ line: index + 1, text: line.slice(token.startIndex, token.endIndex), scopes: token.scopes });
    }
    stack = result.ruleStack;
  });
  return out;
}

/** The tokens that hold `word` as a whole word (comment text is one token per run). */
function tokensHolding(tokens, word) {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`(^|[^A-Za-z0-9_])${escaped}($|[^A-Za-z0-9_])`);
  return tokens.filter((t) => pattern.test(t.text));
}

/** The tokens whose text is exactly `word`. */
function tokensOf(tokens, word) {
  return tokens.filter((t) => t.text.trim() === word);
}

function hasScope(token, prefix) {
  return token.scopes.some((s) => s === prefix || s.startsWith(prefix + "."));
}

function assertScoped(tokens, word, prefix, where) {
  const found = tokensOf(tokens, word);
  assert.ok(found.length > 0, `${where}: no token '${word}'`);
  for (const t of found) {
    assert.ok(hasScope(t, prefix), `${where}:${t.line}: '${word}' has scopes ${t.scopes.join(" ")}, expected ${prefix}.*`);
  }
}

const examples = readdirSync(join(repoRoot, "examples"), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => readdirSync(join(repoRoot, "examples", d.name))
    .filter((f) => f.endsWith(".wgsl"))
    .map((f) => join("examples", d.name, f)));

test("there are example kernels of every dialect", () => {
  for (const dialect of ["wgpu", "chromium", "standard", "plain"]) {
    assert.ok(examples.some((e) => e.includes(`/${dialect}/`)), `no examples/${dialect}`);
  }
});

const MATRIX_TYPES = ["coop_mat8x8", "coop_mat16x16", "subgroup_matrix_left", "subgroup_matrix_right", "subgroup_matrix_result"];
const MATRIX_FUNCTIONS = ["coopLoad", "coopLoadT", "coopStore", "coopStoreT", "coopMultiplyAdd", "subgroupMatrixLoad",
  "subgroupMatrixStore", "subgroupMatrixMultiply", "subgroupMatrixMultiplyAccumulate", "subgroupMatrixScalarAdd",
  "subgroupMatrixScalarSubtract", "subgroupMatrixScalarMultiply"];

for (const example of examples) {
  test(`tokens of ${example}`, () => {
    const text = readFileSync(join(repoRoot, example), "utf8");
    const tokens = tokenize(text);
    // Matrix types and builtins of whichever dialect the file uses.
    let matrixWords = 0;
    for (const word of MATRIX_TYPES) {
      if (tokensOf(tokens, word).length > 0) {
        assertScoped(tokens, word, "support.type", example);
        matrixWords++;
      }
    }
    for (const word of MATRIX_FUNCTIONS) {
      if (tokensOf(tokens, word).length > 0) {
        assertScoped(tokens, word, "support.function", example);
        matrixWords++;
      }
    }
    if (!example.includes("/plain/")) {
      assert.ok(matrixWords >= 3, `${example}: expected matrix types and builtins, found ${matrixWords}`);
    }
    for (const word of ["fn", "let", "var", "const", "for", "enable"]) {
      if (tokensOf(tokens, word).length > 0) assertScoped(tokens, word, "keyword", example);
    }
    assertScoped(tokens, "fn", "keyword", example);
    for (const word of ["f32", "u32", "array", "vec3"]) {
      if (tokensOf(tokens, word).length > 0) assertScoped(tokens, word, "support.type", example);
    }
    if (tokensOf(tokens, "workgroupBarrier").length > 0) {
      assertScoped(tokens, "workgroupBarrier", "support.function", example);
    }
    // Every line that starts with // is a comment from start to end.
    text.split("\n").forEach((line, i) => {
      if (!line.trimStart().startsWith("//")) return;
      for (const t of tokens.filter((tok) => tok.line === i + 1 && tok.text.trim() !== "")) {
        assert.ok(hasScope(t, "comment"), `${example}:${i + 1}: '${t.text}' in a comment has ${t.scopes.join(" ")}`);
      }
    });
    // Numbers such as 1024u, 16u, 0u.
    const numbers = tokens.filter((t) => /^[0-9]+u?$/.test(t.text));
    assert.ok(numbers.length > 0, `${example}: no numbers`);
    for (const t of numbers) {
      assert.ok(hasScope(t, "constant.numeric"), `${example}:${t.line}: '${t.text}' has ${t.scopes.join(" ")}`);
    }
    // Attributes: @compute, @workgroup_size, @group, @binding, @builtin.
    for (const name of ["compute", "workgroup_size", "group", "binding", "builtin"]) {
      const found = tokensOf(tokens, name);
      assert.ok(found.length > 0, `${example}: no @${name}`);
      for (const t of found) assert.ok(hasScope(t, "entity.other.attribute-name"), `${example}:${t.line}: @${name} has ${t.scopes.join(" ")}`);
    }
    assertScoped(tokens, "workgroup_id", "variable.language", example);
    // var<storage, read_write>
    assertScoped(tokens, "storage", "storage.modifier", example);
    assertScoped(tokens, "read_write", "storage.modifier", example);
  });
}

test("matrix roles and layouts", () => {
  const tokens = tokenize(
    "alias T = coop_mat8x8<f32, C>;\nlet x = subgroupMatrixLoad<L, row_major>(&a, 0u, 16u);\nlet y = A;");
  assertScoped(tokens, "coop_mat8x8", "support.type", "roles");
  assertScoped(tokens, "C", "constant.language", "roles");
  assertScoped(tokens, "row_major", "constant.language", "layouts");
  // a variable called A outside a template is not a role
  const a = tokensOf(tokens, "A")[0];
  assert.ok(!hasScope(a, "constant.language"), `A has ${a.scopes.join(" ")}`);
});

const SUFFIXED = new Set(["0x1.8p3f", "0x1p-2h", "0x1Fu", "0XFFi", "2.5e+4f", "0.5h", "1h", "0f", "7i", "1024u"]);

test("numeric literals, with suffixes and hex floats", () => {
  const cases = {
    "0x1.8p3": "constant.numeric.float.hexadecimal",
    "0x1.8p3f": "constant.numeric.float.hexadecimal",
    "0x1p-2h": "constant.numeric.float.hexadecimal",
    "0x.8p1": "constant.numeric.float.hexadecimal",
    "0xA.8": "constant.numeric.float.hexadecimal",
    "0x1Fu": "constant.numeric.integer.hexadecimal",
    "0XFFi": "constant.numeric.integer.hexadecimal",
    "1.5": "constant.numeric.float.decimal",
    "1.": "constant.numeric.float.decimal",
    ".25": "constant.numeric.float.decimal",
    "2.5e+4f": "constant.numeric.float.decimal",
    "1e-3": "constant.numeric.float.decimal",
    "0.5h": "constant.numeric.float.decimal",
    "1h": "constant.numeric.float.decimal",
    "0f": "constant.numeric.float.decimal",
    "42": "constant.numeric.integer.decimal",
    "7i": "constant.numeric.integer.decimal",
    "1024u": "constant.numeric.integer.decimal",
  };
  for (const [literal, scope] of Object.entries(cases)) {
    const tokens = tokenize(`let x = ${literal};`);
    const inLiteral = tokens.filter((t) => hasScope(t, "constant.numeric"));
    assert.equal(inLiteral.map((t) => t.text).join(""), literal, `${literal}: tokens ${JSON.stringify(tokens)}`);
    for (const t of inLiteral) assert.ok(hasScope(t, scope), `${literal}: ${t.text} has ${t.scopes.join(" ")}`);
    if (SUFFIXED.has(literal)) {
      const suffix = inLiteral[inLiteral.length - 1];
      assert.ok(hasScope(suffix, "keyword.other.unit.suffix"), `${literal}: suffix has ${suffix.scopes.join(" ")}`);
    }
  }
  // 0xAf is a hex integer, not a float with an f suffix
  const tokens = tokenize("let x = 0xAf;");
  assert.ok(tokens.some((t) => t.text === "0xAf" && hasScope(t, "constant.numeric.integer.hexadecimal")),
    JSON.stringify(tokens));
});

test("block comments nest", () => {
  const tokens = tokenize("/* a /* b */ still comment */ let x = 1;\n/* two\n lines */ fn f() {}");
  for (const word of ["a", "b", "still", "comment", "two", "lines"]) {
    const found = tokensHolding(tokens, word);
    assert.ok(found.length > 0, `no '${word}'`);
    for (const t of found) assert.ok(hasScope(t, "comment.block"), `'${word}' has ${t.scopes.join(" ")}`);
  }
  assertScoped(tokens, "let", "keyword", "after nested comment");
  assertScoped(tokens, "fn", "keyword", "after multi-line comment");
});

test("keywords, declarations and directives", () => {
  const tokens = tokenize([
    "enable f16, subgroups;", "requires readonly_and_readwrite_storage_textures;",
    "diagnostic(off, derivative_uniformity);", "struct S { x: f32 }", "override n: u32 = 4u;",
    "fn f(p: ptr<function, f32>) -> f32 {", "  loop { if true { break; } else { continue; } continuing { break if false; } }",
    "  switch 1 { case 1, default: { discard; } }", "  while false { }", "  const_assert 1 < 2;", "  _ = p;", "  return *p;", "}",
  ].join("\n"));
  for (const word of ["enable", "requires", "diagnostic", "struct", "override", "fn", "loop", "if", "break",
    "else", "continue", "continuing", "switch", "case", "default", "discard", "while", "const_assert", "return"]) {
    assertScoped(tokens, word, "keyword", "keywords");
  }
  assertScoped(tokens, "f16", "entity.name.namespace", "enable list");
  assertScoped(tokens, "subgroups", "entity.name.namespace", "enable list");
  assertScoped(tokens, "off", "constant.language", "diagnostic severity");
  assertScoped(tokens, "S", "entity.name.type", "struct name");
  assertScoped(tokens, "f", "entity.name.function", "function name");
  assertScoped(tokens, "function", "storage.modifier", "address space");
  assertScoped(tokens, "true", "constant.language.boolean", "bool");
});

/** The strings of the first `#any-of? @capture ...` list after `marker` in highlights.scm. */
function highlightList(capture) {
  const text = readFileSync(join(repoRoot, "queries", "highlights.scm"), "utf8");
  const match = new RegExp(`\\(#any-of\\? @${capture.replace(".", "\\.")}([^)]*)\\)`).exec(text);
  assert.ok(match, `queries/highlights.scm has no #any-of? @${capture}`);
  return [...match[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
}

test("every builtin type of queries/highlights.scm is a support.type", () => {
  const names = highlightList("type.builtin");
  assert.ok(names.length > 50 && names.includes("subgroup_matrix_result") && names.includes("coop_mat16x16"));
  for (const name of names) {
    const tokens = tokenize(`var<private> x: ${name};`);
    assertScoped(tokens, name, "support.type", `type ${name}`);
  }
});

test("every builtin function of queries/highlights.scm is a support.function", () => {
  const names = highlightList("function.builtin");
  assert.ok(names.length > 100 && names.includes("subgroupMatrixScalarMultiply") && names.includes("coopStoreT"));
  for (const name of names) {
    for (const call of [`let x = ${name}(1);`, `let x = ${name}<T>(1);`]) {
      assertScoped(tokenize(call), name, "support.function", call);
    }
  }
});

test("a user function call is not a builtin", () => {
  const tokens = tokenize("let x = myHelper(1) + lengthy(2);");
  assertScoped(tokens, "myHelper", "entity.name.function", "call");
  assert.ok(!hasScope(tokensOf(tokens, "lengthy")[0], "support.function"));
});

test("debugPrintf's format string, its conversions and escapes", () => {
  const tokens = tokenize('  debugPrintf("i=%u \\"q\\" %5.2f 100%%", i, x);\n  let after = 1;');
  assertScoped(tokens, "i=", "string.quoted.double", "format text");
  assertScoped(tokens, "%u", "constant.other.placeholder", "conversion");
  assertScoped(tokens, "%5.2f", "constant.other.placeholder", "conversion with width");
  assertScoped(tokens, "%%", "constant.other.placeholder", "percent sign");
  assertScoped(tokens, '\\"', "constant.character.escape", "escaped quote");
  assertScoped(tokens, "let", "keyword", "the string ends at its quote");
});
