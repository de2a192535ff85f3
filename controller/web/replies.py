"""The server's one-line answers: JSON bodies in, JSON errors out."""

from __future__ import annotations

from typing import Any

from aiohttp import web


async def json_body(request: web.Request) -> dict[str, Any]:
    """The request's JSON object. Only ``Content-Type: application/json``: a form on
    another site can send a body, but not that type without the browser asking first
    (and the server never allows it), so every change needs what only a script of this
    page sends."""
    if request.content_type != "application/json":
        raise web.HTTPUnsupportedMediaType(reason="send a JSON object (application/json)")
    try:
        data = await request.json()
    except (ValueError, UnicodeDecodeError, RecursionError):  # nested past Python's stack
        raise web.HTTPBadRequest(reason="the body must be a JSON object") from None
    if not isinstance(data, dict):
        raise web.HTTPBadRequest(reason="the body must be a JSON object")
    return data


def json_error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)
