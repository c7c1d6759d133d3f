"""The pages, the web app's manifest and service worker, the messages of each language
and the card pictures: a FastAPI router. Pages and scripts are package data served as
they are (no build step); card pictures come from :mod:`sixtysix.present.svg` (shared with the
Jupyter display)."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from sixtysix import i18n
from sixtysix.game.cards import Card
from sixtysix.present.svg import back_svg, card_svg

__all__ = ["MANIFEST", "PAGES", "STATIC", "page", "router"]

STATIC = Path(str(resources.files("sixtysix.server") / "static"))
#: The pages, each written once with its own title and body; the lines every page's
#: head shares are in ``static/head.part.html``, put in where the page says.
PAGES = ("index", "game", "replay", "lesson", "rules", "player", "tournaments", "tournament", "account",
         "puzzles")
_HEAD_MARK = "<!-- head.part.html -->"
#: The web app manifest: the game installs as an app of its own (a phone's home screen).
MANIFEST = {
    "name": "Sixty-six",
    "short_name": "Sixty-six",
    "description": "The card game Sixty-six: against the computer or a friend.",
    "start_url": "/",
    "scope": "/",
    "display": "standalone",
    "orientation": "any",
    "background_color": "#1e6b45",
    "theme_color": "#1e6b45",
    "icons": [
        {"src": "/static/icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png"},
        {"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
    ],
}

router = APIRouter(include_in_schema=False)


@functools.cache
def page(name: str) -> str:
    """The page ``name`` (one of :data:`PAGES`) as served: its file with the shared head put in.

    >>> "<meta charset" in page("rules") and "<title" in page("rules")
    True
    """
    text = (STATIC / f"{name}.html").read_text(encoding="utf-8")
    if _HEAD_MARK not in text:
        raise ValueError(f"static/{name}.html has no {_HEAD_MARK}")
    return text.replace(_HEAD_MARK, (STATIC / "head.part.html").read_text(encoding="utf-8").rstrip())


def _serve(path: str, name: str) -> None:
    async def serve() -> HTMLResponse:
        return HTMLResponse(page(name))

    router.add_api_route(path, serve, methods=["GET"], name=f"{name}_page")


# The lobby, the table, the replay (of a game, or a puzzle's analysis board), the
# tournaments, a player's page, the lessons, the puzzles, how to play (the lobby's and
# the table's "How to play"), and the account's settings.
for _path, _name in (("/", "index"), ("/game/{game_id}", "game"), ("/replay/{game_id}", "replay"),
                     ("/replay/puzzle/{puzzle_id}", "replay"),
                     ("/tournaments", "tournaments"), ("/tournament/{tid}", "tournament"),
                     ("/player/{name}", "player"), ("/learn", "lesson"), ("/puzzles", "puzzles"),
                     ("/puzzles/{puzzle_id}", "puzzles"), ("/rules", "rules"), ("/account", "account")):
    _serve(_path, _name)


@router.get("/manifest.webmanifest")
async def manifest() -> JSONResponse:
    return JSONResponse(MANIFEST, media_type="application/manifest+json")


@router.get("/sw.js")
async def service_worker() -> FileResponse:
    # Served from the root, so that it may look after every page of the site.
    return FileResponse(STATIC / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"})


@router.get("/static/{name}.html")
async def static_page(name: str) -> HTMLResponse:
    # A page by its file's name (the service worker keeps these for offline play),
    # assembled like the routes above; before the static files, which hold the parts.
    if name not in PAGES:
        raise StarletteHTTPException(404)
    return HTMLResponse(page(name))


@router.get("/i18n/{wanted}.json")
async def messages(wanted: str) -> JSONResponse:
    # ``wanted``: the page's languages in order of preference, comma-separated
    # (``de-AT,en``); the first with a catalog, else English.
    codes = [code for code in wanted.split(",")[:20] if i18n.normalize(code) != i18n.DEFAULT]
    body = i18n.catalog(codes[0] if codes else i18n.DEFAULT)
    body["languages"] = i18n.LANGUAGES
    return JSONResponse(body, headers={"Cache-Control": "no-cache"})


@router.get("/cards/{name}.svg")
async def card_picture(name: str, lang: str = i18n.DEFAULT, deck: str = "two") -> Response:
    # ``lang``: the letters on the card (``D`` for a German queen); ``deck=four``: four colours.
    with i18n.use(lang):
        if name == "back":
            svg = back_svg()
        else:
            try:
                svg = card_svg(Card.parse(name), four_colours=deck == "four")
            except ValueError:
                return JSONResponse({"error": "no such card", "code": "no_card"}, status_code=404)
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})
