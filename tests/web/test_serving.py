"""Where tally serve is reached and how it holds up on a shared network: the address phones
reach (not the host name's 127.0.1.1), --url, Host headers it does not answer to (slow
clients and other hostile guests: tests/web/test_hostile.py), https."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from tally.web import address
from tests.web_support import free_port, running


@pytest.fixture
def debian_laptop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A laptop whose host name resolves to 127.0.1.1 (Debian, Ubuntu) and whose Wi-Fi has
    192.168.1.20 (and a second network 10.0.0.5)."""
    monkeypatch.setattr(socket, "gethostname", lambda: "club-laptop")
    real = socket.getaddrinfo

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host == "club-laptop":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.1.1", 0))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(address, "_default_route", lambda: "192.168.1.20")
    monkeypatch.setattr(address, "_interfaces", lambda: ["127.0.0.1", "192.168.1.20", "10.0.0.5"])


def test_the_phones_address_is_the_network_s_not_the_host_name_s(debian_laptop: None) -> None:
    assert socket.getaddrinfo("club-laptop", None)[0][4][0] == "127.0.1.1"
    assert address.candidates() == ["192.168.1.20", "10.0.0.5"]
    assert address.phone_bases("0.0.0.0", 8066, None) == [
        "http://192.168.1.20:8066",
        "http://10.0.0.5:8066",
    ]


def test_tally_serve_prints_every_address_and_serves_links_at_the_first(
    debian_laptop: None, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from tally.cli import app

    served: dict[str, Any] = {}
    monkeypatch.setattr("uvicorn.Server.run", lambda self: served.update(app=self.config.app))
    result = CliRunner().invoke(app, ["serve", "--db", db_url, "--pin", "2468"])
    assert result.exit_code == 0, result.output
    assert "Director:  http://192.168.1.20:8066/director" in result.output
    assert "Also at:   http://10.0.0.5:8066" in result.output
    assert "http://127.0" not in result.output
    assert served["app"].state.site.base == "http://192.168.1.20:8066"


def test_with_only_loopback_tally_serve_says_phones_cannot_reach_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(address, "_default_route", lambda: None)
    monkeypatch.setattr(address, "_interfaces", lambda: ["127.0.0.1"])
    monkeypatch.setattr(address, "_by_name", lambda: ["127.0.1.1"])
    assert address.phone_bases("0.0.0.0", 8066, None) == []
    from tally.cli.serve import _addresses

    said = _addresses("tally.db", [], "http://127.0.0.1:8066", 8066)
    assert "Phones cannot reach 127.0.0.1: connect this computer to the club's network" in said
    assert "--url" in said


def test_url_names_the_address_for_a_name_or_a_proxy() -> None:
    assert address.phone_bases("0.0.0.0", 8066, "https://club.example/") == ["https://club.example"]
    from tally.errors import Refused

    for bad in ("ftp://club", "http://club.example/path", "http://user@club", "club"):
        with pytest.raises(Refused):
            address.base_of(bad)


def test_links_and_qr_codes_never_follow_the_host_header(db_url: str) -> None:
    from starlette.testclient import TestClient

    from tally.store import open_store
    from tally.web.access import set_pin
    from tally.web.server import create_app

    store = open_store(db_url)
    for name in ("Anna", "Bert"):
        store.players.add(name)
    ev = store.events.create("Cup", kind="round-robin", players=["Anna", "Bert"])
    store.events.start_round(ev.id, 1)
    set_pin(store, "2468")
    base = "http://192.168.1.20:8066"
    app = create_app(store, base=base, hosts=address.allowed_hosts([base]))
    try:
        evil = TestClient(app, base_url="http://evil.example")
        assert evil.get("/").status_code == 400
        local = TestClient(app, base_url="http://127.0.0.1:8066")
        local.get("/director")
        token = app.state.site.keys.csrf(local.cookies.get("tally_csrf"), None)
        assert (
            local.post(
                "/director/login", data={"csrf": token, "pin": "2468"}, follow_redirects=False
            ).status_code
            == 303
        )
        page = local.get(f"/director/event/{ev.id}", headers={"X-Forwarded-Host": "evil"})
        assert page.status_code == 200
        assert f"{base}/t/" in page.text and "evil" not in page.text
        assert "127.0.0.1:8066/t/" not in page.text
    finally:
        store.close()


def test_new_keys_at_start_make_old_table_addresses_fail(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from tally.cli import app
    from tally.store import open_store
    from tally.web.access import server_keys

    monkeypatch.setattr("uvicorn.Server.run", lambda self: None)
    with open_store(db_url) as store:
        before = server_keys(store).table_secret(1)
    result = CliRunner().invoke(
        app, ["serve", "--db", db_url, "--new-keys", "--url", "http://club.example:8066"]
    )
    assert result.exit_code == 0, result.output
    with open_store(db_url) as store:
        after = server_keys(store)
    assert not after.check_table(1, before) and after.check_table(1, after.table_secret(1))


# --- https ----------------------------------------------------------------------------------


def _serve(args: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[Any, dict[str, Any]]:
    """``tally serve ARGS`` through the command line, the server not run: its output and
    the uvicorn configuration it would have run (the certificate files read meanwhile)."""
    from typer.testing import CliRunner

    from tally.cli import app

    served: dict[str, Any] = {}

    def run(self: Any) -> None:
        served["config"] = self.config
        for name in ("ssl_certfile", "ssl_keyfile"):
            path = getattr(self.config, name)
            served[name] = open(path).read() if path else None

    monkeypatch.setattr("uvicorn.Server.run", run)
    result = CliRunner().invoke(app, ["serve", *args, "--url", "https://192.168.1.20:8066"])
    return result, served


def test_self_signed_https_prints_its_fingerprint_and_keeps_the_same_certificate(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tally.web.https import fingerprint

    first, served = _serve(["--db", db_url, "--self-signed"], monkeypatch)
    assert first.exit_code == 0, first.output
    cert = served["ssl_certfile"]
    assert f"https certificate (SHA-256): {fingerprint(cert)}" in first.output
    assert "PRIVATE KEY" in served["ssl_keyfile"]
    assert not Path(served["config"].ssl_certfile).exists()  # (removed once the server stops)
    again, served = _serve(["--db", db_url, "--self-signed"], monkeypatch)
    assert again.exit_code == 0 and served["ssl_certfile"] == cert  # (phones accepted it once)


def test_https_with_the_club_s_certificate_and_refusals_of_what_is_not_one(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tally.web.https import make_certificate

    cert, key = make_certificate(["club.example"])
    (tmp_path / "cert.pem").write_text(cert)
    (tmp_path / "key.pem").write_text(key)
    (tmp_path / "other.pem").write_text(make_certificate(["x"])[1])
    (tmp_path / "zeros").write_bytes(b"\0" * 100_000)
    files = [str(tmp_path / "cert.pem"), str(tmp_path / "key.pem")]
    result, served = _serve(["--db", db_url, "--https", *files], monkeypatch)
    assert result.exit_code == 0, result.output
    assert served["ssl_certfile"] == cert and served["ssl_keyfile"] == key
    zeros = str(tmp_path / "zeros")
    for wrong in (
        [files[0], str(tmp_path / "other.pem")],
        [files[1], files[0]],
        ["no", "ne"],
        [zeros, zeros],
    ):
        result, served = _serve(["--db", db_url, "--https", *wrong], monkeypatch)
        assert result.exit_code != 0 and "--https" in result.output and not served
    result, served = _serve(["--db", db_url, "--https", *files, "--self-signed"], monkeypatch)
    assert result.exit_code != 0 and "give one of them" in result.output


def test_over_https_the_director_s_cookie_is_sent_over_https_only(
    db_url: str, tmp_path: Path
) -> None:
    import ssl

    import httpx

    from tally.store import open_store
    from tally.web import serving
    from tally.web.access import set_pin
    from tally.web.https import certificate_files, self_signed
    from tally.web.server import create_app

    store = open_store(db_url)
    try:
        set_pin(store, "2468")
        cert, key = self_signed(store, ["127.0.0.1"])
        trust = ssl.create_default_context(cadata=cert)
        port = free_port()
        app = create_app(store)
        with certificate_files(cert, key) as files:
            config = serving.server_config(app, "127.0.0.1", port, https=files)
            with (
                running(None, config),
                httpx.Client(base_url=f"https://127.0.0.1:{port}", verify=trust) as phone,
            ):
                phone.get("/director")
                token = app.state.site.keys.csrf(phone.cookies.get("tally_csrf"), None)
                res = phone.post("/director/login", data={"csrf": token, "pin": "2468"})
            assert res.status_code == 303, res.text
            assert "secure" in res.headers["set-cookie"].lower()
    finally:
        store.close()
