"""Player accounts: names, passwords and login sessions in the server's database.

Accounts are optional: a guest plays as before, with a seat token per game. A
player who registers a name and a password gets a session (a cookie) that says
who he is on every request; later the server can tie a game's seat to his
account (:class:`User` has the ``id`` a seat would carry) and show a profile by
name (:meth:`Accounts.user_by_name`).

What is stored (the tables ``users`` and ``sessions``, made here with their own
metadata, next to the games' tables in the same database):

- a user's name as shown, and its key (:func:`name_key`: NFKC, case-folded,
  NFKC again), unique, so that ``Ann``, ``ANN`` and ``Ａｎｎ`` are one name;
- its confusable skeleton (:func:`name_skeleton`, Unicode TS #39), indexed, so that a
  new name that looks like an existing one (Cyrillic ``а`` for Latin ``a``, ``l`` for
  ``I``) is refused by one lookup;
- the password's argon2id hash (argon2-cffi's :class:`~argon2.PasswordHasher`,
  its default parameters; a hash made with older parameters is replaced at the
  next login), never the password. Passwords are normalised to NFC first, so
  that the same password typed on two systems is the same;
- a session per login: the SHA-256 of its token (the cookie holds the token),
  the user, when it was made and when it expires (:data:`SESSION_LIFETIME`).
  The session's CSRF token is not stored: it is derived from the session token
  with HMAC-SHA-256 (:func:`csrf_token`), so only the holder of the cookie can
  know it.

Names and passwords are checked by :func:`check_name` and
:func:`check_password`; every refusal is an :class:`AccountError` with a
reason in words, a machine code naming the rule broken (``name_length``,
``name_start``, ``name_characters``, ``name_reserved``, ``invisible_name``;
``password_length``, ``password_is_name``, ``common_password``, ``weak_password``)
and the facts the page words it with (``args``). A password is checked against
zxcvbn's lists of common passwords, words and names (the maintained port of
Dropbox's estimator): one that is a common password as a whole (in any case,
reversed or with letters swapped for digits) is refused, and so is any other it
guesses in fewer than 10⁶ tries (its score under :data:`PASSWORD_SCORE`). A name holds no invisible character
(:data:`INVISIBLE`: variation selectors, the combining grapheme joiner, Mongolian
free variation selectors, Hangul fillers and every other default-ignorable or format
character), so that no name looks blank or like another name with something invisible
added.

>>> check_name("Ann_1")
'Ann_1'
>>> name_key("ＡＮＮ") == name_key("ann")
True
>>> check_name("guest7")
Traceback (most recent call last):
...
sixtysix.server.accounts.AccountError: names starting with 'guest' are kept for the server

An account can be deleted (:meth:`Accounts.delete`; its games stay, under
:data:`DELETED_NAME`), and an operator can give its owner a one-time code that sets a
new password (:meth:`Accounts.issue_reset`, ``sixtysix accounts reset NAME``): the
server sends no mail. The table ``reset_codes`` holds the code's SHA-256 and when it
expires; using it deletes it.
"""

from __future__ import annotations

import asyncio
import base64
import datetime as dt
import hashlib
import hmac
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

import regex
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from disarm import KEY_SCHEMA_VERSION, skeleton_key
from sqlalchemy import DateTime, ForeignKey, Integer, String, delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker
from zxcvbn import zxcvbn

from sixtysix.server.limits import BucketsByKey
from sixtysix.server.storage import add_columns, create_tables

__all__ = ["DELETED_NAME", "INVISIBLE", "NAME_MAX", "NAME_MIN", "PASSWORD_MAX", "PASSWORD_MIN",
           "PASSWORD_SCORE", "RESERVED", "RESET_LIFETIME", "SESSION_LIFETIME", "AccountError", "Accounts",
           "Attempt", "Login", "ResetCode", "Throttle", "User", "bad_code", "check_name", "check_password",
           "csrf_token", "name_key", "name_skeleton", "new_code"]

NAME_MIN, NAME_MAX = 3, 20
PASSWORD_MIN, PASSWORD_MAX = 8, 128
#: The least zxcvbn score a password needs: 2, at least 10⁶ guesses ("somewhat guessable",
#: enough where logins are throttled as here).
PASSWORD_SCORE = 2
#: The characters of a password zxcvbn looks at (its own limit): a longer password is
#: judged by its beginning.
PASSWORD_CHECKED = 72
#: Seconds a recovery code lasts (``sixtysix accounts reset --hours``): a day.
RESET_LIFETIME = 24 * 3600.0
#: The name a deleted account's games show in its seats: no account can have it (it is
#: no valid name), so it never points to anybody.
DELETED_NAME = "(deleted)"
#: What a recovery code is written with: no 0/O, 1/I/L to misread.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: Names starting with these (compared by :func:`name_key`) are the server's own.
RESERVED = ("computer", "guest", "admin", "sixtysix", "moderator", "system")
#: Seconds a session lasts from its login (``Settings.session_lifetime``): 30 days.
SESSION_LIFETIME = 30 * 24 * 3600.0
#: Characters allowed in a name besides letters, marks and digits.
NAME_PUNCTUATION = "_-"
#: Characters no name may hold although they count as letters or marks: Unicode's
#: Default_Ignorable_Code_Point (variation selectors U+FE00-U+FE0F, the combining grapheme
#: joiner U+034F, the Mongolian free variation selectors U+180B-U+180F, the Hangul fillers
#: U+115F, U+1160, U+3164 and U+FFA0, tags ...) and the format characters (Cf): they show
#: nothing, or nothing of their own.
INVISIBLE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Cf}]")


class AccountError(Exception):
    """A refused account request: ``reason`` for people reading logs, ``code`` for programs
    (the page words it from its catalog), ``args`` the facts that wording needs, the HTTP
    ``status``, and for ``throttled`` the seconds to wait (``retry_after``)."""

    def __init__(self, reason: str, code: str, status: int = 400, retry_after: int | None = None,
                 args: dict[str, str | int] | None = None) -> None:
        super().__init__(reason)
        self.code = code
        self.status = status
        self.retry_after = retry_after
        self.facts: dict[str, str | int] = dict(args or {})


@dataclass(frozen=True)
class User:
    """An account as the rest of the server sees it: never its password or sessions."""

    id: int
    name: str


@dataclass(frozen=True)
class Login:
    """A session: its user, its token (the cookie's value, given only to its owner), the
    CSRF token that goes with it, and when it expires (UTC, without a zone)."""

    user: User
    token: str
    csrf: str
    expires: dt.datetime


def name_key(name: str) -> str:
    """The form in which two names are the same name: NFKC, case-folded, NFKC again
    (Unicode's caseless matching of identifiers).

    >>> name_key("Straße") == name_key("STRASSE")
    True
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def name_skeleton(name: str) -> str:
    """What a name looks like: its confusable skeleton (Unicode TS #39, with ``1 ≡ l`` and
    ``0 ≡ O``), case-folded, from disarm's ``skeleton_key``. Two names with one skeleton
    look alike; the skeleton is for comparing, never for showing.

    >>> name_skeleton("\u0430nn") == name_skeleton("Ann") == name_skeleton("ANN")  # Cyrillic а
    True
    >>> name_skeleton("Bob1") == name_skeleton("BobI")
    True
    """
    return skeleton_key(name, digit_policy="tr39")


#: What the :data:`RESERVED` beginnings look like, written in any case: ``c0mputer`` and
#: ``ADM1N`` are kept for the server too.
_RESERVED_LOOKS = {reserved: tuple({name_skeleton(form)
                                    for form in (reserved, reserved.title(), reserved.upper())})
                   for reserved in RESERVED}


def check_name(name: str) -> str:
    """The name as it will be shown (its NFKC form), or :class:`AccountError` naming the
    rule it breaks: 3 to 20 characters (``name_length``), starting with a letter
    (``name_start``), letters of any script, combining marks, digits, ``_`` and ``-``
    (``name_characters``), no :data:`INVISIBLE` character (``invisible_name``), and not
    one of the :data:`RESERVED` beginnings (``name_reserved``).

    >>> check_name("Ивана")
    'Ивана'
    >>> check_name("9lives")
    Traceback (most recent call last):
    ...
    sixtysix.server.accounts.AccountError: a name starts with a letter
    """
    shown = unicodedata.normalize("NFKC", name)
    if not NAME_MIN <= len(shown) <= NAME_MAX:
        raise AccountError(f"a name has {NAME_MIN} to {NAME_MAX} characters, not {len(shown)}",
                           "name_length", 422, args={"min": NAME_MIN, "max": NAME_MAX, "length": len(shown)})
    hidden = INVISIBLE.search(name) or INVISIBLE.search(shown)  # as typed first (NFKC changes fillers)
    if hidden is not None:
        char = hidden.group()
        raise AccountError(f"a name has no invisible characters, not U+{ord(char):04X} "
                           f"({unicodedata.name(char, 'unnamed')})", "invisible_name", 422,
                           args={"char": f"U+{ord(char):04X}"})
    if unicodedata.category(shown[0])[0] != "L":
        raise AccountError("a name starts with a letter", "name_start", 422, args={"char": shown[0]})
    for char in shown:
        kind = unicodedata.category(char)
        if not (kind[0] == "L" or kind in ("Mn", "Mc", "Nd") or char in NAME_PUNCTUATION):
            raise AccountError(f"a name has only letters, digits, _ and -, not {char!r} "
                               f"(U+{ord(char):04X})", "name_characters", 422, args={"char": char})
    key, looks = name_key(shown), name_skeleton(shown)
    for reserved, skeletons in _RESERVED_LOOKS.items():
        if key.startswith(reserved) or looks.startswith(skeletons):
            raise AccountError(f"names starting with {reserved!r} are kept for the server", "name_reserved",
                               422, args={"start": reserved.title()})
    return shown


def check_password(password: str, name: str) -> str:
    """The password as it is hashed (its NFC form), or :class:`AccountError` naming the
    rule it breaks: 8 to 128 characters of any Unicode (``password_length``), not the name
    (``password_is_name``), not a common password (``common_password``) and not easily
    guessed (``weak_password``: a zxcvbn score under :data:`PASSWORD_SCORE`, with the
    name among the words it tries).

    >>> check_password("correct horse", "Ann")
    'correct horse'
    >>> check_password("Ann_1234", "ann_1234")
    Traceback (most recent call last):
    ...
    sixtysix.server.accounts.AccountError: the password must not be the name
    >>> check_password("12345678", "Ann")
    Traceback (most recent call last):
    ...
    sixtysix.server.accounts.AccountError: the password is one of the most common passwords
    """
    if any(0xD800 <= ord(char) <= 0xDFFF for char in password):
        raise AccountError("the password has a lone surrogate (not a Unicode character)", "bad_password", 422)
    normal = unicodedata.normalize("NFC", password)
    if not PASSWORD_MIN <= len(normal) <= PASSWORD_MAX:
        raise AccountError(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters, not {len(normal)}",
                           "password_length", 422,
                           args={"min": PASSWORD_MIN, "max": PASSWORD_MAX, "length": len(normal)})
    if name_key(normal) == name_key(name):
        raise AccountError("the password must not be the name", "password_is_name", 422)
    checked = normal[:PASSWORD_CHECKED]
    found = zxcvbn(checked, user_inputs=[name], max_length=PASSWORD_CHECKED)
    matches = found["sequence"]
    if len(matches) == 1 and matches[0].get("dictionary_name") == "passwords":
        raise AccountError("the password is one of the most common passwords", "common_password", 422)
    if found["score"] < PASSWORD_SCORE:
        raise AccountError(f"the password is too easily guessed (about 10^{found['guesses_log10']:.0f} "
                           "guesses): use more words, or less common ones", "weak_password", 422)
    return normal


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def csrf_token(session_token: str) -> str:
    """The CSRF token of a session: HMAC-SHA-256 of a fixed message keyed with the session's
    token. Not stored; only the holder of the session's cookie can work it out, and a page
    learns it from ``GET /api/account``.

    >>> len(csrf_token("abc")), csrf_token("abc") == csrf_token("abc") != csrf_token("abd")
    (43, True)
    """
    mac = hmac.new(session_token.encode("utf-8", "surrogatepass"), b"sixtysix csrf", hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode("ascii")


def wrong_password() -> AccountError:
    """The one answer to an unknown name and to a wrong password."""
    return AccountError("wrong name or password", "wrong_password", 401)


@dataclass(frozen=True)
class Attempt:
    """A login attempt as :class:`Throttle` counts it: the :func:`name_key` of an existing
    account's name (``""`` when no account has the name), the client's address, and the
    digest of the device token it brought when the account logged in with that device
    before (:meth:`Accounts.attempt`)."""

    name: str
    address: str
    device: str | None = None


class Throttle:
    """Failed logins, counted so that nobody else can use them to lock an owner out.

    Each count is a token bucket (:class:`~sixtysix.server.limits.BucketsByKey`, at most
    ``size`` keys each, in memory: a server process counts its own):

    - per name and address (``pair_burst`` at once, then one per ``pair_interval``
      seconds): guessing one account's password from one address;
    - per name, over every address (``name_burst``, then one per ``name_interval``): the
      gentler limit on guessing spread over many addresses;
    - per address, over every name (``address_burst``, one per ``address_interval``);
    - per known device and name (as per name and address): a login from a browser that
      logged in to the account before (its device cookie, :meth:`Accounts.attempt`)
      counts here only. Failures from elsewhere therefore never refuse the owner on his
      own device, and a device's own failures limit only that device.

    An attempt for a name no account has counts per address only: the tables hold
    existing names. An attempt refused adds nothing to any table, and a table that is
    full forgets the buckets that filled up again first (see ``BucketsByKey``): junk
    names and addresses cannot give a name fresh guesses. A successful attempt gives
    its tokens back, so only failures count. ``clock`` is for tests (no sleeping).
    """

    def __init__(self, *, clock: Callable[[], float] = time.monotonic, pair_burst: float = 5,
                 pair_interval: float = 10.0, name_burst: float = 20, name_interval: float = 10.0,
                 address_burst: float = 20, address_interval: float = 2.0, register_burst: float = 10,
                 register_interval: float = 60.0, size: int = 10_000) -> None:
        self.pairs = BucketsByKey(1 / pair_interval, pair_burst, size=size, clock=clock)
        self.names = BucketsByKey(1 / name_interval, name_burst, size=size, clock=clock)
        self.addresses = BucketsByKey(1 / address_interval, address_burst, size=size, clock=clock)
        self.devices = BucketsByKey(1 / pair_interval, pair_burst, size=size, clock=clock)
        self.registrations = BucketsByKey(1 / register_interval, register_burst, size=size, clock=clock)

    def _counts(self, attempt: Attempt) -> list[tuple[BucketsByKey, str]]:
        if attempt.device is not None:
            return [(self.devices, f"{attempt.device}\0{attempt.name}")]
        counts = [(self.addresses, attempt.address)]
        if attempt.name:
            counts += [(self.pairs, f"{attempt.name}\0{attempt.address}"), (self.names, attempt.name)]
        return counts

    def login(self, attempt: Attempt) -> float:
        """Take the attempt's tokens: ``0.0``, or the seconds to wait (nothing taken)."""
        counts = self._counts(attempt)
        wait = max(table.wait(key) for table, key in counts)
        if wait:
            return wait
        for table, key in counts:
            table.take(key)
        return 0.0

    def succeeded(self, attempt: Attempt) -> None:
        """The attempt was right: it does not count."""
        for table, key in self._counts(attempt):
            table.give_back(key)

    def register(self, address: str) -> float:
        return self.registrations.take(address)


def throttled(wait: float) -> AccountError:
    seconds = max(1, int(-(-wait // 1)))
    return AccountError(f"too many attempts: try again in {seconds} s", "throttled", 429, retry_after=seconds)


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    pass


class UserRow(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: The name as shown (NFKC).
    name: Mapped[str] = mapped_column(String(64))
    #: :func:`name_key` of the name: what makes two names the same.
    name_key: Mapped[str] = mapped_column(String(128), unique=True)
    #: argon2id, in the PHC string format (parameters, salt and hash).
    password_hash: Mapped[str] = mapped_column(String(255))
    created: Mapped[dt.datetime] = mapped_column(DateTime, default=_utcnow)
    last_login: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    #: :func:`name_skeleton` of the name: what makes two names look alike (not unique: names
    #: registered before skeletons were compared may share one).
    name_skeleton: Mapped[str | None] = mapped_column(String(128), nullable=True, index=True)
    #: disarm's ``KEY_SCHEMA_VERSION`` the skeleton was made with; a row of another version
    #: gets its skeleton made again at start-up.
    skeleton_version: Mapped[int | None] = mapped_column(Integer, nullable=True)


class SessionRow(Base):
    __tablename__ = "sessions"

    #: SHA-256 of the session's token (hex); the token itself is only in the cookie.
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime)
    expires: Mapped[dt.datetime] = mapped_column(DateTime, index=True)


class DeviceRow(Base):
    """A browser an account logged in with: the SHA-256 of its device token (the device
    cookie holds the token). Its logins are throttled apart from everybody else's."""

    __tablename__ = "devices"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True,
                                         index=True)
    last_login: Mapped[dt.datetime] = mapped_column(DateTime)


class ResetRow(Base):
    """A recovery code an operator issued (``sixtysix accounts reset``): its SHA-256 and when
    it expires. One per account: a new code replaces the one before; using it deletes it."""

    __tablename__ = "reset_codes"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(64))
    expires: Mapped[dt.datetime] = mapped_column(DateTime)


@dataclass(frozen=True)
class ResetCode:
    """A recovery code as issued: whose, the code (shown once, to the operator) and when it
    expires (UTC, without a zone)."""

    user: User
    code: str
    expires: dt.datetime


def new_code() -> str:
    """A recovery code: three groups of four characters of :data:`CODE_ALPHABET` (about 59
    bits), easy to read out and type.

    >>> code = new_code()
    >>> len(code), code[4], code[9], set(code) - set(CODE_ALPHABET) - {"-"}
    (14, '-', '-', set())
    """
    groups = ("".join(secrets.choice(CODE_ALPHABET) for _ in range(4)) for _ in range(3))
    return "-".join(groups)


def _code_digest(code: str) -> str:
    """The digest a code is stored and compared by: read in any case, with or without its
    dashes and spaces."""
    plain = "".join(char for char in code.upper() if char not in "- ")
    return _digest(plain)


def bad_code() -> AccountError:
    """The one answer to an unknown name, a wrong code and an expired one."""
    return AccountError("wrong name or recovery code, or the code has expired", "bad_code", 401)


#: Devices remembered per account (the ones used last).
DEVICES_KEPT = 20
#: Users whose skeleton is made again in one transaction at start-up.
_REKEY_CHUNK = 500


class Accounts:
    """The accounts in the database of ``engine`` (a :class:`~sixtysix.server.storage.Storage`'s).

    Hashing (argon2: tens of milliseconds and 64 MiB each) runs in a worker thread, at
    most ``max_hashing`` at once, so the event loop never waits for it; the database
    is used from the caller's thread, as the games' storage is. ``now`` gives the time
    (UTC, no zone) and ``throttle`` counts attempts; both can be replaced in tests.
    """

    def __init__(self, engine: Engine, *, session_lifetime: float = SESSION_LIFETIME,
                 hasher: PasswordHasher | None = None, now: Callable[[], dt.datetime] = _utcnow,
                 max_hashing: int = 4) -> None:
        self.engine = engine
        self.session_lifetime = session_lifetime
        self.hasher = hasher or PasswordHasher()
        self.now = now
        self.throttle = Throttle()
        self._hashing = threading.BoundedSemaphore(max_hashing)
        self._dummy: str | None = None
        create_tables(Base.metadata, engine)
        add_columns(engine, "users", {"name_skeleton": "VARCHAR(128)", "skeleton_version": "INTEGER"},
                    indexed=("name_skeleton",))
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._rekey()

    def _rekey(self) -> None:
        """Give every name its skeleton: rows of a database made before skeletons, or
        made with another version of them."""
        stale = (UserRow.skeleton_version.is_(None)) | (UserRow.skeleton_version != KEY_SCHEMA_VERSION)
        while True:
            with self._sessions.begin() as s:
                rows = s.execute(select(UserRow.id, UserRow.name).where(stale).limit(_REKEY_CHUNK)).all()
                for user_id, name in rows:
                    s.execute(update(UserRow).where(UserRow.id == user_id).values(
                        name_skeleton=name_skeleton(name), skeleton_version=KEY_SCHEMA_VERSION))
            if len(rows) < _REKEY_CHUNK:
                return

    # Hashing, in a worker thread -----------------------------------------------------
    def _hash(self, password: str) -> str:
        with self._hashing:
            return self.hasher.hash(password)

    def _verify(self, stored: str, password: str) -> bool:
        with self._hashing:
            try:
                return self.hasher.verify(stored, password)
            except (VerificationError, InvalidHashError):
                return False

    def _dummy_hash(self) -> str:
        # An unknown name is checked against this, so that it takes as long as a wrong password.
        if self._dummy is None:
            self._dummy = self._hash(secrets.token_urlsafe(16))
        return self._dummy

    # Users ---------------------------------------------------------------------------
    def user_by_name(self, name: str) -> User | None:
        """The account called ``name`` (any case, any Unicode form), for a profile page."""
        with self._sessions() as s:
            row = s.scalars(select(UserRow).where(UserRow.name_key == name_key(name))).first()
            return None if row is None else User(row.id, row.name)

    def name_of(self, user_id: int) -> str | None:
        """The name an account is shown by, or ``None`` if there is no such account."""
        with self._sessions() as s:
            row = s.get(UserRow, user_id)
            return None if row is None else row.name

    async def register(self, name: str, password: str) -> User:
        """A new account; ``bad_name``, ``invisible_name``, ``bad_password``, ``name_taken`` or
        ``name_look_alike`` otherwise."""
        shown = check_name(name)
        secret = check_password(password, shown)
        key, looks = name_key(shown), name_skeleton(shown)
        if self._taken(key):
            raise self._name_taken(shown)
        self._check_look_alike(shown, looks)
        digest = await asyncio.to_thread(self._hash, secret)
        try:
            with self._sessions.begin() as s:
                row = UserRow(name=shown, name_key=key, password_hash=digest, created=self.now(),
                              name_skeleton=looks, skeleton_version=KEY_SCHEMA_VERSION)
                s.add(row)
                s.flush()
                return User(row.id, row.name)
        except IntegrityError:  # registered meanwhile
            raise self._name_taken(shown) from None

    def _taken(self, key: str) -> bool:
        with self._sessions() as s:
            return s.scalars(select(UserRow.id).where(UserRow.name_key == key)).first() is not None

    def _check_look_alike(self, shown: str, looks: str) -> None:
        """``name_look_alike`` if an account's name has the skeleton ``looks``."""
        with self._sessions() as s:
            other = s.scalars(select(UserRow.name).where(UserRow.name_skeleton == looks)).first()
        if other is not None:
            raise AccountError(f"the name {shown!r} looks like {other!r}, which is taken", "name_look_alike",
                               409)

    @staticmethod
    def _name_taken(shown: str) -> AccountError:
        return AccountError(f"the name {shown!r} is taken (names are the same in any case)",
                            "name_taken", 409)

    # Devices and the throttle --------------------------------------------------------
    def attempt(self, name: str, address: str, device_token: str | None) -> Attempt:
        """A login attempt for :class:`Throttle`: whether an account has the name, and
        whether ``device_token`` (the device cookie's value) is a device it logged in with."""
        key = name_key(name)
        with self._sessions() as s:
            user_id = s.scalars(select(UserRow.id).where(UserRow.name_key == key)).first()
            if user_id is None:
                return Attempt("", address)
            if not device_token or len(device_token) > 200:
                return Attempt(key, address)
            digest = _digest(device_token)
            known = s.scalars(select(DeviceRow.user_id).where(DeviceRow.token_hash == digest,
                                                              DeviceRow.user_id == user_id)).first()
        return Attempt(key, address, None if known is None else digest)

    def remember_device(self, user: User, device_token: str | None) -> str:
        """The device token of the browser ``user`` just logged in with: the one it has if
        the server gave it (to any account), else a new one. Remembered for ``user``, with
        his :data:`DEVICES_KEPT` latest devices."""
        now = self.now()
        digest = None if not device_token or len(device_token) > 200 else _digest(device_token)
        with self._sessions.begin() as s:
            if digest is None or s.scalars(select(DeviceRow.user_id).where(
                    DeviceRow.token_hash == digest)).first() is None:
                device_token = secrets.token_urlsafe(32)
                digest = _digest(device_token)
            row = s.get(DeviceRow, (digest, user.id))
            if row is None:
                s.add(DeviceRow(token_hash=digest, user_id=user.id, last_login=now))
            else:
                row.last_login = now
            s.flush()
            old = select(DeviceRow.token_hash).where(DeviceRow.user_id == user.id) \
                .order_by(DeviceRow.last_login.desc()).offset(DEVICES_KEPT)
            s.execute(delete(DeviceRow).where(DeviceRow.user_id == user.id, DeviceRow.token_hash.in_(old)))
        assert device_token is not None
        return device_token

    def devices_of(self, user: User) -> int:
        """How many devices ``user`` logged in with are remembered."""
        with self._sessions() as s:
            return len(s.scalars(select(DeviceRow.token_hash).where(DeviceRow.user_id == user.id)).all())

    # Logging in ----------------------------------------------------------------------
    async def authenticate(self, name: str, password: str) -> User:
        """The account if ``password`` is its password, else ``wrong_password`` (the same
        for an unknown name, after the same work). A hash made with older parameters is
        replaced by one with the hasher's."""
        secret = unicodedata.normalize("NFC", password)
        if any(0xD800 <= ord(char) <= 0xDFFF for char in secret) or len(secret) > PASSWORD_MAX:
            raise wrong_password()
        with self._sessions() as s:
            row = s.scalars(select(UserRow).where(UserRow.name_key == name_key(name))).first()
            found = None if row is None else (row.id, row.name, row.password_hash)
        if found is None:
            await asyncio.to_thread(self._verify, await asyncio.to_thread(self._dummy_hash), secret)
            raise wrong_password()
        user_id, shown, stored = found
        if not await asyncio.to_thread(self._verify, stored, secret):
            raise wrong_password()
        values: dict[str, object] = {"last_login": self.now()}
        if self.hasher.check_needs_rehash(stored):
            values["password_hash"] = await asyncio.to_thread(self._hash, secret)
        with self._sessions.begin() as s:
            s.execute(update(UserRow).where(UserRow.id == user_id).values(**values))
        return User(user_id, shown)

    async def change_password(self, user: User, old: str, new: str) -> None:
        """Replace ``user``'s password (``old`` must be right) and end all his sessions."""
        secret = check_password(new, user.name)
        await self.authenticate(user.name, old)
        digest = await asyncio.to_thread(self._hash, secret)
        with self._sessions.begin() as s:
            s.execute(update(UserRow).where(UserRow.id == user.id).values(password_hash=digest))
            s.execute(delete(SessionRow).where(SessionRow.user_id == user.id))

    # Recovery and deletion -------------------------------------------------------------
    def issue_reset(self, name: str, lifetime: float = RESET_LIFETIME) -> ResetCode:
        """A new recovery code for the account ``name`` (replacing any earlier one), good
        once for ``lifetime`` seconds; ``no_player`` if there is no such account."""
        user = self.user_by_name(name)
        if user is None:
            raise AccountError(f"no account is called {name!r}", "no_player", 404, args={"name": name})
        code = new_code()
        expires = self.now() + dt.timedelta(seconds=lifetime)
        with self._sessions.begin() as s:
            s.execute(delete(ResetRow).where(ResetRow.user_id == user.id))
            s.add(ResetRow(user_id=user.id, code_hash=_code_digest(code), expires=expires))
        return ResetCode(user, code, expires)

    async def reset_password(self, name: str, code: str, new: str) -> User:
        """Set a new password with a recovery code, which is used up; every session of the
        account ends. ``bad_code`` for an unknown name, a wrong or an expired code."""
        with self._sessions() as s:
            found = s.execute(select(UserRow.id, UserRow.name, ResetRow.code_hash, ResetRow.expires)
                              .join(ResetRow, ResetRow.user_id == UserRow.id)
                              .where(UserRow.name_key == name_key(name))).first()
        if found is None or len(code) > 40:
            raise bad_code()
        user_id, shown, stored, expires = found
        if expires <= self.now() or not hmac.compare_digest(stored, _code_digest(code)):
            raise bad_code()
        secret = check_password(new, shown)
        digest = await asyncio.to_thread(self._hash, secret)
        with self.engine.begin() as db:
            mine = (ResetRow.user_id == user_id) & (ResetRow.code_hash == stored)
            used = db.execute(delete(ResetRow).where(mine))
            if used.rowcount != 1:  # used meanwhile
                raise bad_code()
            db.execute(update(UserRow).where(UserRow.id == user_id).values(password_hash=digest))
            db.execute(delete(SessionRow).where(SessionRow.user_id == user_id))
        return User(user_id, shown)

    async def check_owner(self, user: User, password: str) -> None:
        """``wrong_password`` unless ``password`` is ``user``'s (before deleting the account)."""
        await self.authenticate(user.name, password)

    def delete(self, user: User) -> None:
        """Delete ``user``'s account: its row, sessions, devices and recovery code. What it
        played is anonymised by the services that keep it (see ``account_api``)."""
        with self._sessions.begin() as s:
            for table in (SessionRow, DeviceRow, ResetRow):
                s.execute(delete(table).where(table.user_id == user.id))
            s.execute(delete(UserRow).where(UserRow.id == user.id))

    def password_hash(self, name: str) -> str | None:
        """The stored hash of ``name``'s password (for the tests and the operator)."""
        with self._sessions() as s:
            return s.scalars(select(UserRow.password_hash).where(UserRow.name_key == name_key(name))).first()

    # Sessions ------------------------------------------------------------------------
    def open_session(self, user: User) -> Login:
        """A new session for ``user``; expired sessions (anybody's) are deleted meanwhile."""
        token = secrets.token_urlsafe(32)
        now = self.now()
        expires = now + dt.timedelta(seconds=self.session_lifetime)
        with self._sessions.begin() as s:
            s.execute(delete(SessionRow).where(SessionRow.expires <= now))
            s.add(SessionRow(token_hash=_digest(token), user_id=user.id, created=now, expires=expires))
        return Login(user, token, csrf_token(token), expires)

    def session(self, token: str) -> Login | None:
        """The live session of ``token`` (a cookie's value), or ``None``."""
        if not token or len(token) > 200:
            return None
        with self._sessions() as s:
            found = s.execute(select(SessionRow.expires, UserRow.id, UserRow.name)
                              .join(UserRow, UserRow.id == SessionRow.user_id)
                              .where(SessionRow.token_hash == _digest(token),
                                     SessionRow.expires > self.now())).first()
        if found is None:
            return None
        expires, user_id, name = found
        return Login(User(user_id, name), token, csrf_token(token), expires)

    def close_session(self, token: str) -> None:
        with self._sessions.begin() as s:
            s.execute(delete(SessionRow).where(SessionRow.token_hash == _digest(token)))

    def sessions_of(self, user: User) -> int:
        """How many live sessions ``user`` has."""
        with self._sessions() as s:
            return len(s.scalars(select(SessionRow.token_hash).where(
                SessionRow.user_id == user.id, SessionRow.expires > self.now())).all())
