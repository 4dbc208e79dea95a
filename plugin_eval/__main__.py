"""The `plugin-eval` process: start-up settings, then the command line (`plugin_eval.cli`)."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterable
from types import ModuleType

# The values of PYDANTIC_DISABLE_PLUGINS for which pydantic's plugin loader
# (`pydantic.plugin._loader.get_plugins`) answers "no plugins" without looking for any.
_PLUGINS_OFF = ("__all__", "1", "true")
_LOADER = "pydantic.plugin._loader"


def _plugins() -> Iterable[object]:
    """`get_plugins` of the stand-in loader: none while plugins are off, as pydantic's own
    answers; should they be turned on in the process, pydantic's loader takes over."""
    if os.environ.get("PYDANTIC_DISABLE_PLUGINS") in _PLUGINS_OFF:
        return ()
    if sys.modules.get(_LOADER) is _STAND_IN:
        del sys.modules[_LOADER]
    from pydantic.plugin._loader import get_plugins

    return get_plugins()


_STAND_IN = ModuleType(_LOADER, "Stand-in for pydantic's plugin loader while plugins are off.")
_STAND_IN.__dict__["get_plugins"] = _plugins


def main() -> None:
    """The command line, in a process of its own (``_run``); Ctrl-C, even while the command
    line is still being imported, ends it with the shell's status 130 and no traceback."""
    try:
        _run()
    except KeyboardInterrupt:
        raise SystemExit(130) from None


def _run() -> None:
    """Run the command line in a process of its own (the `plugin-eval` script, `python -m`).

    Importing the command line builds some hundred thousand objects that live as long as the
    process and frees almost none, so cyclic collections while importing are wasted work: they
    are paused for the imports, and what the imports built is then frozen (`gc.freeze`), out
    of every later collection, including the last one when the process exits. Third-party
    pydantic plugins (observability hooks found through entry points) have nothing to watch in
    this process's report models, and looking for them scans every installed distribution, so
    they are off unless the user's environment says otherwise. While they are off, pydantic's
    plugin loader module is not even imported (a stand-in answers "none" as it would): it
    imports `importlib.metadata` (email, zipfile, csv…), some 10 ms, only to find no plugin.
    """
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    if os.environ["PYDANTIC_DISABLE_PLUGINS"] in _PLUGINS_OFF:
        sys.modules.setdefault(_LOADER, _STAND_IN)
    gc.disable()
    try:
        from plugin_eval.cli import main as run
    finally:
        gc.freeze()
        gc.enable()
    try:
        run()
    finally:
        # The regexes this run compiled, kept for the next (see plugin_eval.regexes).
        from plugin_eval import regexes

        regexes.save()


if __name__ == "__main__":
    main()
