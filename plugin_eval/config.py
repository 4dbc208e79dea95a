"""Configuration: `[tool.plugin-eval]` in pyproject.toml or a `.plugin-eval.toml`."""

from __future__ import annotations

import difflib
import fnmatch
import os
from pathlib import Path
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from plugin_eval.config_files import above_items, config_in, is_file
from plugin_eval.discovery import DEFAULT_EXCLUDE, Scope, is_pattern
from plugin_eval.rules import ALL_RULES, BELOW_THRESHOLD
from plugin_eval.scoring.composite import PASS_PRESETS

FailOn = Literal["error", "warning", "info", "none"]


# Default factories are functions of ours, not `list` or `dict`: pydantic reads each factory's
# signature when it builds a model, and a builtin type's signature is parsed from its text with
# `tokenize` (compiling its patterns: some 2 ms of every run's start).
def _no_selectors() -> list[str]:
    return []


def _no_ignores() -> dict[str, list[str]]:
    return {}


def not_a_pattern(pattern: str) -> str:
    why = (
        "a trailing backslash escapes nothing"
        if pattern.endswith("\\")
        else "git cannot match it: a character range that runs backwards, say"
    )
    return f"'{pattern}' is not a gitignore-style pattern ({why})"


def _line_of(path: Path, key: str) -> int | None:
    """The line a setting is written on (TOML keeps no positions: the text is searched)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    for number, text in enumerate(lines, 1):
        name = text.split("=", 1)[0].strip().strip("\"'")
        if "=" in text and name == key:
            return number
        # A table of its own: "[per-path-ignores]", "[tool.plugin-eval.per-path-ignores]".
        header = text.strip()
        if header.startswith("[") and header.strip("[]").split(".")[-1].strip("\"' ") == key:
            return number
    return None


class ConfigError(Exception):
    """A configuration file that cannot be used; the message names the file and the fix."""


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)

    select: list[str] | None = None
    ignore: list[str] = Field(default_factory=_no_selectors)
    per_path_ignores: dict[str, list[str]] = Field(
        default_factory=_no_ignores, alias="per-path-ignores"
    )
    threshold: float | None = Field(default=None, ge=0, le=100, strict=True)
    # Seed 003's pass threshold: the same gate as `threshold` (exit 1 under it), and the
    # seed's verdict (passThreshold, passed, [RESULT: PASS]) in every report. A number or a
    # preset name; the two settings may both be given only with one value.
    pass_threshold: float | None = Field(default=None, alias="pass-threshold")
    # The dimension table of a benchmark file (`score --weights`), as fractions; None is seed
    # 002's. Set from the command line only, never from a configuration file.
    weights: dict[str, float] | None = None
    fail_on: FailOn = Field(default="error", alias="fail-on")
    # What a search of a folder leaves out (gitignore-style patterns from the searched folder):
    # `exclude` replaces the defaults, `extend-exclude` adds to them.
    exclude: list[str] | None = None
    extend_exclude: list[str] = Field(default_factory=_no_selectors, alias="extend-exclude")
    respect_gitignore: bool = Field(default=True, alias="respect-gitignore", strict=True)
    source: str | None = Field(default=None, exclude=True)
    # The folder of the file that declared these settings: per-path-ignores patterns are
    # relative to it, wherever plugin-eval runs from (the working folder when there is none).
    root: str | None = None
    # `compare --against`: a folder written from a git revision (first) stands for the work
    # tree's folder it was read from (second), so that per-path-ignores match it as they
    # match that folder. Set by the comparison only.
    stand_in: tuple[str, str] | None = Field(default=None, exclude=True)

    @field_validator("exclude", "extend_exclude")
    @classmethod
    def _patterns(cls, value: list[str] | None) -> list[str] | None:
        for pattern in value or []:
            if not is_pattern(pattern):
                raise ValueError(not_a_pattern(pattern))
        return value

    @field_validator("select", "ignore")
    @classmethod
    def _known(cls, value: list[str] | None, info: ValidationInfo) -> list[str] | None:
        for selector in value or []:
            problem = selector_problem(selector, ignoring=info.field_name == "ignore")
            if problem is not None:
                raise ValueError(problem)
        return value

    @field_validator("per_path_ignores")
    @classmethod
    def _known_per_path(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        for pattern, selectors in value.items():
            for selector in selectors:
                problem = selector_problem(selector, ignoring=True)
                if problem is not None:
                    raise ValueError(
                        problem.replace(f"'{selector}'", f"'{selector}' (for '{pattern}')", 1)
                    )
        return value

    @field_validator("pass_threshold", mode="before")
    @classmethod
    def _pass_threshold(cls, value: object) -> float | None:
        return None if value is None else pass_threshold_value(value)

    @model_validator(mode="after")
    def _one_threshold(self) -> Config:
        both = self.threshold is not None and self.pass_threshold is not None
        if both and self.threshold != self.pass_threshold:
            raise ValueError(
                f"threshold {self.threshold:g} and pass-threshold {self.pass_threshold:g} "
                "differ: they are one setting (pass-threshold adds seed 003's verdict); keep one"
            )
        return self

    @property
    def gate(self) -> float | None:
        """The composite every item must reach (exit 1 under it): either setting."""
        return self.pass_threshold if self.pass_threshold is not None else self.threshold

    def enabled(self, code: str, folder: str | os.PathLike[str]) -> bool:
        """Whether a rule applies to the skill or plugin in ``folder``, given select, ignore
        and the per-path ignores whose pattern matches the folder's path from ``root``."""
        if self.select is None and not self.ignore and not self.per_path_ignores:
            return True  # the default: nothing below could say no
        if self.select is not None and not any(code in matching_codes(s) for s in self.select):
            return False
        if any(code in matching_codes(s) for s in self.ignore):
            return False
        if not self.per_path_ignores:
            return True
        relpath = self.relative(folder)
        if relpath is None:
            return True
        for pattern, selectors in self.per_path_ignores.items():
            if _path_matches(relpath, pattern) and any(
                code in matching_codes(s) for s in selectors
            ):
                return False
        return True

    def relative(self, folder: str | os.PathLike[str]) -> str | None:
        """``folder`` as a path from ``root`` (forward slashes); None when outside it."""
        base = os.path.abspath(self.root or os.curdir)
        path = os.path.abspath(folder)
        if self.stand_in is not None:
            copy, original = self.stand_in
            if path == copy or path.startswith(copy + os.sep):
                path = original + path[len(copy) :]
        rel = os.path.relpath(path, base).replace(os.sep, "/")
        return None if rel == ".." or rel.startswith("../") else rel

    def scope(self) -> Scope:
        """What a search of a folder leaves out, by these settings."""
        base = DEFAULT_EXCLUDE if self.exclude is None else tuple(self.exclude)
        return Scope((*base, *self.extend_exclude), self.respect_gitignore)

    def fingerprint(self) -> str:
        return self.model_dump_json(by_alias=True)


def pass_threshold_value(value: object) -> float:
    """A pass threshold as given: a number from 0 to 100, or a preset's name."""
    if isinstance(value, str) and value.strip().lower() in PASS_PRESETS:
        return PASS_PRESETS[value.strip().lower()]
    try:
        number = float(value) if isinstance(value, int | float | str) else None
    except ValueError:
        number = None
    if isinstance(value, bool) or number is None or not 0 <= number <= 100:
        presets = ", ".join(f"{name} ({score:g})" for name, score in PASS_PRESETS.items())
        raise ValueError(f"'{value}' is not a pass threshold: give a number 0–100 or {presets}")
    return number


def selector_problem(selector: str, ignoring: bool) -> str | None:
    """Why a selector of select, ignore or per-path-ignores cannot be used, if it cannot."""
    codes = matching_codes(selector)
    if not codes:
        return f"'{selector}' matches no rule (see `plugin-eval rules`)"
    if ignoring and codes == {BELOW_THRESHOLD.code}:
        # The threshold's verdict, not a finding: ignoring it would change nothing.
        return (
            f"'{selector}' is the threshold's verdict, not a finding a rule makes, and is not "
            "ignored: to drop it, drop the threshold"
        )
    return None


def matching_codes(selector: str) -> frozenset[str]:
    """Codes a selector names: a code (PE201), a prefix (PE2), a flag or a rule name, or ALL."""
    key = selector.strip()
    if key.upper() == "ALL":
        return frozenset(r.code for r in ALL_RULES)
    return frozenset(
        r.code
        for r in ALL_RULES
        if r.code.startswith(key.upper()) or r.flag == key.upper() or r.name == key.lower()
    )


def _path_matches(relpath: str, pattern: str) -> bool:
    pattern = pattern.rstrip("/")
    return (
        fnmatch.fnmatch(relpath, pattern)
        or fnmatch.fnmatch(relpath, pattern + "/*")
        or relpath.startswith(pattern + "/")
    )


def find_config(start: Path) -> Path | None:
    """The nearest config file at or above ``start`` that has plugin-eval settings, never one
    inside a skill or plugin folder: what is scored is untrusted, and must not choose the
    rules it is scored by (nor score one way named alone, another way from above)."""
    here = start.resolve()
    if is_file(here):
        here = here.parent
    for folder in above_items(here):
        found = config_in(folder)
        if found is not None:
            return found
    return None


def load_config(path: Path | None) -> Config:
    if path is None:
        return Config()
    import tomllib

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: invalid TOML: {err}") from err
    except UnicodeDecodeError as err:
        bad_line = err.object.count(b"\n", 0, err.start) + 1
        raise ConfigError(
            f"{path}:{bad_line}: not UTF-8 text (byte 0x{err.object[err.start]:02x}), as TOML "
            "must be: save the file as UTF-8"
        ) from err
    except OSError as err:
        raise ConfigError(
            f"{path}: cannot read: {err.strerror or err} (name a configuration file that "
            "exists, or leave --config out)"
        ) from err
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        section = tool.get("plugin-eval", {}) if isinstance(tool, dict) else {}
        if not isinstance(section, dict):
            line = _line_of(path, "plugin-eval")
            raise ConfigError(
                f"{path}:{line}: [tool.plugin-eval] must be a table of settings"
                if line
                else f"{path}: [tool.plugin-eval] must be a table of settings"
            )
    elif "tool" in data:
        raise ConfigError(
            f"{path}: holds a [tool.plugin-eval] table; in {path.name} write the settings at "
            "the top level, without the table header (that form is for pyproject.toml)"
        )
    else:
        section = data
    if section.get("select") == []:
        raise ConfigError(
            f"{path}: 'select' is empty, which would run no rule; leave it out to run the "
            'default rules, or name what to run ("ALL" for every rule)'
        )
    if "weights" in section:
        raise ConfigError(
            f"{path}: 'weights' is not a configuration setting; give a benchmark file on the "
            "command line: plugin-eval score --weights FILE.md"
        )
    try:
        config = Config.model_validate(section)
    except ValidationError as err:
        first = err.errors()[0]
        loc = first["loc"]
        if not loc:  # a check across settings: placed at the first setting its message names
            named = [key for key in section if isinstance(key, str) and key in first["msg"]]
            loc = tuple(named[:1])
        where = ".".join(str(p) for p in loc) or "(top level)"
        line = _line_of(path, str(loc[0])) if loc else None
        at = f"{path}:{line}" if line else str(path)
        if first["type"] == "extra_forbidden":
            known = sorted(SETTINGS)
            close = difflib.get_close_matches(where, known, n=1)
            hint = f"did you mean '{close[0]}'?" if close else "settings: " + ", ".join(known)
            raise ConfigError(f"{at}: unknown setting '{where}' ({hint})") from err
        message = str(first["msg"]).removeprefix("Value error, ")
        raise ConfigError(f"{at}: '{where}': {message}") from err
    return config.model_copy(
        update={"source": str(path), "root": os.path.dirname(os.path.abspath(path))}
    )


# The names a configuration file may use: each setting's alias where it has one.
SETTINGS = frozenset(
    (field.alias or name)
    for name, field in Config.model_fields.items()
    if name not in ("weights", "source", "root", "stand_in")
)
