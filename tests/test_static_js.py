"""The page scripts in static/: native ES modules that parse, whose imports name real exports, and whose
Han ranges are poetry/text.py's (no build step checks them otherwise)."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from poetry.text import HAN_RANGES

STATIC = Path(__file__).resolve().parent.parent / "static"
MODULES = sorted(STATIC.rglob("*.js"))
IMPORT_RE = re.compile(r'^import \{([^}]*)\} from "(\.{1,2}/[^"]+)";', re.MULTILINE)
EXPORT_RE = re.compile(r"^export (?:async )?(?:function|const|let|class) ([\w$]+)", re.MULTILINE)


@pytest.mark.skipif(not shutil.which("node"), reason="node is not installed")
@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(STATIC)))
def test_module_parses(path):
    done = subprocess.run(["node", "--experimental-default-type=module", "--check", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(STATIC)))
def test_imports_name_exports(path):
    for names, source in IMPORT_RE.findall(path.read_text(encoding="utf-8")):
        target = (path.parent / source).resolve()
        assert target.is_file(), f"{path.name} imports missing {source}"
        exported = set(EXPORT_RE.findall(target.read_text(encoding="utf-8")))
        wanted = {name.strip() for name in names.split(",") if name.strip()}
        assert wanted <= exported, f"{path.name}: {sorted(wanted - exported)} not exported by {source}"


def test_han_ranges_match_poetry_text():
    common = (STATIC / "common.js").read_text(encoding="utf-8")
    pattern = re.search(r"export const HAN = /\[(.*?)〇□\]/u;", common).group(1)
    ranges = tuple((int(lo, 16), int(hi, 16))
                   for lo, hi in re.findall(r"\\u\{?([0-9a-fA-F]+)\}?-\\u\{?([0-9a-fA-F]+)\}?", pattern))
    assert ranges == HAN_RANGES
