"""Print the ``pi`` extra's requirements from a ``pyproject.toml``, one per line
(``--extra NAME``: another extra's, such as ``fast``).

The installer installs them one at a time (each optional), and the VM run fetches their
sources for a guest of another architecture; both read the list here, so the project
file stays the one place it is written. ``--bare`` drops the environment markers, for
``pip download`` of a source that is meant for another machine than this one.
"""

import sys
import tomllib


def main(argv: list[str]) -> int:
    bare = "--bare" in argv
    args = [arg for arg in argv if arg != "--bare"]
    name = "pi"
    if len(args) == 3 and args[0] == "--extra":
        name, args = args[1], args[2:]
    if len(args) != 1 or args[0].startswith("--"):
        print("usage: pi_extra.py [--bare] [--extra NAME] PYPROJECT", file=sys.stderr)
        return 2
    try:
        with open(args[0], "rb") as handle:
            extra = tomllib.load(handle)["project"]["optional-dependencies"][name]
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError) as err:
        print(f"pi_extra.py: {args[0]}: no {name} extra ({err})", file=sys.stderr)
        return 1
    for requirement in extra:
        print(requirement.split(";")[0].strip() if bare else requirement)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
