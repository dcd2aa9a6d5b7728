"""Batch mode (``python -m poetry check --format jsonl``): one JSON verdict line per input line.

    >>> check_jsonl_lines(['{"id": 1, "text": "白日依山盡，黃河入海流。欲窮千里目，更上一層樓。"}'])
    ['{"id": 1, "form": "五言絕句", "regulated": true, "violations": []}']
"""

from __future__ import annotations

import json
from typing import Any

from poetry.checker.analysis import Analysis
from poetry.checker.check import brief_analysis, lone_ping_rule
from poetry.checker.reading import word_chars
from poetry.checker.tables import resolve_book, table_for
from poetry.errors import PoetryError
from poetry.forms import declared_form

#: Inputs of at least this many lines are checked by two processes.
_PARALLEL_FROM = 6000
#: Lines handed to a worker at a time.
_CHUNK = 1500


def check_jsonl_lines(raw_lines: list[str], rhyme_book: Any = "pingshui", form: str | None = None,
                      lone_ping: str | None = None) -> list[str]:
    """Batch mode: each input line {"id","title","text"[, "form"]} → one JSON output line
    {"id","form","regulated","violations":[{"line","pos","kind","severity"}]}, or {"id","error"}; a line's
    "form" (else ``form``) is the declared form, judged as declared."""
    dumps = json.dumps
    table = table_for(resolve_book(rhyme_book))
    lone = lone_ping_rule(lone_ping)
    out = []
    for raw in raw_lines:
        if not raw.strip():
            continue
        ident = None
        try:
            item = json.loads(raw)
            if not isinstance(item, dict):
                raise ValueError
            ident = item.get("id")
            text = item.get("text")
            if not isinstance(text, str):
                out.append(dumps({"id": ident, "error": "缺少 text 欄位（詩文字串）。"}, ensure_ascii=False))
                continue
            verdict = brief_analysis(text, table, declared_form(item.get("form", form)), lone)
        except PoetryError as exc:
            out.append(dumps({"id": ident, "error": exc.message}, ensure_ascii=False))
            continue
        except ValueError:
            out.append(dumps({"id": ident, "error": "此行不是 JSON 物件。"}, ensure_ascii=False))
            continue
        out.append(_verdict_line(ident, verdict))
    return out


def _verdict_line(ident: Any, a: Analysis) -> str:
    """The verdict as a JSON line (check_lines_brief's fields), written by hand: every field but the id
    is a known plain string, int or bool, so this is what json.dumps would write, faster."""
    found = ", ".join(
        f'{{"line": {f.line}, "pos": {f.pos}, "kind": "{f.kind}", "severity": "{f.severity}"}}' for f in a.findings
    )
    regulated = "true" if a.regulated else "false"
    # an int id (most batches) is written as json.dumps writes it, without its encoder
    ident = ident if type(ident) is int else json.dumps(ident, ensure_ascii=False)
    return (
        f'{{"id": {ident}, "form": "{a.form}", '
        f'"regulated": {regulated}, "violations": [{found}]}}'
    )


def _jsonl_worker(args: tuple[list[str], str, str | None, str | None]) -> list[str]:
    return check_jsonl_lines(*args)


def run_jsonl(raw_lines: list[str], rhyme_book: str, write, workers: int | None = None,
              form: str | None = None, lone_ping: str | None = None) -> None:
    """Check a batch, writing output lines in input order; large batches use two processes."""
    import os

    book = resolve_book(rhyme_book)
    if workers is None:
        workers = min(2, os.cpu_count() or 1) if len(raw_lines) >= _PARALLEL_FROM else 1
    if workers <= 1:
        for line in check_jsonl_lines(raw_lines, book, form, lone_ping):
            write(line + "\n")
        return
    import multiprocessing

    # Look every char up once before forking, so the workers share one warm table.
    table = table_for(book)
    for char in set("".join(raw_lines)):
        if char >= "\u3400":
            table.entry(char)
    word_chars(table)  # and the words that fix a 多音字's reading
    chunks = [(raw_lines[k : k + _CHUNK], book.name, form, lone_ping) for k in range(0, len(raw_lines), _CHUNK)]
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(workers) as pool:
        for lines in pool.imap(_jsonl_worker, chunks):
            write("\n".join(lines) + ("\n" if lines else ""))
