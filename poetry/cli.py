"""`python -m poetry`: check, deal, themes and grade from the command line.

Each subcommand reads a file or standard input, calls one function of the package and prints text
or JSON. Errors in the input give a Chinese message on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from poetry.errors import PoetryError
from poetry.forms import DECLARED_FORMS


def _read_input(path: str | None) -> str:
    """Read FILE, or standard input for '-' or no argument."""
    if path in (None, "-"):
        return sys.stdin.read()
    with open(path, encoding="utf-8") as fh:
        return fh.read()


class Progress:
    """「已評 120／500 首（24%），約 2 秒完成」 on a terminal's stderr, redrawn at most five times a second.

    Silent when the stream is not a terminal (a pipe, a file, a test), so batch output stays clean.
    """

    def __init__(self, total: int, verb: str, stream: TextIO | None = None, clock=time.monotonic) -> None:
        self.total, self.verb, self.clock = total, verb, clock
        self.stream = stream if stream is not None else sys.stderr
        self.shown = self.stream.isatty() and total > 0
        self.done, self.start, self.last = 0, clock(), float("-inf")

    def step(self) -> None:
        self.done += 1
        now = self.clock()
        if self.shown and (now - self.last >= 0.2 or self.done == self.total):
            self.last = now
            left = (self.total - self.done) * (now - self.start) / self.done
            self.stream.write(f"\r{self.verb} {self.done:,}／{self.total:,} 首（{self.done / self.total:.0%}），"
                              f"約 {left:.0f} 秒完成 ")
            self.stream.flush()

    def close(self) -> None:
        if self.shown and self.done:
            self.stream.write("\n")
            self.stream.flush()


def get_parser() -> argparse.ArgumentParser:
    """The argument parser, separate from main() so tests can inspect it."""
    parser = argparse.ArgumentParser(prog="python -m poetry", description="詩牌：平仄檢查、發牌、主題、評品")
    sub = parser.add_subparsers(dest="command", required=True)

    # --- check (owner: checker) -------------------------------------------------------------
    check = sub.add_parser("check", help="檢查一首詩的平仄、押韻與格律")
    check.add_argument("file", nargs="?", default="-", help="詩文檔案，- 或省略為標準輸入")
    check.add_argument("--rhyme-book", choices=["pingshui", "xinyun", "tongyun"], default="pingshui")
    check.add_argument("--format", choices=["text", "json", "jsonl"], default="text")
    check.add_argument("--form", choices=list(DECLARED_FORMS), default=None,
                       help="宣告的體裁，依所宣體裁論（jsonl 每行亦可帶 \"form\"）")
    check.add_argument("--gu-ping", choices=["wangli", "lenient"], default="wangli",
                       help="七言孤平的判法：wangli（王力《漢語詩律學》，預設：第一字不論，亦不能救）；"
                            "lenient（第一字平聲亦算）")
    check.set_defaults(handler=_cmd_check)

    # --- deal (owner: tiles) ----------------------------------------------------------------
    deal = sub.add_parser("deal", help="洗牌、數筆畫、發牌")
    deal.add_argument("--seed", type=int, default=None, help="固定種子以重現發牌")
    deal.add_argument("--format", choices=["text", "json"], default="text")
    deal.set_defaults(handler=_cmd_deal)

    # --- themes (owner: themes) -------------------------------------------------------------
    themes = sub.add_parser("themes", help="把一手牌的字歸成題材")
    themes.add_argument("file", nargs="?", default="-")
    themes.add_argument("--format", choices=["text", "json"], default="text")
    themes.set_defaults(handler=_cmd_themes)

    # --- grade (owner: grading) -------------------------------------------------------------
    grade = sub.add_parser("grade", help="評定一首詩的品第")
    grade.add_argument("file", nargs="?", default="-")
    grade.add_argument("--format", choices=["text", "json", "jsonl"], default="text")
    grade.set_defaults(handler=_cmd_grade)
    return parser


def _cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    """Check a poem (text or json), or a batch of {"id","title","text"} lines (jsonl)."""
    from poetry import checker

    text = _read_input(args.file)
    if args.format == "jsonl":
        checker.run_jsonl(text.splitlines(), args.rhyme_book, out.write, form=args.form, lone_ping=args.gu_ping)
        return 0
    result = checker.check_poem(text, rhyme_book=args.rhyme_book, form=args.form, lone_ping=args.gu_ping)
    if args.format == "json":
        import dataclasses
        import json

        out.write(json.dumps(dataclasses.asdict(result), ensure_ascii=False, indent=1) + "\n")
    else:
        out.write(checker.format_report(result))
    return 0


def _cmd_deal(args: argparse.Namespace, out: TextIO) -> int:
    """Shuffle and deal the standard 600 tiles (cryptographic shuffle; --seed N reproduces a deal)."""
    import json
    import random

    from poetry.tiles import deal_round, format_deal

    deal = deal_round(rng=random.Random(args.seed) if args.seed is not None else None)
    if args.format == "json":
        json.dump(deal.to_dict(), out, ensure_ascii=False)
        out.write("\n")
    else:
        out.write(format_deal(deal))
    return 0


def _cmd_themes(args: argparse.Namespace, out: TextIO) -> int:
    """Group a hand's characters (plain text, any separators) into themes: text or JSON."""
    import json

    from poetry.themes import suggest_themes, themes_to_json

    suggestions = suggest_themes(_read_input(args.file))
    if args.format == "json":
        json.dump(themes_to_json(suggestions), out, ensure_ascii=False, indent=1)
        out.write("\n")
        return 0
    for s in suggestions:
        bar = "█" * round(s.score * 10) + "░" * (10 - round(s.score * 10))
        out.write(f"{s.name}　{bar} {s.score:.2f}\n")
        out.write("  字：" + " ".join(f"{c.char}{'〇' if c.tone == '平' else '●' if c.tone == '仄' else '◐'}"
                                     for c in s.chars) + "\n")
        for r in s.rhymes[:3]:
            out.write(f"  韻：{r.group}（{''.join(r.feet)}）\n")
        if s.titles:
            out.write("  題：" + "、".join(f"「{t}」" for t in s.titles) + "\n")
        if s.words:
            out.write("  詞：" + " ".join(s.words) + "\n")
    return 0


def _cmd_grade(args: argparse.Namespace, out: TextIO) -> int:
    """Grade one poem (text, json) or one JSON object per line (jsonl: {"id","title","text"})."""
    import json

    from poetry.grading import grade_poem, grade_to_dict

    source = _read_input(args.file)
    if args.format != "jsonl":
        result = grade_to_dict(grade_poem(source))
        if args.format == "json":
            print(json.dumps(result, ensure_ascii=False, indent=1), file=out)
            return 0
        print(f"{result['grade']}　綜合 {result['score']:.2f}　{result['form'] or ''}", file=out)
        for name, c in result["criteria"].items():
            score = c["score"]
            bar = "—" if score is None else "█" * round(score * 10) + "·" * (10 - round(score * 10))
            print(f"  {name:<5}{bar} {'' if score is None else f'{score:.2f}'}　{c['explanation']}", file=out)
        for reason in result["reasons"]:
            print(f"  理由：{reason}", file=out)
        return 0
    lines = source.splitlines()
    progress = Progress(sum(1 for line in lines if line.strip()), "已評")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        ident = number
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError("每行須是一個 JSON 物件")
            ident = record.get("id", number)
            text, title = record.get("text"), record.get("title")
            if not isinstance(text, str) or not (title is None or isinstance(title, str)):
                raise ValueError("「text」須是字串，「title」須是字串或省略")
            g = grade_to_dict(grade_poem(text, title=title))
            row = {"id": ident, "grade": g["grade"], "score": g["score"], "criteria": g["criteria"]}
        except PoetryError as exc:
            row = {"id": ident, "error": exc.message}
        except ValueError as exc:  # json.JSONDecodeError included
            row = {"id": ident, "error": f"無法讀取：{exc}"}
        print(json.dumps(row, ensure_ascii=False), file=out)
        progress.step()
    progress.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m poetry`; returns the exit status."""
    args = get_parser().parse_args(argv)
    try:
        return args.handler(args, sys.stdout)
    except PoetryError as exc:
        print(f"錯誤：{exc.message}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"錯誤：無法讀取檔案：{exc.filename}", file=sys.stderr)
        return 2
