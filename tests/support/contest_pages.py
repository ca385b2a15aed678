"""A client for the contest's pages in the tests: cookies kept, redirects not followed, forms posted
with the CSRF token their page carries (what a browser without a script does)."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

from support.contest import Server, multipart

CSRF = re.compile(r'name="csrftoken" value="([^"]+)"')


@dataclass
class Answer:
    """An answer: status, headers, body."""

    status: int
    headers: Any
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class _Keep(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Client:
    """A cookie-keeping HTTP client that never follows redirects (a browser without a script)."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _Keep)

    def send(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> Answer:
        request = urllib.request.Request(self.server.url + path.lstrip("/"), data=body, method=method)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with self.opener.open(request, timeout=60) as answer:
                return Answer(answer.status, answer.headers, answer.read())
        except urllib.error.HTTPError as error:
            return Answer(error.code, error.headers, error.read())

    def get(self, path: str) -> Answer:
        return self.send("GET", path)

    def post(self, path: str, fields: dict[str, str]) -> Answer:
        body = urllib.parse.urlencode(fields).encode()
        return self.send("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"})

    def token(self, path: str = "/") -> str:
        """The CSRF token of the page at ``path`` (its forms carry it)."""
        match = CSRF.search(self.get(path).text)
        assert match, f"no form with a CSRF token on {path}"
        return match.group(1)

    def sign_in(self, team: str, password: str) -> Answer:
        token = self.token("/signin")
        return self.post("/signin", {"csrftoken": token, "team": team, "password": password})

    def cookie(self, name: str) -> str:
        return next(c.value for c in self.jar if c.name == name and c.value is not None)

    def upload(self, path: str, files: list[tuple[str, str, bytes]], page: str = "/team") -> Answer:
        """A multipart form posted as the site's script posts it: the token in the X-CSRFToken header."""
        token = self.token(page)
        body, content_type = multipart(files, {"csrftoken": token})
        return self.send("POST", path, body, {"Content-Type": content_type, "X-CSRFToken": token})

    def form(self, path: str, fields: dict[str, str], page: str) -> Answer:
        """A form posted with the token of the page it is on."""
        return self.post(path, {"csrftoken": self.token(page), **fields})
