// Exposes the generated WGSL parser to py-tree-sitter as a capsule.
#include <Python.h>

typedef struct TSLanguage TSLanguage;
const TSLanguage *tree_sitter_wgsl(void);

static PyObject *language(PyObject *self, PyObject *args) {
  (void)self;
  (void)args;
  return PyCapsule_New((void *)tree_sitter_wgsl(), "tree_sitter.Language", NULL);
}

static PyMethodDef methods[] = {
    {"language", language, METH_NOARGS, "The tree-sitter Language of the WGSL grammar, as a capsule."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_wgsl", "WGSL grammar for tree-sitter.", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__wgsl(void) { return PyModule_Create(&module); }
