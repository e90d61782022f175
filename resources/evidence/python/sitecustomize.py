"""Weave's sitecustomize: the earliest code of a Python process Weave runs a spec's test command in.

Weave puts this folder first on PYTHONPATH for the command, so Python's ``site`` imports this module while the
interpreter starts, before the main module and before any code of the project under test. It installs the
runner guard (weave_runner_guard.py: an audit hook that cannot be removed), under ``python -m unittest`` the
unittest hook (weave_unittest_hook.py: unittest loads no plugin), and then runs the
``sitecustomize`` this one shadows (Debian's, a virtualenv's, the project's own), as Python would have.
"""


def _run_shadowed():
    import importlib.machinery
    import os
    import sys

    # The coverage tracer's sitecustomize chains the same way: each skips every folder a Weave sitecustomize
    # already ran from (kept on sys), or the two would run each other without end.
    seen = sys.__dict__.setdefault("_weave_sitecustomize_dirs", set())
    seen.add(os.path.realpath(os.path.dirname(__file__)))
    rest = [p for p in sys.path if os.path.realpath(p or ".") not in seen]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is None or spec.loader is None:
        return
    module = sys.modules[__name__]
    module.__file__ = spec.origin
    spec.loader.exec_module(module)


import weave_runner_guard  # noqa: E402,F401  (installs the audit hook as a side effect)
import weave_unittest_hook  # noqa: E402,F401  (under `-m unittest`: wraps unittest's results, signs them)

_run_shadowed()
