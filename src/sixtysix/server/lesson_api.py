"""The guided games (:mod:`sixtysix.present.lessons`) over HTTP: stateless, the step is in each
request. A FastAPI router.

- ``GET /api/lessons/{name}?step=N&lang=de``: the lesson after ``N`` scripted actions,
  as the learner's seat sees it, with the narration and the next prompt.
- ``GET /api/lessons/{name}/check?step=N&action=KH&lang=de``: whether the learner's
  choice is the scripted one, else why the lesson asks for another.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from sixtysix import i18n
from sixtysix.present.lessons import LESSONS, NO_LESSON, Lesson, LessonError, check_json, step_json

__all__ = ["router"]

router = APIRouter(prefix="/api/lessons")


def lesson(name: str) -> Lesson:
    """The lesson ``name``; an unknown one is refused (``no_lesson``, 404)."""
    found = LESSONS.get(name)
    if found is None:
        raise LessonError(NO_LESSON, "no_lesson", 404, name=name)
    return found


@router.get("/{name}")
async def lesson_step(name: str, step: int = 0,
                      lang: str = Query(i18n.DEFAULT, max_length=35)) -> dict[str, Any]:
    return step_json(lesson(name), step, lang)


@router.get("/{name}/check")
async def lesson_check(name: str, step: int, action: str = Query(max_length=8),
                       lang: str = Query(i18n.DEFAULT, max_length=35)) -> dict[str, Any]:
    return check_json(lesson(name), step, action, lang)
