"""coop-lint configuration: `[tool.coop-lint]` in pyproject.toml, or a `coop-lint.toml`.

The file nearest to a linted file wins: coop-lint looks in the file's folder,
then its parent, and so on; in each folder a `coop-lint.toml` (keys at top
level, or under `[tool.coop-lint]`) comes before a `pyproject.toml` with a
`[tool.coop-lint]` table, and a pyproject.toml without that table is passed
over. Patterns in a file (exclude, per-file-ignores, overrides) are relative
to the folder that holds it.

Rule selectors everywhere (configuration and command line) are a code
(`T012`), a code prefix (`T`, `T01`), a rule name (`deprecated_builtin`,
`coop.deprecated_builtin`) or `ALL`. A finding is reported when its rule is
selected and not ignored; syntax errors (S...) and internal errors (X001)
are always reported, since no compiler accepts the file either way.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..core.diagnostic import Diagnostic, Severity
from ..core.rules import Rule, find as find_rule
from ..semantic.builtins.language import DIALECT_NAMES

DIALECTS = ("auto",) + DIALECT_NAMES
SEVERITY_NAMES = {"error": Severity.ERROR, "warning": Severity.WARNING, "info": Severity.INFO,
                  "hint": Severity.HINT, "off": None}
CONFIG_FILES = ("coop-lint.toml", "pyproject.toml")
_TARGET = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:+-]*$")


class ConfigError(Exception):
    """A configuration value coop-lint cannot use; names the file and the key."""

    def __init__(self, where: str, key: str, message: str) -> None:
        super().__init__(f"{where}: {key}: {message}" if key else f"{where}: {message}")
        self.where, self.key = where, key


def always_reported(rule: Rule) -> bool:
    return rule.layer in ("syntax", "lint") and not rule.suppressible


def resolve_selector(selector: str, where: str, key: str) -> frozenset[str]:
    """The codes a selector stands for; ConfigError when it names nothing."""
    from .catalogue import all_rules  # on first use: start-up imports no check

    rules = all_rules()
    text = selector.strip()
    if text.upper() == "ALL":
        return frozenset(r.code for r in rules)
    rule = find_rule(text)
    if rule is not None:
        return frozenset({rule.code})
    if re.fullmatch(r"[A-Za-z]\d{0,2}", text):
        codes = frozenset(r.code for r in rules if r.code.startswith(text.upper()))
        if codes:
            return codes
    names = [r.code for r in rules] + [r.name for r in rules]
    close = difflib.get_close_matches(text, names, n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else " (`coop-lint rules` lists them)"
    raise ConfigError(where, key, f"unknown rule '{selector}'{hint}")


def codes_of(selectors, where: str, key: str, ignoring: bool = False) -> frozenset[str]:
    if isinstance(selectors, str):
        selectors = [s for s in selectors.split(",") if s.strip()]
    if not isinstance(selectors, list) or not all(isinstance(s, str) for s in selectors):
        raise ConfigError(where, key, "expected a list of rule codes, prefixes or names")
    codes: set[str] = set()
    for selector in selectors:
        matched = resolve_selector(selector, where, key)
        if ignoring and all(always_reported(find_rule(code)) for code in matched):
            raise ConfigError(where, key, f"'{selector}' cannot be ignored: syntax errors are always reported, "
                                          f"since no compiler accepts the file")
        codes |= matched
    return frozenset(codes)


def _severities(table, where: str, key: str) -> dict[str, Severity | None]:
    if not isinstance(table, dict):
        raise ConfigError(where, key, 'expected a table such as { T012 = "error" }')
    result: dict[str, Severity | None] = {}
    for selector, level in table.items():
        item = f"{key}.{selector}"
        if not isinstance(level, str) or level.lower() not in SEVERITY_NAMES:
            raise ConfigError(where, item, f"severity must be one of {', '.join(SEVERITY_NAMES)}, not {level!r}")
        matched = resolve_selector(selector, where, item)
        changeable = [code for code in matched if not always_reported(find_rule(code))]
        if not changeable:
            raise ConfigError(where, item, "the severity of syntax errors cannot be changed: no compiler "
                                           "accepts the file")
        for code in changeable:
            result[code] = SEVERITY_NAMES[level.lower()]
    return result


def _dialect(value, where: str, key: str) -> str:
    if not isinstance(value, str) or value not in DIALECTS:
        raise ConfigError(where, key, f"dialect must be one of {', '.join(DIALECTS)}, not {value!r}")
    return value


def targets_of(value, where: str, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list) or not all(isinstance(v, str) and _TARGET.match(v) for v in value):
        raise ConfigError(where, key, "expected a list of target names (letters, digits, '.', '_', '-', ':', '+')")
    return tuple(value)


def _patterns(value, where: str, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(where, key, "expected a list of glob patterns")
    return tuple(value)


# -- glob patterns -------------------------------------------------------

_GLOB_CACHE: dict[str, re.Pattern] = {}


def glob_regex(pattern: str) -> re.Pattern:
    """A gitignore-style glob as a regex over '/'-separated relative paths.

    `*` and `?` stay within one path component, `**` crosses them; a pattern
    without '/' (other than a trailing one) matches a name at any depth.
    """
    cached = _GLOB_CACHE.get(pattern)
    if cached is not None:
        return cached
    body = pattern.rstrip("/")
    anchored = "/" in body
    body = body.lstrip("/")
    if body.startswith("./"):
        body = body[2:]
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if body.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif body.startswith("**", i):
            out.append(".*")
            i += 2
        elif ch == "*":
            out.append("[^/]*")
            i += 1
        elif ch == "?":
            out.append("[^/]")
            i += 1
        elif ch == "[":
            close = body.find("]", i + 2)
            if close == -1:
                out.append(re.escape(ch))
                i += 1
            else:
                inner = body[i + 1 : close]
                if inner.startswith("!"):
                    inner = "^" + inner[1:]
                out.append("[" + inner.replace("\\", "\\\\") + "]")
                i = close + 1
        else:
            out.append(re.escape(ch))
            i += 1
    prefix = "" if anchored else "(?:.*/)?"
    compiled = re.compile(prefix + "".join(out) + r"\Z", re.DOTALL)
    _GLOB_CACHE[pattern] = compiled
    return compiled


def path_matches(pattern: str, relative: str) -> bool:
    """True when `relative` (posix, relative to the config folder) or one of its folders matches."""
    regex = glob_regex(pattern)
    parts = relative.split("/")
    return any(regex.match("/".join(parts[: n])) for n in range(len(parts), 0, -1))


# -- configuration ---------------------------------------------------------

@dataclass(frozen=True)
class Override:
    files: tuple[str, ...]
    select: frozenset[str] | None = None
    ignore: frozenset[str] = frozenset()
    severity: dict[str, Severity | None] = field(default_factory=dict)
    dialect: str | None = None
    targets: tuple[str, ...] | None = None


@dataclass(frozen=True)
class VariantTable:
    """One `[[tool.coop-lint.variants]]`: the define sets of the files its globs match."""

    files: tuple[str, ...]
    include: tuple[Path, ...] = ()
    override_file_defines: bool = False
    sets: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()


@dataclass(frozen=True)
class Settings:
    """What applies to one file: which rules, at which severities, for which dialect and targets."""

    select: frozenset[str] | None = None  # None: every rule
    ignore: frozenset[str] = frozenset()
    severity: dict[str, Severity | None] = field(default_factory=dict)
    dialect: str = "auto"  # whose compiler counts where the module's enables do not say
    targets: tuple[str, ...] = ()
    variants: tuple[VariantTable, ...] = ()  # the variant tables whose globs match this file

    def enabled(self, code: str) -> bool:
        rule = find_rule(code)
        if rule is not None and always_reported(rule):
            return True
        if self.select is not None and code not in self.select:
            return False
        return code not in self.ignore

    def apply(self, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
        kept = []
        for diagnostic in diagnostics:
            if not self.enabled(diagnostic.code):
                continue
            if diagnostic.code in self.severity:
                level = self.severity[diagnostic.code]
                if level is None:
                    continue
                diagnostic = replace(diagnostic, severity=level)
            kept.append(diagnostic)
        return kept


@dataclass(frozen=True)
class Config:
    path: Path | None = None  # the file it was read from; None: defaults
    root: Path = Path(".")
    select: frozenset[str] | None = None
    ignore: frozenset[str] = frozenset()
    severity: dict[str, Severity | None] = field(default_factory=dict)
    dialect: str = "auto"
    targets: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, frozenset[str]], ...] = ()
    overrides: tuple[Override, ...] = ()
    hosts: bool = False
    variants: tuple[VariantTable, ...] = ()
    indent_width: int = 4  # [tool.coop-lint.format]
    line_width: int = 100
    baseline: Path | None = None  # resolved against the configuration file's folder

    def relative(self, path: Path) -> str | None:
        try:
            return Path(path).resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return None

    def excludes(self, path: Path) -> bool:
        if not self.exclude:
            return False
        relative = self.relative(path)
        return relative is not None and any(path_matches(p, relative) for p in self.exclude)

    @property
    def depends_on_path(self) -> bool:
        """Whether files under this configuration may get different settings (variants, per-file ignores,
        overrides); when not, `settings_for` is the same for every file and resolves no path."""
        return bool(self.variants or self.per_file_ignores or self.overrides)

    def settings_for(self, path: Path | None) -> Settings:
        settings = Settings(self.select, self.ignore, dict(self.severity), self.dialect, self.targets)
        relative = self.relative(path) if path is not None and self.depends_on_path else None
        if relative is None:
            return settings
        variants = tuple(v for v in self.variants if any(path_matches(p, relative) for p in v.files))
        ignore = set(settings.ignore)
        for pattern, codes in self.per_file_ignores:
            if path_matches(pattern, relative):
                ignore |= codes
        select, severity, dialect, targets = settings.select, settings.severity, settings.dialect, settings.targets
        for override in self.overrides:
            if any(path_matches(p, relative) for p in override.files):
                if override.select is not None:
                    select = override.select
                ignore |= override.ignore
                severity = {**severity, **override.severity}
                dialect = override.dialect or dialect
                targets = override.targets if override.targets is not None else targets
        return Settings(select, frozenset(ignore), severity, dialect, targets, variants)


_TOP_KEYS = ("select", "ignore", "severity", "dialect", "targets", "exclude", "per-file-ignores",
             "overrides", "hosts", "variants", "baseline", "format")
_VARIANT_KEYS = ("files", "include", "override-file-defines", "sets")
_SET_KEYS = ("name", "defines")
_DEFINE_NAME = re.compile(r"^[A-Za-z_]\w*$")


def _define_value(value, where: str, key: str) -> str:
    # TOML strings are the values as written; numbers and booleans are what they print as in WGSL.
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    raise ConfigError(where, key, f"a define's value must be a string, number or boolean, not {type(value).__name__}")


def _variant_tables(raw, root: Path, where: str, key: str) -> tuple[VariantTable, ...]:
    if not isinstance(raw, list) or not all(isinstance(item, dict) for item in raw):
        raise ConfigError(where, key, "expected an array of tables ([[tool.coop-lint.variants]])")
    tables = []
    for index, item in enumerate(raw):
        prefix = f"{key}[{index}]."
        _check_keys(item, _VARIANT_KEYS, where, prefix)
        if "files" not in item:
            raise ConfigError(where, prefix + "files", "each variants table needs the files it applies to")
        include = _patterns(item.get("include", []), where, prefix + "include")
        override = item.get("override-file-defines", False)
        if not isinstance(override, bool):
            raise ConfigError(where, prefix + "override-file-defines", "expected true or false")
        sets_raw = item.get("sets", [])
        if not isinstance(sets_raw, list) or not all(isinstance(s, dict) for s in sets_raw):
            raise ConfigError(where, prefix + "sets", 'expected a list of tables such as { name = "vec-16", '
                                                      'defines = { VEC = "" } }')
        sets, names = [], set()
        for number, entry in enumerate(sets_raw):
            set_key = f"{prefix}sets[{number}]."
            _check_keys(entry, _SET_KEYS, where, set_key)
            name = entry.get("name")
            if not isinstance(name, str) or not name.strip():
                raise ConfigError(where, set_key + "name", "each set needs a name")
            if name in names:
                raise ConfigError(where, set_key + "name", f"two sets are named '{name}'")
            names.add(name)
            defines = entry.get("defines", {})
            if not isinstance(defines, dict):
                raise ConfigError(where, set_key + "defines", 'expected a table such as { VEC = "", TILE = "16u" }')
            pairs = []
            for define, value in defines.items():
                if not _DEFINE_NAME.match(define):
                    raise ConfigError(where, f"{set_key}defines.{define}", "a define's name must be an identifier")
                pairs.append((define, _define_value(value, where, f"{set_key}defines.{define}")))
            sets.append((name, tuple(pairs)))
        folders = tuple(_inside_project(root, p, where, f"{prefix}include") for p in include)
        tables.append(VariantTable(_patterns(item["files"], where, prefix + "files"), folders, override,
                                   tuple(sets)))
    return tuple(tables)


def _inside_project(folder: Path, value: str, where: str, key: str) -> Path:
    """A path a configuration names, resolved against its folder, which it must not leave: a repository's
    configuration is untrusted input, and `baseline = "../../.bashrc"` would have --write-baseline
    overwrite a file of the user's. `..` and symbolic links are followed before the check."""
    path = folder / value
    if not path.resolve().is_relative_to(folder.resolve()):
        raise ConfigError(where, key, f"'{value}' leaves the project folder ({folder}) through '..', an absolute "
                                      "path or a symbolic link; a configuration may name only paths inside it")
    return path


_OVERRIDE_KEYS = ("files", "select", "ignore", "severity", "dialect", "targets")


def _check_keys(table: dict, allowed: tuple[str, ...], where: str, prefix: str) -> None:
    for key in table:
        if key not in allowed:
            close = difflib.get_close_matches(key.replace("_", "-"), allowed, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else f" (known keys: {', '.join(allowed)})"
            raise ConfigError(where, prefix + key, f"unknown key{hint}")


def parse_table(table: dict, path: Path, section: str) -> Config:
    where = str(path)
    _check_keys(table, _TOP_KEYS, where, section)
    k = lambda key: section + key  # noqa: E731 - the key as the user wrote it, for messages
    config = Config(path=path, root=path.parent)
    values: dict = {}
    if "select" in table:
        values["select"] = codes_of(table["select"], where, k("select"))
    if "ignore" in table:
        values["ignore"] = codes_of(table["ignore"], where, k("ignore"), ignoring=True)
    if "severity" in table:
        values["severity"] = _severities(table["severity"], where, k("severity"))
    if "dialect" in table:
        values["dialect"] = _dialect(table["dialect"], where, k("dialect"))
    if "targets" in table:
        values["targets"] = targets_of(table["targets"], where, k("targets"))
    if "exclude" in table:
        values["exclude"] = _patterns(table["exclude"], where, k("exclude"))
    if "hosts" in table:
        if not isinstance(table["hosts"], bool):
            raise ConfigError(where, k("hosts"), "expected true or false")
        values["hosts"] = table["hosts"]
    if "format" in table:
        values.update(_format_table(table["format"], where, k("format")))
    if "baseline" in table:
        if not isinstance(table["baseline"], str) or not table["baseline"]:
            raise ConfigError(where, k("baseline"), 'expected the path of a baseline file, such as "coop-lint-baseline.json"')
        values["baseline"] = _inside_project(path.parent, table["baseline"], where, k("baseline"))
    if "per-file-ignores" in table:
        pfi = table["per-file-ignores"]
        if not isinstance(pfi, dict):
            raise ConfigError(where, k("per-file-ignores"), 'expected a table such as { "legacy/*.wgsl" = ["T012"] }')
        values["per_file_ignores"] = tuple(
            (pattern, codes_of(codes, where, f"{k('per-file-ignores')}.\"{pattern}\"", ignoring=True)) for pattern, codes in pfi.items())
    if "variants" in table:
        values["variants"] = _variant_tables(table["variants"], path.parent, where, k("variants"))
    if "overrides" in table:
        raw = table["overrides"]
        if not isinstance(raw, list) or not all(isinstance(o, dict) for o in raw):
            raise ConfigError(where, k("overrides"), "expected an array of tables ([[tool.coop-lint.overrides]])")
        overrides = []
        for index, item in enumerate(raw):
            prefix = f"{k('overrides')}[{index}]."
            _check_keys(item, _OVERRIDE_KEYS, where, prefix)
            if "files" not in item:
                raise ConfigError(where, prefix + "files", "each override needs the files it applies to")
            overrides.append(Override(
                files=_patterns(item["files"], where, prefix + "files"),
                select=codes_of(item["select"], where, prefix + "select") if "select" in item else None,
                ignore=codes_of(item.get("ignore", []), where, prefix + "ignore", ignoring=True),
                severity=_severities(item.get("severity", {}), where, prefix + "severity"),
                dialect=_dialect(item["dialect"], where, prefix + "dialect") if "dialect" in item else None,
                targets=targets_of(item["targets"], where, prefix + "targets") if "targets" in item else None,
            ))
        values["overrides"] = tuple(overrides)
    return replace(config, **values)


_FORMAT_KEYS = {"indent-width": (1, 16), "line-width": (20, 1000)}


def _format_table(table, where: str, key: str) -> dict:
    """`coop-lint format`'s two options; the rest of the layout is fixed, as in ruff and rustfmt."""
    if not isinstance(table, dict):
        raise ConfigError(where, key, "expected a table ([tool.coop-lint.format])")
    _check_keys(table, tuple(_FORMAT_KEYS), where, key + ".")
    values = {}
    for name, (low, high) in _FORMAT_KEYS.items():
        if name in table:
            value = table[name]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ConfigError(where, f"{key}.{name}", f"expected a whole number from {low} to {high}")
            values[name.replace("-", "_")] = value
    return values


def load(path: Path) -> Config | None:
    """The configuration in one file; None for a pyproject.toml without [tool.coop-lint]."""
    where = str(path)
    try:
        with open(path, "rb") as handle:
            document = tomllib.load(handle)
    except OSError as error:
        raise ConfigError(where, "", f"cannot read: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(where, "", f"invalid TOML: {error}") from None
    except UnicodeDecodeError:
        raise ConfigError(where, "", "invalid TOML: not UTF-8") from None
    tool = document.get("tool")
    if isinstance(tool, dict) and "coop-lint" in tool:
        table, section = tool["coop-lint"], "[tool.coop-lint] "
        if not isinstance(table, dict):
            raise ConfigError(where, "tool.coop-lint", "expected a table")
    elif path.name == "pyproject.toml":
        return None
    else:
        table, section = {k: v for k, v in document.items() if k != "tool"}, ""
    return parse_table(table, path, section)


class ConfigFinder:
    """Finds (and caches) the configuration that applies to each folder."""

    def __init__(self, explicit: Path | None = None, isolated: bool = False) -> None:
        self._cache: dict[Path, Config] = {}
        self._fixed = None
        if isolated:
            self._fixed = Config()
        elif explicit is not None:
            loaded = load(explicit)
            if loaded is None:
                raise ConfigError(str(explicit), "", "has no [tool.coop-lint] table")
            self._fixed = loaded

    def for_path(self, path: Path) -> Config:
        if self._fixed is not None:
            return self._fixed
        folder = Path(path).absolute()
        if not folder.is_dir():
            folder = folder.parent
        return self._for_folder(folder)

    def _for_folder(self, folder: Path) -> Config:
        cached = self._cache.get(folder)
        if cached is not None:
            return cached
        found = None
        for name in CONFIG_FILES:
            candidate = folder / name
            if candidate.is_file():
                found = load(candidate)
                if found is not None:
                    break
        if found is None:
            found = Config() if folder.parent == folder else self._for_folder(folder.parent)
        self._cache[folder] = found
        return found


def with_command_line(settings: Settings, select: frozenset[str] | None, ignore: frozenset[str],
                      dialect: str | None, targets: tuple[str, ...] | None) -> Settings:
    """Command-line options come last: --select replaces, --ignore adds."""
    return Settings(
        select if select is not None else settings.select,
        settings.ignore | ignore,
        settings.severity,
        dialect or settings.dialect,
        targets if targets is not None else settings.targets,
        settings.variants,
    )
