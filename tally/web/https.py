"""https for ``tally serve``: the club's own certificate (``--https CERT KEY``) or one made
for it (``--self-signed``).

The certificate made is kept in the database (``web_settings``, as the tables' key is:
:func:`tally.web.access.https_certificate`), so
every restart and every process over the same database shows the phones the same one: a
phone that accepted it once is not asked again, and its fingerprint, printed by ``tally
serve``, can be compared with what the phone's browser shows. No browser trusts it by
itself (no authority signed it): each phone warns once. docs/serve.md ("https") weighs it.
"""

from __future__ import annotations

import ipaddress
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tally.store import Store

#: where the key's PEM starts, after the certificate's, in what the database keeps
_KEY_START = "-----BEGIN PRIVATE KEY-----"
#: how long the certificate made is valid: a club uses its laptop for years
VALID_DAYS = 10 * 365


def make_certificate(hosts: list[str]) -> tuple[str, str]:
    """A new self-signed certificate for ``hosts`` (addresses or names) and its private key,
    both PEM."""
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "tally serve")])
    now = datetime.datetime.now(datetime.UTC)
    alternatives: list[x509.GeneralName] = []
    for host in dict.fromkeys([*hosts, "localhost", "127.0.0.1"]):
        try:
            alternatives.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            alternatives.append(x509.DNSName(host))
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return cert.public_bytes(serialization.Encoding.PEM).decode(), key_pem.decode()


#: the most of a PEM file read (a certificate chain and its key are a few kilobytes)
PEM_MOST = 1024 * 1024


def pem_of(path: Path) -> str:
    """The PEM text of the file at ``path`` (at most :data:`PEM_MOST` characters read);
    ValueError when it holds none."""
    with path.open(encoding="utf-8") as text:
        found = text.read(PEM_MOST)
    if "-----BEGIN " not in found:
        raise ValueError("no PEM in it")
    return found


def fingerprint(cert_pem: str) -> str:
    """The SHA-256 fingerprint of a PEM certificate as browsers show it (``AB:12:…``)."""
    import hashlib
    import ssl

    digest = hashlib.sha256(ssl.PEM_cert_to_DER_cert(cert_pem)).hexdigest().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def self_signed(store: Store, hosts: list[str]) -> tuple[str, str]:
    """The certificate made for this database and its key (PEM), made now for ``hosts`` when
    it has none (the first process to store one wins)."""
    from tally.web.access import https_certificate

    both = https_certificate(store, lambda: "".join(make_certificate(hosts)))
    cert, key = both.split(_KEY_START, 1)
    return cert, _KEY_START + key


@contextmanager
def certificate_files(cert: str, key: str) -> Iterator[tuple[str, str]]:
    """``cert`` and ``key`` (PEM) as files only this user can read, for as long as the
    server runs (the TLS library reads them from files); removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="tally-https-") as folder:
        paths = (Path(folder) / "cert.pem", Path(folder) / "key.pem")
        for path, text in zip(paths, (cert, key), strict=True):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as out:
                out.write(text)
        yield str(paths[0]), str(paths[1])
