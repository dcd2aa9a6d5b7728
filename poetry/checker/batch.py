"""Batch mode (``python -m poetry check --format jsonl``): one JSON verdict line per input line.

    >>> check_jsonl_lines(['{"id": 1, "text": "白日依山盡，黃河入海流。欲窮千里目，更上一層樓。"}'])
    ['{"id": 1, "form": "五言絕句", "regulated": true, "violations": []}']
"""

from __future__ import annotations

import gc
import json
import os
from typing import Any

from poetry.checker.analysis import Analysis
from poetry.checker.check import brief_analysis, lone_ping_rule
from poetry.checker.reading import word_chars
from poetry.checker.report import Kind, LonePing, Severity
from poetry.checker.tables import BookTable, resolve_book, table_for
from poetry.errors import PoetryError
from poetry.forms import declared_form

#: Inputs of at least this many lines are checked by two processes.
_PARALLEL_FROM = 6000
#: The parent's share of a two-process batch. The forked child starts cold (its first writes copy the pages it
#: shares with the parent, its caches fill again), which once made 58% for the warm parent the faster split;
#: re-measured with the collector paused during a batch (scripts/bench_peer.py's 10,000 poems, 8 runs of each
#: share interleaved, twice, load 1.0–1.2), an even split is the fastest: median 0.476 / 0.485 s at 0.58,
#: 0.436 / 0.435 s at 0.50 (0.46: 0.464 s, 0.54: 0.448 / 0.453 s).
SHARE_FRACTION = 0.50


def check_jsonl_lines(raw_lines: list[str], rhyme_book: Any = "pingshui", form: str | None = None,
                      lone_ping: str | None = None) -> list[str]:
    """Batch mode: each input line {"id","title","text"[, "form"]} → one JSON output line
    {"id","form","regulated","violations":[{"line","pos","kind","severity"}]}, or {"id","error"}; a line's
    "form" (else ``form``) is the declared form, judged as declared."""
    table = table_for(resolve_book(rhyme_book))
    lone = lone_ping_rule(lone_ping)
    collecting = gc.isenabled()
    # The checks make no reference cycles, only objects freed by their counts; the collector would walk the
    # tables and memos (tens of thousands of objects, more as the memos fill) again and again for nothing
    gc.disable()
    try:
        return _check_lines(raw_lines, table, form, lone)
    finally:
        if collecting:
            gc.enable()


def _check_lines(raw_lines: list[str], table: BookTable, form: str | None, lone: LonePing) -> list[str]:
    """``check_jsonl_lines`` with the book's table and the 孤平 rule found."""
    dumps = json.dumps
    out = []
    for raw in raw_lines:
        if not raw or raw.isspace():  # a blank line (``not raw.strip()`` without copying the line)
            continue
        ident = None
        try:
            item = _load(raw)
            if not isinstance(item, dict):
                raise ValueError
            ident = item.get("id")
            text = item.get("text")
            if not isinstance(text, str):
                out.append(dumps({"id": ident, "error": "缺少 text 欄位（詩文字串）。"}, ensure_ascii=False))
                continue
            declared = item.get("form", form)
            verdict = brief_analysis(text, table, None if declared is None else declared_form(declared), lone)
        except PoetryError as exc:
            out.append(dumps({"id": ident, "error": exc.message}, ensure_ascii=False))
            continue
        except ValueError:
            out.append(dumps({"id": ident, "error": "此行不是 JSON 物件。"}, ensure_ascii=False))
            continue
        out.append(_verdict_line(ident, verdict))
    return out


#: The C scanner json.loads runs (JSONDecoder.scan_once), called without its Python wrappers.
_SCAN = json.JSONDecoder().scan_once


def _load(raw: str) -> Any:
    """``json.loads(raw)``: a line that is one JSON object with nothing around it (a batch's lines) is read
    by the scanner alone; any other line, and any error, by json.loads itself, so the result and the
    errors are json.loads' own.

    >>> _load('{"id": 1}'), _load(' [1] ')
    ({'id': 1}, [1])
    """
    if raw[:1] == "{" and raw[-1:] == "}":
        try:
            item, end = _SCAN(raw, 0)
        except StopIteration:
            return json.loads(raw)
        if end == len(raw):
            return item
    return json.loads(raw)


#: Each kind's and severity's value as a plain str: an f-string formats a StrEnum member through str.__format__, a
#: plain str as it is.
_TEXT = {member: member.value for member in (*Kind, *Severity)}


def _verdict_line(ident: Any, a: Analysis) -> str:
    """The verdict as a JSON line (check_lines_brief's fields), written by hand: every field but the id
    is a known plain string, int or bool, so this is what json.dumps would write, faster."""
    text = _TEXT
    found = ", ".join([
        f'{{"line": {f.line}, "pos": {f.pos}, "kind": "{text[f.kind]}", "severity": "{text[f.severity]}"}}'
        for f in a.findings
    ]) if a.findings else ""
    regulated = "true" if a.regulated else "false"
    # an int id (most batches) is written as json.dumps writes it, without its encoder
    ident = ident if type(ident) is int else json.dumps(ident, ensure_ascii=False)
    return (
        f'{{"id": {ident}, "form": "{a.form}", '
        f'"regulated": {regulated}, "violations": [{found}]}}'
    )


def run_jsonl(raw_lines: list[str], rhyme_book: str, write, workers: int | None = None,
              form: str | None = None, lone_ping: str | None = None) -> None:
    """Check a batch, writing output lines in input order; large batches use two processes."""
    book = resolve_book(rhyme_book)
    if workers is None:
        workers = min(2, os.cpu_count() or 1) if len(raw_lines) >= _PARALLEL_FROM else 1
    if workers <= 1:
        write(_checked(raw_lines, book, form, lone_ping))
        return
    # The words that fix a 多音字's reading are loaded once, before forking; each process looks its own
    # chars up (a warm-up of every char here would be serial work the two could share)
    word_chars(table_for(book))
    # workers - 1 forked children check the later shares while this process checks the first: no pool,
    # no feeder threads contending for this process's GIL, each share's output sent back in one piece
    first = int(len(raw_lines) * SHARE_FRACTION) if workers == 2 else -(-len(raw_lines) // workers)
    share = -(-(len(raw_lines) - first) // (workers - 1))
    shares = [raw_lines[k : k + share] for k in range(first, len(raw_lines), share)]
    children = [_fork_share(lines, book, form, lone_ping) for lines in shares]
    write(_checked(raw_lines[:first], book, form, lone_ping))
    for (pid, fd), lines in zip(children, shares):
        with os.fdopen(fd, "rb") as pipe:
            out = pipe.read().decode("utf-8")
        _, status = os.waitpid(pid, 0)
        write(out if status == 0 else _checked(lines, book, form, lone_ping))  # a failed child: check it here


def _checked(lines: list[str], book: Any, form: str | None, lone_ping: str | None) -> str:
    """The batch output of ``lines`` as one text, a line each."""
    return "".join(line + "\n" for line in check_jsonl_lines(lines, book, form, lone_ping))


def _fork_share(lines: list[str], book: Any, form: str | None, lone_ping: str | None) -> tuple[int, int]:
    """Fork a child that checks ``lines`` and writes its output lines to a pipe: (its pid, the pipe's read end)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: check, send, leave without running the parent's cleanup
        code = 1
        try:
            os.close(read_end)
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(_checked(lines, book, form, lone_ping).encode("utf-8"))
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, read_end
