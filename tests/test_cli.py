"""`python -m poetry`: the check subcommand (text, json, jsonl batch, bad input)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from poetry import cli

ROOT = Path(__file__).resolve().parent.parent
DENG_GAO = (
    "風急天高猿嘯哀，渚清沙白鳥飛回。無邊落木蕭蕭下，不盡長江滾滾來。"
    "萬里悲秋常作客，百年多病獨登臺。艱難苦恨繁霜鬢，潦倒新停濁酒杯。"
)


def run(argv, stdin_text, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin_text))
    code = cli.main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_check_parser():
    args = cli.get_parser().parse_args(["check", "poem.txt", "--format", "jsonl"])
    assert args.file == "poem.txt" and args.format == "jsonl" and args.rhyme_book == "pingshui"


def test_check_text_shows_marks_under_each_line(monkeypatch, capsys):
    code, out, _ = run(["check"], DENG_GAO, monkeypatch, capsys)
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("七言律詩") and "合律" in lines[0]
    assert lines[1] == "風急天高猿嘯哀" and lines[2] == "◎●◎〇◎●□"


def test_check_text_lists_faults_in_chinese(monkeypatch, capsys):
    code, out, _ = run(["check", "-"], DENG_GAO.replace("悲秋", "悲月"), monkeypatch, capsys)
    assert code == 0
    assert "不合之處" in out and "第五句第四字『月』應平而仄" in out


def test_check_json_is_the_whole_report(monkeypatch, capsys, tmp_path):
    poem = tmp_path / "poem.txt"
    poem.write_text("《登鸛雀樓》\n白日依山盡，黃河入海流。欲窮千里目，更上一層樓。", encoding="utf-8")
    code, out, _ = run(["check", str(poem), "--format", "json"], "", monkeypatch, capsys)
    report = json.loads(out)
    assert code == 0
    assert report["title"] == "登鸛雀樓" and report["form"] == "五言絕句" and report["regulated"] is True
    assert len(report["lines"]) == 4 and report["lines"][1]["chars"][4]["status"] == "rhyme"


def test_check_jsonl_batch_goes_on_past_bad_lines(monkeypatch, capsys):
    batch = "\n".join(
        [
            json.dumps({"id": "a", "title": "登高", "text": DENG_GAO}, ensure_ascii=False),
            json.dumps({"id": "b", "title": "空", "text": ""}),
            "not json",
            json.dumps({"id": "c", "title": "靜夜思", "text": "床前明月光，疑是地上霜。舉頭望明月，低頭思故鄉。"},
                       ensure_ascii=False),
            json.dumps({"id": 4, "text": DENG_GAO.replace("悲秋", "悲月")}, ensure_ascii=False),
        ]
    )
    code, out, _ = run(["check", "--format", "jsonl"], batch, monkeypatch, capsys)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(rows) == 5
    assert rows[0] == {"id": "a", "form": "七言律詩", "regulated": True, "violations": []}
    assert rows[1]["id"] == "b" and "error" in rows[1]
    assert rows[2]["id"] is None and "error" in rows[2]
    # a 近體 shape that reads as a 古絕 keeps its faults at their places (issue 9)
    assert rows[3]["form"] == "五言絕句" and rows[3]["regulated"] is False and rows[3]["violations"]
    assert rows[4]["id"] == 4 and {"line": 5, "pos": 4, "kind": "tone", "severity": "error"} in rows[4]["violations"]


def test_check_jsonl_reads_a_line_as_json_loads_does():
    # the batch reads a bare {...} line with the JSON scanner alone: padding, trailing data, a half
    # object and a list must come out as json.loads reads (or refuses) them
    from poetry.checker import check_jsonl_lines

    line = json.dumps({"id": 7, "text": DENG_GAO}, ensure_ascii=False)
    good = check_jsonl_lines([line])
    assert json.loads(good[0])["regulated"] is True
    assert check_jsonl_lines([f"  {line}\t"]) == good
    refused = [json.loads(out) for out in check_jsonl_lines([line + "}", line[:-1], line[:20] + "}", "[1]"])]
    assert refused == [{"id": None, "error": "此行不是 JSON 物件。"}] * 4


def test_check_jsonl_in_two_processes_keeps_the_order():
    from poetry.checker import run_jsonl

    raw = [json.dumps({"id": i, "text": DENG_GAO if i % 3 else "床前明月光，疑是地上霜。舉頭望明月，低頭思故鄉。"},
                      ensure_ascii=False) for i in range(40)]
    out: list[str] = []
    run_jsonl(raw, "pingshui", out.append, workers=2)
    rows = [json.loads(line) for line in "".join(out).splitlines()]
    assert [r["id"] for r in rows] == list(range(40))
    assert [r["regulated"] for r in rows] == [bool(i % 3) for i in range(40)]


@pytest.mark.parametrize("text", ["", "abc", "床前明月光"])
def test_check_bad_input_exits_2_with_a_chinese_message(text, monkeypatch, capsys):
    code, out, err = run(["check"], text, monkeypatch, capsys)
    assert code == 2 and out == ""
    assert err.startswith("錯誤：")


def test_check_missing_file_exits_2(monkeypatch, capsys, tmp_path):
    code, _, err = run(["check", str(tmp_path / "none.txt")], "", monkeypatch, capsys)
    assert code == 2 and "無法讀取" in err


def test_check_runs_as_a_module():
    proc = subprocess.run(
        [sys.executable, "-m", "poetry", "check", "--format", "jsonl"],
        input=json.dumps({"id": 1, "text": DENG_GAO}, ensure_ascii=False) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["regulated"] is True


def test_check_jsonl_refuses_an_overlong_poem_like_the_single_check(monkeypatch, capsys):
    batch = json.dumps({"id": "long", "text": DENG_GAO * 40}, ensure_ascii=False)
    code, out, _ = run(["check", "--format", "jsonl"], batch, monkeypatch, capsys)
    row = json.loads(out)
    assert code == 0 and row["id"] == "long" and "2000" in row["error"].replace(",", "")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_counts_on_a_terminal_and_stays_silent_in_a_pipe():
    ticks = iter(range(100))
    shown = _Terminal()
    progress = cli.Progress(3, "已評", stream=shown, clock=lambda: next(ticks))
    for _ in range(3):
        progress.step()
    progress.close()
    lines = shown.getvalue().split("\r")
    assert "已評 1／3 首（33%）" in lines[1] and "已評 3／3 首（100%），約 0 秒完成" in lines[-1]
    assert shown.getvalue().endswith("\n")
    piped = io.StringIO()
    quiet = cli.Progress(3, "已評", stream=piped)
    quiet.step()
    quiet.close()
    assert piped.getvalue() == ""


def test_grade_jsonl_output_is_clean_when_stderr_is_not_a_terminal(monkeypatch, capsys):
    lines = [json.dumps({"id": 1, "title": "靜夜思", "text": "床前明月光，疑是地上霜。舉頭望明月，低頭思故鄉。"}), ""]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines)))
    assert cli.main(["grade", "--format", "jsonl"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["id"] == 1 and captured.err == ""


def test_check_gu_ping_setting(monkeypatch, capsys):
    text = DENG_GAO.replace("不盡長江滾滾來", "平日一聲敗葉來")  # 七言 孤平 by 王力 only
    _, out, _ = run(["check", "--format", "json"], text, monkeypatch, capsys)
    assert not json.loads(out)["regulated"]
    _, out, _ = run(["check", "--format", "json", "--gu-ping", "lenient"], text, monkeypatch, capsys)
    assert json.loads(out)["regulated"]
    line = json.dumps({"id": 1, "text": text}, ensure_ascii=False)
    _, out, _ = run(["check", "--format", "jsonl", "--gu-ping", "lenient"], line, monkeypatch, capsys)
    assert json.loads(out)["regulated"]


def test_check_jsonl_in_three_processes_and_a_failed_child_keep_every_line(monkeypatch):
    """The shares are checked by forked children; a child that fails has its share checked by the parent."""
    import os

    from poetry.checker import batch, run_jsonl

    raw = [json.dumps({"id": i, "text": DENG_GAO}, ensure_ascii=False) for i in range(31)]
    out: list[str] = []
    run_jsonl(raw, "pingshui", out.append, workers=3)
    assert [json.loads(x)["id"] for x in "".join(out).splitlines()] == list(range(31))

    parent, real = os.getpid(), batch.check_jsonl_lines

    def failing_in_children(*args):
        if os.getpid() != parent:
            raise RuntimeError("a worker fails")
        return real(*args)

    monkeypatch.setattr(batch, "check_jsonl_lines", failing_in_children)
    out = []
    run_jsonl(raw, "pingshui", out.append, workers=2)
    rows = [json.loads(x) for x in "".join(out).splitlines()]
    assert [r["id"] for r in rows] == list(range(31)) and all(r["regulated"] for r in rows)
