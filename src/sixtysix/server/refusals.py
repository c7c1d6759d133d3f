"""Every refusal the server gives, in one table: the code a program reads, the sentence a
person reads and the HTTP status.

A sentence has named blanks (``{n}``, ``{level}``) that the refusal's arguments fill; it
is marked for the message catalogs, so that a page shows it in its reader's language
from the code's sentence and the arguments the refusal carries (never the English words
the server sends beside them). Arguments a page shows in a form of its own: ``card``,
``partner`` and ``needed`` are cards (``QH``, shown as on the card), ``game`` a game's id
(the page links the sentence to the game), ``level`` a computer level, ``minutes`` and
``seconds`` numbers. A game rule's refusal is the kernel's
(:mod:`sixtysix.game.refusal`), not one of these.

>>> Reason.NO_GAME.code, Reason.NO_GAME.status
('no_game', 404)
>>> Reason.NO_HAND.sentence.format(number=4, hands=2)
'There is no hand 4: the game has 2.'
"""

from __future__ import annotations

from enum import Enum

from sixtysix.i18n import N_

__all__ = ["Reason"]


class Reason(Enum):
    """A refusal of the server: its code, its HTTP status and its sentence (with blanks). Two
    refusals of one kind share a code and differ in their sentences."""

    def __init__(self, code: str, status: int, sentence: str) -> None:
        self.code = code
        self.sentence = sentence
        self.status = status

    # Finding games and players.
    NO_GAME = ("no_game", 404,
               N_("There is no such game."))
    NO_PLAYER = ("no_player", 404,
                 N_("No player has that name."))
    NO_HAND = ("no_hand", 404,
               N_("There is no hand {number}: the game has {hands}."))
    NOT_FINISHED = ("not_finished", 409,
                    N_("The game is not finished: its record is given out when it is."))
    NO_TOURNAMENT = ("no_tournament", 404,
                     N_("There is no such tournament."))
    # Puzzles.
    NO_PUZZLE = ("no_puzzle", 404,
                 N_("There is no such puzzle."))
    NO_THEME = ("no_theme", 400,
                N_("There is no such puzzle theme."))
    NO_PUZZLE_LEFT = ("no_puzzle_left", 404,
                      N_("You have tried every puzzle of this theme."))
    PUZZLE_NOT_AN_ACTION = ("bad_action", 400,
                            N_("That is not an action of the notation."))
    PUZZLE_ILLEGAL = ("illegal", 400,
                      N_("That action cannot be taken in this puzzle."))
    BAD_GUEST = ("bad_guest", 400,
                 N_("A guest's key has 16 to 64 letters, digits, _ or -."))
    PUZZLE_ATTEMPTS = ("too_many_attempts", 429,
                       N_("Too many puzzle attempts from this address: wait a little."))
    # Seats, accounts and challenges.
    NO_SEAT = ("no_seat", 409,
               N_("This game has no free seat: you can watch it."))
    NOT_INVITED = ("not_invited", 403,
                   N_("This game is a challenge to another player."))
    NOT_YOUR_CHALLENGE = ("not_invited", 403,
                          N_("This challenge is not yours to answer."))
    NO_CHALLENGE = ("no_challenge", 409,
                    N_("There is no challenge waiting in this game."))
    RATED_SEAT_NEEDS_ACCOUNT = ("needs_account", 403,
                                N_("A rated game needs an account: log in to take the seat."))
    RATED_NEEDS_ACCOUNT = ("needs_account", 403,
                           N_("A rated game needs an account: log in first."))
    CHALLENGE_NEEDS_ACCOUNT = ("needs_account", 403,
                               N_("A challenge needs an account: log in first."))
    TOURNAMENT_NEEDS_ACCOUNT = ("needs_account", 403,
                                N_("Log in to take part in tournaments."))
    ANSWER_NEEDS_LOGIN = ("not_logged_in", 401,
                          N_("Log in to answer a challenge."))
    CHALLENGES_NEED_LOGIN = ("not_logged_in", 401,
                             N_("Log in to see your challenges."))
    PLAY_YOURSELF = ("same_player", 409,
                     N_("You cannot play yourself in a rated game."))
    CHALLENGE_YOURSELF = ("same_player", 409,
                          N_("You cannot challenge yourself."))
    CHALLENGE_PEOPLE = ("bad_kind", 400,
                        N_("A challenge is a game between people."))
    BAD_KIND = ("bad_kind", 400,
                N_("The kind of game must be one of: {kinds}."))
    BAD_TOKEN = ("bad_token", 403,
                 N_("This link holds no seat in this game."))
    # Making a game.
    BAD_CLOCK_TEXT = ("bad_clock", 400,
                      N_("A clock is written as 5+3 (minutes and seconds a move) or 20/move."))
    BAD_CLOCK = ("bad_clock", 400,
                 N_("This clock cannot be read: {problem}"))
    SHORT_CLOCK = ("bad_clock", 400,
                   N_("A clock gives at least one second."))
    BAD_RULES_TEXT = ("bad_rules", 400,
                      N_("Rules are written as a preset's name, such as classic or santase,target=11."))
    BAD_RULES = ("bad_rules", 400,
                 N_("These rules cannot be read: {problem}"))
    BAD_TARGET = ("bad_rules", 400,
                  N_("The target must be a whole number from 1 to 100."))
    BAD_LEVEL = ("bad_level", 400,
                 N_("There is no computer level {level}: the levels are {levels}."))
    TAKEBACK_COMPUTER_ONLY = ("bad_takeback", 400,
                              N_("Takebacks are only for games against the computer."))
    TAKEBACK_CLOCK = ("bad_takeback", 400,
                      N_("A game with a clock takes no takebacks."))
    TAKEBACK_RATED = ("bad_takeback", 400,
                      N_("A rated game takes no takebacks."))
    NOT_RATED = ("not_rated", 400,
                 N_("This server rates no games."))
    RATED_PRESET = ("bad_rated", 400,
                    N_("A rated game is played under a preset's own rules (only the target may differ)."))
    LEVEL_UNRATED = ("bad_rated", 400,
                     N_("The computer level {level} has no rating yet: the rated levels are {levels}."))
    STARTING = ("starting", 503,
                N_("The server is starting: try again in a moment."))
    STOPPING = ("stopping", 503,
                N_("The server is stopping: ask again."))
    LEVEL_NOT_OFFERED = ("no_opponent", 409,
                         N_("The computer opponent {level} is not offered by this server now: the game goes "
                            "on when it is again."))
    NO_OPPONENT = ("no_opponent", 409,
                   N_("Nobody came, and no computer level has a rating to pair with."))
    # Limits (sixtysix.server.fairplay).
    NEW_GAMES_ADDRESS = ("rate_limited", 429,
                         N_("Too many new games from your address: wait a little."))
    NEW_GAMES_ACCOUNT = ("rate_limited", 429,
                         N_("Too many new games for your account: wait a little."))
    UNFINISHED_ADDRESS = ("too_many_games", 429,
                          N_("Your address has {n} unfinished games: finish or abandon one first."))
    UNFINISHED_ACCOUNT = ("too_many_games", 429,
                          N_("You have {n} unfinished games: finish or abandon one first."))
    OPPONENT_BARRED = ("rated_barred", 403,
                       N_("Your opponent is barred from rated play for {minutes} min more: play unrated."))
    BARRED = ("rated_barred", 403,
              N_("You called off too many rated matches: rated play is closed to you for {minutes} min "
                 "more; unrated play is open."))
    RATED_PAIR = ("too_many_rated", 429,
                  N_("You have played {n} rated games with each other today, the most a day: play unrated, "
                     "or someone else."))
    RATED_ADDRESS = ("too_many_rated", 429,
                     N_("{n} rated games were played from your address today, the most a day: play "
                        "unrated."))
    RATED_OPPONENT_ADDRESS = ("too_many_rated", 429,
                              N_("{n} rated games were played from your opponent's address today, the most "
                                 "a day: play unrated."))
    TOO_MANY_SPECTATORS = ("too_many_spectators", 429,
                           N_("This game has as many spectators as it takes ({n}): try again later."))
    TOO_MANY_PAGES = ("too_many_connections", 429,
                      N_("Too many open pages: close one and try again."))
    TOO_MANY_CONNECTIONS = ("too_many_connections", 429,
                            N_("Too many connections from your address: close one and try again."))
    TOO_MANY_MESSAGES = ("rate_limited", 429,
                         N_("Too many messages: slow down."))
    TOO_MANY_ERRORS = ("too_many_errors", 429,
                       N_("Too many refused messages: closing."))
    NEW_CONNECTIONS = ("too_many_connections", 429,
                       N_("Too many new connections from your address: wait a moment and try again."))
    HEAD_TOO_LARGE = ("too_large", 431,
                      N_("The request's head is too large."))
    TOO_SLOW = ("timeout", 408,
                N_("The request took too long to arrive."))
    GONE = ("gone", 499,
            N_("The client went away."))
    # Playing.
    NOT_STARTED = ("not_started", 400,
                   N_("The game has not started: the second player has not joined yet."))
    ABANDONED = ("abandoned", 400,
                 N_("This game was abandoned: nobody moved in it for too long."))
    OVER = ("over", 400,
            N_("The match is over."))
    NOT_PLAYING = ("over", 400,
                   N_("Only a match being played can be resigned."))
    STALE = ("stale", 400,
             N_("The game has moved on: your action came too late."))
    NOT_YOUR_TURN = ("not_your_turn", 400,
                     N_("It is not your turn."))
    TIME = ("time", 400,
            N_("Your time ran out."))
    SPECTATOR = ("spectator", 400,
                 N_("Spectators cannot act."))
    SPECTATOR_HINT = ("spectator", 400,
                      N_("Spectators cannot ask for hints."))
    SAVE_FAILED = ("storage", 503,
                   N_("The server could not save the action; try again."))
    NO_TAKEBACK = ("no_takeback", 400,
                   N_("Takebacks are only for unrated games without a clock."))
    NOTHING_TO_TAKE_BACK = ("nothing_to_take_back", 400,
                            N_("There is nothing of yours to take back in this hand."))
    NOT_OVER = ("not_over", 400,
                N_("A rematch can be asked for only when the match is over."))
    NOT_ABORTABLE = ("not_abortable", 400,
                     N_("A match can be called off only before its first trick is complete."))
    NO_OFFER = ("no_offer", 409,
                N_("There is no offer to answer."))
    NO_HINTS_RATED = ("no_hints", 400,
                      N_("No hints in a rated game."))
    NO_HINTS = ("no_hints", 400,
                N_("Hints are only for games against the computer."))
    HINT_BUSY = ("busy", 400,
                 N_("A hint is being worked out."))
    HINT_FAILED = ("hint_failed", 400,
                   N_("No hint could be worked out."))
    COMPUTER_FAILED = ("computer_failed", 500,
                       N_("The computer could not move: reload the page to let it try again."))
    NO_CHAT = ("no_chat", 400,
               N_("The players' chat is between two people."))
    CHAT_RATE = ("chat_rate_limited", 429,
                 N_("Too many lines of chat: wait a little."))
    # Several server processes.
    MOVED = ("moved", 503,
             N_("The game is moving to another server: reconnecting…"))
    MISDIRECTED = ("misdirected", 503,
                   N_("This game is served by another server process."))
    UNAVAILABLE = ("unavailable", 503,
                   N_("The game's server is not answering: try again in a moment."))
    # The protocol and HTTP (a page of ours sends none of these wrong).
    NOT_FOUND = ("not_found", 404,
                 N_("There is no such page."))
    BAD_REQUEST = ("bad_request", 400,
                   N_("The request cannot be understood: {problem}"))
    NO_HELLO = ("no_hello", 400,
                N_("The first message must be a hello."))
    BAD_MESSAGE = ("bad_message", 400,
                   N_("This message cannot be understood: {problem}"))
    # Tournaments.
    BAD_TOURNAMENT_NAME = ("bad_tournament", 400,
                           N_("A tournament needs a name."))
    BAD_TOURNAMENT_KIND = ("bad_tournament", 400,
                           N_("A tournament is one of: {kinds}."))
    BAD_TOURNAMENT_START = ("bad_tournament", 400,
                            N_("A tournament starts within {n} minutes."))
    BAD_ARENA = ("bad_tournament", 400,
                 N_("An arena lasts 1 to {n} minutes."))
    BAD_TOURNAMENT_LEVEL = ("bad_level", 400,
                            N_("{level} is not a computer level of this server."))
    TOURNAMENT_LEVEL_UNRATED = ("bad_rated", 400,
                                N_("The computer level {level} has no rating for a rated tournament."))
    NEW_TOURNAMENTS = ("rate_limited", 429,
                       N_("Too many new tournaments: wait a little."))
    YOUR_TOURNAMENTS = ("too_many_tournaments", 429,
                        N_("You have {n} tournaments coming or being played: wait until one is over."))
    ADDRESS_TOURNAMENTS = ("too_many_tournaments", 429,
                           N_("Your address has {n} tournaments coming or being played: wait until one is "
                              "over."))
    TOURNAMENT_OVER = ("over", 409,
                       N_("The tournament is over."))
    TOURNAMENT_STARTED = ("started", 409,
                          N_("A round robin takes no entrants once it has started."))
    TOURNAMENT_NOT_RUNNING = ("not_running", 409,
                              N_("The tournament is not being played now."))
    NOT_ENTERED = ("not_entered", 403,
                   N_("Join the tournament first."))
    IN_A_MATCH = ("in_a_match", 409,
                  N_("Finish your match first."))
    ALREADY_WAITING = ("waiting", 409,
                       N_("You are already waiting for a match."))
