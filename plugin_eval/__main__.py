"""The `plugin-eval` process: start-up settings, then the command line (`plugin_eval.cli`)."""

from __future__ import annotations

import gc
import os


def main() -> None:
    """Run the command line in a process of its own (the `plugin-eval` script, `python -m`).

    Importing the command line builds some hundred thousand objects that live as long as the
    process and frees almost none, so cyclic collections while importing are wasted work: they
    are paused for the imports, and what the imports built is then frozen (`gc.freeze`), out
    of every later collection, including the last one when the process exits. Third-party
    pydantic plugins (observability hooks found through entry points) have nothing to watch in
    this process's report models, and looking for them scans every installed distribution, so
    they are off unless the user's environment says otherwise.
    """
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    gc.disable()
    try:
        from plugin_eval.cli import main as run
    finally:
        gc.freeze()
        gc.enable()
    run()


if __name__ == "__main__":
    main()
