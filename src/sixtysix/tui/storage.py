"""Where the terminal game keeps its files: records, settings, statistics.

Everything lives in the user's data directory (:func:`data_dir`, from
platformdirs), or in the directory named by the environment variable
``SIXTYSIX_DATA_DIR`` (tests and portable set-ups use it). Game records are
ordinary ``sixtysix/1`` JSON files in its ``records`` folder, one per match,
written whole and renamed so that an interrupted write never leaves half a
record.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import asdict, dataclass, fields
from datetime import datetime
from pathlib import Path

from sixtysix.errors import InvalidRecordError
from sixtysix.game.record import MatchRecord, MatchReplay, Record, dumps, load, replay
from sixtysix.i18n import LANGUAGES, _, ngettext
from sixtysix.play.userdata import DATA_DIR_ENV, data_dir

__all__ = [
    "DATA_DIR_ENV",
    "LEVELS",
    "PRESETS",
    "SPEEDS",
    "RecordInfo",
    "Resumable",
    "Settings",
    "data_dir",
    "export_record",
    "find_resumable",
    "latest_unfinished",
    "list_records",
    "resumable",
    "load_settings",
    "new_record_path",
    "save_settings",
    "write_record",
]

#: Opponent levels offered in the settings (names of :func:`sixtysix.bots.make_bot`).
LEVELS = ("random", "easy", "medium", "hard", "expert")
#: Rule presets offered in the settings.
PRESETS = ("classic", "pagat", "santase", "schnapsen", "course")
#: Animation speeds: seconds between the computer's actions on the screen.
SPEEDS: dict[str, float] = {"off": 0.0, "fast": 0.25, "normal": 0.6, "slow": 1.2}


def records_dir() -> Path:
    path = data_dir() / "records"
    path.mkdir(parents=True, exist_ok=True)
    return path


# Settings ---------------------------------------------------------------------------

@dataclass
class Settings:
    """The player's choices, kept between sessions in ``settings.json``."""

    level: str = "medium"
    preset: str = "classic"
    #: Running scores hidden, as in the real game (R11.3).
    memory: bool = False
    #: The program declares 66 for both players (beginners).
    auto_declare: bool = False
    speed: str = "normal"
    #: Taking actions back against the computer (marked in the record).
    undo: bool = False
    name: str = "Human"
    #: The game's language (``en``, ``de``, ``bg``, ``hu``), or ``system`` for the system's
    #: locale; ``play --lang`` overrides it. It applies when the game starts.
    language: str = "system"
    #: Ask before an action that cannot be taken back: closing, declaring under 66, leaving
    #: a hand in play (on by default, as the browser's game has it).
    confirm: bool = True

    def check(self) -> Settings:
        """``self`` with any unknown value replaced by its default (a hand-edited file)."""
        default = Settings()
        if self.level not in LEVELS:
            self.level = default.level
        if self.preset not in PRESETS:
            self.preset = default.preset
        if self.speed not in SPEEDS:
            self.speed = default.speed
        for name in ("memory", "auto_declare", "undo", "confirm"):
            if not isinstance(getattr(self, name), bool):
                setattr(self, name, getattr(default, name))
        if not isinstance(self.name, str) or not self.name.strip():
            self.name = default.name
        if self.language != "system" and self.language not in LANGUAGES:
            self.language = default.language
        return self

    @property
    def rules_text(self) -> str:
        """The rules as :meth:`sixtysix.rules.Rules.parse` reads them."""
        return f"{self.preset},auto_declare=true" if self.auto_declare else self.preset

    @property
    def delay(self) -> float:
        return SPEEDS[self.speed]


def load_settings() -> Settings:
    """The saved settings, or the defaults when there are none or the file is unreadable."""
    path = data_dir() / "settings.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Settings()
    if not isinstance(raw, dict):
        return Settings()
    known = {f.name for f in fields(Settings)}
    return Settings(**{k: v for k, v in raw.items() if k in known}).check()


def save_settings(settings: Settings) -> None:
    _write_text(data_dir() / "settings.json", json.dumps(asdict(settings), indent=2) + "\n")


# Records ------------------------------------------------------------------------------

def new_record_path(now: datetime | None = None, seed: int | None = None) -> Path:
    """A fresh file name for a match starting ``now``: ``2026-01-31-142501-seed123.json``."""
    now = now or datetime.now()
    stem = now.strftime("%Y-%m-%d-%H%M%S")
    if seed is not None:
        stem += f"-seed{seed}"
    folder = records_dir()
    path = folder / f"{stem}.json"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}.json"
        n += 1
    return path


def write_record(path: Path, record: Record) -> None:
    """Write ``record`` to ``path`` whole (a temporary file, then a rename)."""
    _write_text(path, dumps(record, indent=1) + "\n")


def _write_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


@dataclass(frozen=True)
class RecordInfo:
    """One saved record, as listed on the records screen."""

    path: Path
    #: ``None`` when the file cannot be read as a record; ``error`` then says why.
    record: Record | None
    error: str = ""

    @property
    def title(self) -> str:
        return self.path.stem

    def summary(self) -> str:
        """Players, rules, how far the match went and the score, in a few words."""
        record = self.record
        if record is None:
            return _("unreadable: {problem}").format(problem=self.error)
        players = record.extra.get("players")
        names = [str(p) for p in players] if isinstance(players, list) and len(players) == 2 \
            else [_("player 0"), _("player 1")]
        try:
            result = replay(record)
        except InvalidRecordError as exc:
            return _("invalid: {problem}").format(problem=exc)
        if isinstance(result, MatchReplay):
            hands = len(result.hands)
            a, b = result.score
            state = _("won") if result.finished else _("unfinished")
            text = ngettext("{first} {a}, {second} {b} ({state}); {n} hand, {rules}",
                            "{first} {a}, {second} {b} ({state}); {n} hands, {rules}", hands).format(
                first=names[0], a=a, second=names[1], b=b, state=state, n=hands, rules=record.rules)
        else:
            text = _("{first} v {second}: one hand, {rules}").format(first=names[0], second=names[1],
                                                                     rules=record.rules)
        if record.extra.get("undo"):
            text = _("{summary}, with undo").format(summary=text)
        return text


def list_records() -> list[RecordInfo]:
    """Every ``.json`` file in the records folder, newest first."""
    out: list[RecordInfo] = []
    for path in sorted(records_dir().glob("*.json"), reverse=True):
        try:
            out.append(RecordInfo(path, load(str(path))))
        except (OSError, InvalidRecordError, ValueError) as exc:
            out.append(RecordInfo(path, None, str(exc)))
    return out


_COMPUTER = re.compile(r"computer \((?P<level>[^()]+)\)")


@dataclass(frozen=True)
class Resumable:
    """An unfinished match against the computer that the game can continue: its record
    file, and who played it (as the game writes its ``players``: the person's name, and
    ``computer (LEVEL)``)."""

    path: Path
    record: MatchRecord
    human_seat: int
    name: str
    level: str

    def summary(self) -> str:
        """``You 3, computer 2, playing hand 5 (medium, classic)``, for the Continue entry."""
        played = replay(self.record)
        score = played.score if isinstance(played, MatchReplay) else (0, 0)
        me = self.human_seat
        # The record's last hand is the one in play (an unfinished match stops in a hand).
        return _("You {you}, computer {them}, playing hand {n} ({level}, {rules})").format(
            you=score[me], them=score[1 - me], n=len(self.record.hands), level=self.level,
            rules=self.record.rules)


def resumable(info: RecordInfo) -> Resumable | None:
    """``info`` as a match to continue, or ``None`` (unreadable, one hand, finished, or
    not the game's own record of a match against the computer)."""
    record = info.record
    if not isinstance(record, MatchRecord):
        return None
    players = record.extra.get("players")
    if not isinstance(players, list) or len(players) != 2:
        return None
    computer = [i for i, p in enumerate(players) if isinstance(p, str) and _COMPUTER.fullmatch(p)]
    if len(computer) != 1:
        return None
    try:
        played = replay(record)
    except InvalidRecordError:
        return None
    if not isinstance(played, MatchReplay) or played.finished:
        return None
    seat = 1 - computer[0]
    found = _COMPUTER.fullmatch(players[computer[0]])
    assert found is not None
    return Resumable(info.path, record, seat, str(players[seat]), found["level"])


def latest_unfinished() -> Resumable | None:
    """The newest saved match that can be continued, or ``None``."""
    for info in list_records():
        found = resumable(info)
        if found is not None:
            return found
    return None


def find_resumable(target: str) -> Resumable:
    """The match ``play --resume`` continues: the record file ``target``, or with an empty
    ``target`` the newest unfinished match of the records folder. Raises :class:`ValueError`
    (a sentence for the player) when there is none, or :class:`OSError` for a file that
    cannot be read."""
    if not target:
        found = latest_unfinished()
        if found is None:
            raise ValueError(_("there is no unfinished match to continue in {folder}").format(
                folder=records_dir()))
        return found
    path = Path(target).expanduser()
    try:
        record = load(str(path))
    except InvalidRecordError as exc:
        raise ValueError(_("{file} is not a game record: {problem}").format(
            file=target, problem=exc)) from None
    found = resumable(RecordInfo(path, record))
    if found is None:
        raise ValueError(_("{file} holds no unfinished match against the computer to continue").format(
            file=target))
    return found


_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def export_record(source: Path, target: str | os.PathLike[str]) -> Path:
    """Copy a saved record to ``target`` (a file, or a directory to put it in).

    Raises :class:`OSError` with the reason when it cannot be written.
    """
    dest = Path(target).expanduser()
    if dest.is_dir():
        dest = dest / _SAFE.sub("-", source.name)
    if dest.exists() and dest.resolve() == source.resolve():
        raise OSError(f"{dest} is the record itself")
    shutil.copyfile(source, dest)
    return dest

