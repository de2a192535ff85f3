"""What a new release must pass before it may run the table: none of it needs hardware."""

from __future__ import annotations

from pathlib import Path


def check_commands(program: Path, config: Path) -> list[tuple[list[str], str]]:
    """What the new release must pass before it may run the table, none needing hardware."""
    from rules.registry import game_names

    game = game_names()[0]  # any game: the check is that one plays to its end
    checks = [
        (
            [
                str(program.with_name("python")),
                "-I",
                "-c",
                "import controller.app, controller.cli, rules.build_info as b; "
                "print(b.describe_build())",
            ],
            "the new release does not import",
        ),
        (
            [
                str(program),
                "sim",
                "--display",
                "text",
                "--game",
                game,
                "--seats",
                "bot,bot",
                "--seed",
                "1",
                "--delay",
                "0",
            ],
            "the new release fails its self-test (a bot game on the text board)",
        ),
    ]
    if config.is_file():
        checks.append(
            (
                [str(program), "config", "check", str(config)],
                "the new release refuses this table's config",
            )
        )
    return checks
