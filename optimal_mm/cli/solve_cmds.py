"""(placeholder: sub-commands are registered here)."""


def register(sub) -> None:
    """Add this module's sub-commands to the parser."""
