"""The ``uno-bot`` command line (the composition root)."""

from __future__ import annotations

import argparse
import sys

from bot import __version__


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="uno-bot", description="UNO for group chats: Discord, Telegram and the terminal."
    )
    ap.add_argument("--version", action="version", version=f"uno-bot {__version__}")
    sub = ap.add_subparsers(dest="command")
    sub.add_parser("run", help="start every configured platform (the default)")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command in (None, "run"):
        print(f"uno-bot {__version__}: the table service is not built yet; see README.md")
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
