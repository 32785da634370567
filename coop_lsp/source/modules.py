"""Imported modules (naga_oil `#import`, WESL `import`): found, loaded once, renamed where names clash.

A mixin of the expander: the modules join the WGSL after the importing file, their global directives move
before everything, and a name two modules declare is renamed in the later one (`f` -> `f_b`), as the
composers mangle, with every reference to it following.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..core.text import Span
from . import wesl
from .expansion import Link
from .origin import Piece
from .output import Output
from .rules import BAD_DIRECTIVE, PATH_OUTSIDE_WORKSPACE, UNRESOLVED_IMPORT

# `#import a::b`, `#import a::b as c`, `#import a::b::{x, y}`, and the older `#import a::b x, y`.
_NAGA_IMPORT_ITEMS = re.compile(r"^([\w:\"./-]+?)(?:::\{([^}]*)\}|\s+as\s+(\w+)|\s+(\w+(?:\s*,?\s*\w+)*))?\s*$")


class ModuleImports:
    def _hoist(self) -> None:
        """An imported module's `enable`, `requires` and `diagnostic` directives go before everything:
        WGSL wants directives before any declaration, and modules join after the importing file."""
        prefix = Output()
        for file, data, start, end in self.hoisted:
            prefix.copy(file, data, start, end)
            prefix.newlines(file, 1, end)
        shift = prefix.size
        for piece in self.out.origins.pieces:
            prefix.origins.add(Piece(piece.out_start + shift, piece.out_end + shift, piece.file, piece.src_start,
                                     piece.src_end, piece.verbatim, piece.unresolved))
        prefix.chunks.extend(self.out.chunks)
        prefix.size += self.out.size
        self.out = prefix

    def _module(self, target: Path, from_file: int, span: Span) -> None:
        resolved = target.resolve()
        if resolved in self.modules_loaded or not self.inside(resolved):
            return
        self.modules_loaded.add(resolved)
        loaded = self.cache.get(resolved)
        if loaded is None:
            self._problem(from_file, span, UNRESOLVED_IMPORT.code, f"cannot read '{target}'")
            return
        if self.out.size and not self.out.chunks[-1].endswith(b"\n"):
            self.out.generated(from_file, b"\n", span)
        saved, self.renames = self.renames, self._register_module(resolved, resolved.stem)
        try:
            self._file(loaded, (resolved,), is_main=False, is_module=True)
        finally:
            self.renames = saved

    def _register_module(self, path: Path, alias: str) -> dict[str, str]:
        """The renames of a module's declarations that clash with names already taken (worked out once)."""
        resolved = path.resolve()
        known = self.module_renames.get(resolved)
        if known is not None:
            return known
        renames: dict[str, str] = {}
        loaded = self.cache.get(resolved) if self.inside(resolved) else None
        tag = re.sub(r"\W", "_", alias) or "m"
        for name in sorted(loaded.structure.top_level if loaded is not None else ()):
            if name in self.taken:
                mangled, number = f"{name}_{tag}", 2
                while mangled in self.taken:
                    mangled, number = f"{name}_{tag}{number}", number + 1
                renames[name] = mangled
                name = mangled
            self.taken.add(name)
        self.module_renames[resolved] = renames
        return renames

    def _naga_import(self, file: int, span: Span, text: str) -> None:
        text = text.strip().rstrip(";").strip()
        match = _NAGA_IMPORT_ITEMS.match(text)
        if match is None:
            self._problem(file, span, BAD_DIRECTIVE.code, f"cannot read '#import {text}'")
            return
        module = match.group(1).strip('"')
        self.aliases[match.group(3) or module.split("::")[-1]] = module
        target = self._naga_module(module)
        if target is None and self._naga_prefix(module):
            return  # a path prefix (`#import a::b as p`, used as `p::c::item`): modules load where used
        if target is None:
            self._problem(file, span, UNRESOLVED_IMPORT.code,
                          f"no file declares '#define_import_path {module}' in the include directories")
            return
        self.result.links.append(Link(file, span, target))
        self.pending_modules.append((target, file, span))
        renames = self._register_module(target, match.group(3) or module.split("::")[-1])
        items = (match.group(2) or match.group(4) or "").replace(",", " ").split()
        for item in items:
            if item in renames:
                self.renames[item] = renames[item]

    def _naga_module(self, module: str) -> Path | None:
        roots = [self.main_path.parent] if self.main_path is not None else []
        for root in [*roots, *self.include_dirs]:
            found = self.cache.import_paths(root).get(module)
            if found is not None:
                return found
        return None

    def _naga_prefix(self, module: str) -> bool:
        roots = [self.main_path.parent] if self.main_path is not None else []
        return any(name.startswith(module + "::") for root in [*roots, *self.include_dirs]
                   for name in self.cache.import_paths(root))

    def _wesl_import(self, file: int, data: bytes, lines) -> None:
        start, end = lines[0][0], lines[-1][1]
        text = data[start:end].decode("utf-8", "replace")
        span = Span(start, end)
        try:
            paths = wesl.import_paths(text)
        except ValueError as error:
            self._problem(file, span, BAD_DIRECTIVE.code, f"cannot read the import: {error}")
            return
        current = self.files[file]
        for segments, alias in paths:
            target = wesl.resolve(segments, current, self.wesl_root)
            if target is None:
                self._problem(file, span, UNRESOLVED_IMPORT.code,
                              f"cannot find module '{'::'.join(segments)}' (package root: {self.wesl_root})")
                continue
            module_file, item = target
            if not self.inside(module_file):
                self._problem(file, span, PATH_OUTSIDE_WORKSPACE.code,
                              self.outside_message(f"module '{'::'.join(segments)}'"))
                continue
            self.aliases[alias] = "::".join(segments)
            self.result.links.append(Link(file, span, module_file))
            self.pending_modules.append((module_file, file, span))
            renames = self._register_module(module_file, module_file.stem)
            if item is not None:
                wgsl_name = renames.get(item, item)
                if wgsl_name != alias:
                    self.renames[alias] = wgsl_name  # `import a::f as g;` or a renamed `f`

    def _qualified(self, path: str, file: int, span: Span) -> str:
        """A `module::item` reference: load the module it names, once (WESL allows such a reference
        without an import; naga_oil only after `#import`)."""
        module = path.rsplit("::", 1)[0]
        first = module.split("::")[0]
        if first in self.aliases:
            module = self.aliases[first] + module[len(first):]
        segments = module.split("::")
        target = wesl.resolve(segments, self.files[file], self.wesl_root) if self.wesl_root is not None else None
        if target is None:
            found = self._naga_module(module)
            target = (found, None) if found is not None else None
        if target is None:
            return path.rsplit("::", 1)[-1]
        if not self.inside(target[0]):
            self._problem(file, span, PATH_OUTSIDE_WORKSPACE.code, self.outside_message(f"module '{module}'"))
            return path.rsplit("::", 1)[-1]
        if target[0].resolve() not in self.modules_loaded:
            self.pending_modules.append((target[0], file, span))
        name = path.rsplit("::", 1)[-1]
        return self._register_module(target[0], target[0].stem).get(name, name)
