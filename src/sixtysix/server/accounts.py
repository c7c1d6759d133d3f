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
reason in words and a machine code.

>>> check_name("Ann_1")
'Ann_1'
>>> name_key("ＡＮＮ") == name_key("ann")
True
>>> check_name("guest7")
Traceback (most recent call last):
...
sixtysix.server.accounts.AccountError: names starting with 'guest' are kept for the server
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

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import DateTime, ForeignKey, Integer, String, delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

from sixtysix.server.limits import BucketsByKey
from sixtysix.server.storage import create_tables

__all__ = ["NAME_MAX", "NAME_MIN", "PASSWORD_MAX", "PASSWORD_MIN", "RESERVED", "SESSION_LIFETIME",
           "AccountError", "Accounts", "Login", "Throttle", "User", "check_name", "check_password",
           "csrf_token", "name_key"]

NAME_MIN, NAME_MAX = 3, 20
PASSWORD_MIN, PASSWORD_MAX = 8, 128
#: Names starting with these (compared by :func:`name_key`) are the server's own.
RESERVED = ("computer", "guest", "admin", "sixtysix", "moderator", "system")
#: Seconds a session lasts from its login (``Settings.session_lifetime``): 30 days.
SESSION_LIFETIME = 30 * 24 * 3600.0
#: Characters allowed in a name besides letters, marks and digits.
NAME_PUNCTUATION = "_-"


class AccountError(Exception):
    """A refused account request: ``reason`` for people, ``code`` for programs, the
    HTTP ``status``, and for ``throttled`` the seconds to wait (``retry_after``)."""

    def __init__(self, reason: str, code: str, status: int = 400, retry_after: int | None = None) -> None:
        super().__init__(reason)
        self.code = code
        self.status = status
        self.retry_after = retry_after


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


def check_name(name: str) -> str:
    """The name as it will be shown (its NFKC form), or :class:`AccountError` ``bad_name``:
    3 to 20 characters, letters of any script, combining marks, digits, ``_`` and ``-``,
    starting with a letter, and not one of the :data:`RESERVED` beginnings.

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
                           "bad_name", 422)
    if unicodedata.category(shown[0])[0] != "L":
        raise AccountError("a name starts with a letter", "bad_name", 422)
    for char in shown:
        kind = unicodedata.category(char)
        if not (kind[0] == "L" or kind in ("Mn", "Mc", "Nd") or char in NAME_PUNCTUATION):
            raise AccountError(f"a name has only letters, digits, _ and -, not {char!r} "
                               f"(U+{ord(char):04X})", "bad_name", 422)
    key = name_key(shown)
    for reserved in RESERVED:
        if key.startswith(reserved):
            raise AccountError(f"names starting with {reserved!r} are kept for the server", "bad_name", 422)
    return shown


def check_password(password: str, name: str) -> str:
    """The password as it is hashed (its NFC form), or :class:`AccountError`
    ``bad_password``: 8 to 128 characters, any Unicode, not the name.

    >>> check_password("correct horse", "Ann")
    'correct horse'
    >>> check_password("Ann_1234", "ann_1234")
    Traceback (most recent call last):
    ...
    sixtysix.server.accounts.AccountError: the password must not be the name
    """
    if any(0xD800 <= ord(char) <= 0xDFFF for char in password):
        raise AccountError("the password has a lone surrogate (not a Unicode character)", "bad_password", 422)
    normal = unicodedata.normalize("NFC", password)
    if not PASSWORD_MIN <= len(normal) <= PASSWORD_MAX:
        raise AccountError(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters, not {len(normal)}",
                           "bad_password", 422)
    if name_key(normal) == name_key(name):
        raise AccountError("the password must not be the name", "bad_password", 422)
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


class Throttle:
    """Login attempts per name and per client address, and registrations per address,
    each a token bucket (:class:`~sixtysix.server.limits.BucketsByKey`, at most ``size``
    keys each, in memory: a server process counts its own).

    A login attempt takes a token from its name's bucket (``name_burst`` at once, then
    one per ``name_interval`` seconds) and from its address's; a successful one gives
    them back, so only failures count. ``clock`` is for tests (no sleeping).
    """

    def __init__(self, *, clock: Callable[[], float] = time.monotonic, name_burst: float = 5,
                 name_interval: float = 10.0, address_burst: float = 20, address_interval: float = 2.0,
                 register_burst: float = 10, register_interval: float = 60.0, size: int = 10_000) -> None:
        self.names = BucketsByKey(1 / name_interval, name_burst, size=size, clock=clock)
        self.addresses = BucketsByKey(1 / address_interval, address_burst, size=size, clock=clock)
        self.registrations = BucketsByKey(1 / register_interval, register_burst, size=size, clock=clock)

    def login(self, name: str, address: str) -> float:
        """Take the attempt's tokens: ``0.0``, or the seconds to wait (nothing taken)."""
        key = name_key(name)
        wait = self.names.take(key)
        if wait:
            return wait
        wait = self.addresses.take(address)
        if wait:
            self.names.give_back(key)
        return wait

    def succeeded(self, name: str, address: str) -> None:
        """The attempt was right: it does not count."""
        self.names.give_back(name_key(name))
        self.addresses.give_back(address)

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


class SessionRow(Base):
    __tablename__ = "sessions"

    #: SHA-256 of the session's token (hex); the token itself is only in the cookie.
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime)
    expires: Mapped[dt.datetime] = mapped_column(DateTime, index=True)


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
        self._sessions = sessionmaker(engine, expire_on_commit=False)

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
        """A new account; ``bad_name``, ``bad_password`` or ``name_taken`` otherwise."""
        shown = check_name(name)
        secret = check_password(password, shown)
        key = name_key(shown)
        if self._taken(key):
            raise self._name_taken(shown)
        digest = await asyncio.to_thread(self._hash, secret)
        try:
            with self._sessions.begin() as s:
                row = UserRow(name=shown, name_key=key, password_hash=digest, created=self.now())
                s.add(row)
                s.flush()
                return User(row.id, row.name)
        except IntegrityError:  # registered meanwhile
            raise self._name_taken(shown) from None

    def _taken(self, key: str) -> bool:
        with self._sessions() as s:
            return s.scalars(select(UserRow.id).where(UserRow.name_key == key)).first() is not None

    @staticmethod
    def _name_taken(shown: str) -> AccountError:
        return AccountError(f"the name {shown!r} is taken (names are the same in any case)",
                            "name_taken", 409)

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
