"""Showing the game to people and clients: text and its styles, explanations of results, the JSON
a client may see, card pictures, reviews of a record and the guided lessons."""
