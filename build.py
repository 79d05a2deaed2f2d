#!/usr/bin/env python3
"""Build, serve and test Chunk Inspector's static site (the build itself is sitebuild/).

python build.py [build]            write the complete static site to dist/
python build.py serve [--port N]   build, then serve dist/ on 127.0.0.1
python build.py test [ARGS...]     install test tools, build, lint, run pytest ARGS
python build.py mutate [NAME...]   plant each known bug in a copy of chunker_py and show
                                   that the core tests fail (not part of `test`)
python build.py mutate --sample N [--seed S]
                                   the same with N one-token bugs at sites drawn from the
                                   code (seeded); lists the survivors
"""

from __future__ import annotations

import argparse
import sys

from sitebuild.devtest import test
from sitebuild.mutate import mutate
from sitebuild.serve import serve
from sitebuild.site import build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("build", help="write dist/ (the default)")
    serve_parser = commands.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    serve_parser.add_argument("--port", type=int, default=8000)
    commands.add_parser("test", help="install test tools, build, lint and run pytest")
    mutate_parser = commands.add_parser("mutate", help="show that planted bugs fail the tests")
    mutate_parser.add_argument("names", nargs="*", help="run only mutants whose name has this")
    mutate_parser.add_argument(
        "--sample", type=int, default=0, metavar="N", help="N mutants at sites drawn from the code"
    )
    mutate_parser.add_argument("--seed", type=int, default=0, help="the draw's seed (default 0)")
    args, rest = parser.parse_known_args(argv)
    if args.command == "test":
        return test(rest)
    if args.command == "mutate" and not rest:
        return mutate(args.names, args.sample, args.seed)
    if rest:
        parser.error("unrecognized arguments: " + " ".join(rest))
    if args.command == "serve":
        serve(args.port)
        return 0
    build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
