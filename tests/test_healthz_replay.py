"""The plain ``GET /healthz`` that web/health.py answers below Flask (the first answer's bytes
replayed) is the answer Flask itself gives (``/healthz?x=1`` goes through every hook), in
each deployment shape; what it must not answer (an untrusted host, HEAD, a prefix mount)
still goes through Flask after the replay is armed (a prefix mount is answered by
Flask's own routing)."""

from __future__ import annotations

import pytest

from webcalc import create_app


def answer(resp) -> tuple:
    return resp.status_code, sorted(resp.headers.items()), resp.get_data()


CONFIGS = {
    "default": ({}, {}, "http://localhost"),
    "trusted-host": ({"TRUSTED_HOSTS": ["calc.example.com"]}, {}, "http://calc.example.com"),
    "proxy-https": ({"TRUSTED_PROXIES": "1"},
                    {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"},
                    "http://localhost"),
}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_replayed_healthz_is_flasks_answer(name):
    config, headers, base = CONFIGS[name]
    client = create_app({"TESTING": True, **config}).test_client()
    first = client.get("/healthz", headers=headers, base_url=base)
    assert first.status_code == 200 and first.get_json() == {"status": "ok"}
    through_flask = client.get("/healthz?x=1", headers=headers, base_url=base)
    for extra in ({}, {"Accept-Language": "en"}, {"Accept-Encoding": "gzip"},
                  {"Cookie": "session=x"}):
        replayed = client.get("/healthz", headers={**headers, **extra}, base_url=base)
        assert answer(replayed) == answer(through_flask), extra
    assert answer(first) == answer(through_flask)


def test_after_the_replay_is_armed_flask_still_answers_the_rest():
    app = create_app({"TESTING": True, "TRUSTED_HOSTS": ["calc.example.com"]})
    client = app.test_client()
    base = "http://calc.example.com"
    assert client.get("/healthz", base_url=base).status_code == 200
    assert client.get("/healthz", base_url=base).status_code == 200      # replayed
    assert client.get("/healthz", base_url="http://evil.example").status_code == 400
    head = client.head("/healthz", base_url=base)
    assert head.status_code == 200 and head.get_data() == b""
    mounted = client.get("/healthz", base_url=base + "/prefix")    # SCRIPT_NAME: Flask's
    assert mounted.status_code == 200 and mounted.get_json() == {"status": "ok"}
    assert client.post("/healthz", base_url=base).status_code == 405
