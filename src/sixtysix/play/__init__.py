"""Playing hands and matches: between bots (:mod:`~sixtysix.play.runner`), between a person and
the computer (:mod:`~sixtysix.play.session`), the chess clock, and where the user's files are kept."""
