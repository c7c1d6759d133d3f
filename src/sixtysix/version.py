"""The package's version, in one place: the package metadata reads it from here
(``pyproject.toml``: ``version = {attr = ...}``), and so do ``sixtysix --version`` and
an engine's ``id version`` line (the bot protocol)."""

__version__ = "0.1.0"
