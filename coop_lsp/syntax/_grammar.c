/*
 * coop_lsp.syntax._grammar: the WGSL grammar of tree-sitter-wgsl/, compiled into
 * coop-lsp's own wheel so that installing coop-lsp needs no second distribution.
 *
 * setup.py compiles this file together with tree-sitter-wgsl/src/parser.c and
 * scanner.c (the one copy of the parser sources). Only the stable ABI is used,
 * so one wheel built on 3.11 serves every later CPython (abi3).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

typedef struct TSLanguage TSLanguage;

const TSLanguage *tree_sitter_wgsl(void);

/* py-tree-sitter's Language() accepts a capsule under exactly this name. */
static PyObject *grammar_language(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(unused)) {
    return PyCapsule_New((void *)tree_sitter_wgsl(), "tree_sitter.Language", NULL);
}

static PyMethodDef grammar_methods[] = {
    {"language", grammar_language, METH_NOARGS,
     "The WGSL grammar as a capsule for tree_sitter.Language()."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef grammar_module = {
    PyModuleDef_HEAD_INIT,
    "coop_lsp.syntax._grammar",
    "The WGSL tree-sitter grammar bundled with coop-lsp.",
    0,
    grammar_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__grammar(void) {
    return PyModuleDef_Init(&grammar_module);
}
