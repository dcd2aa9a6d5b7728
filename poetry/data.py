"""Find the data/ directory and parse each table in it once.

Loaders are ``functools.cache``d and return read-only structures, so a table is parsed on first use,
never at import, and never mutated afterwards.
"""

from __future__ import annotations

import json
import os
import threading
from functools import cache
from pathlib import Path
from typing import Any

#: The repository's data/ folder; the POETRY_DATA_DIR environment variable or an argument may point elsewhere.
DEFAULT_DATA_DIR = Path(__file__).resolve().parent.parent / "data"


def data_dir(override: str | os.PathLike | None = None) -> Path:
    """Resolve the data directory: argument > POETRY_DATA_DIR environment variable > repo data/."""
    if override:
        return Path(override)
    env = os.environ.get("POETRY_DATA_DIR")
    return Path(env) if env else DEFAULT_DATA_DIR


def data_path(name: str, directory: str | os.PathLike | None = None) -> Path:
    """Path of one data file, e.g. ``data_path("pingshui.tsv")``."""
    return data_dir(directory) / name


def read_tsv(name: str, directory: str | os.PathLike | None = None) -> list[list[str]]:
    """Rows of a tab-separated data file, skipping ``#`` comment lines and blank lines."""
    rows = []
    with open(data_path(name, directory), encoding="utf-8") as fh:
        for line in fh:
            if not line.strip() or line.startswith("#"):
                continue
            rows.append(line.rstrip("\n").split("\t"))
    return rows


@cache
def load_json(name: str, directory: str | None = None) -> Any:
    """Parse a JSON data file once; callers must treat the result as read-only."""
    with open(data_path(name, directory), encoding="utf-8") as fh:
        return json.load(fh)


#: numpy reads every .npy header with ast.literal_eval, and CPython 3.11 keeps the AST converter's
#: recursion counter per interpreter, not per thread: two threads parsing at once can fail with
#: "SystemError: AST constructor recursion depth mismatch" (CPython gh-106905). Array files are read
#: under this lock, and the app loads its models before it serves (app.warm_up), not in a thread.
_ARRAY_LOCK = threading.Lock()


def load_arrays(name: str, directory: str | os.PathLike | None = None) -> dict[str, Any]:
    """Every array of an .npz data file (or the one array of an .npy, under the key "array"), read in full."""
    import numpy as np  # lazily: `import poetry` stays cheap

    with _ARRAY_LOCK:
        loaded = np.load(data_path(name, directory), allow_pickle=False)
        if isinstance(loaded, np.ndarray):
            return {"array": loaded}
        with loaded:
            return {key: loaded[key] for key in loaded.files}
