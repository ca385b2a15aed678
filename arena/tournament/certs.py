"""A contest's own certificate authority and the certificates of its Dask cluster (``arena cluster certs``).

Without TLS, whoever reaches the scheduler's port can send any function to the workers, which run as
root. With these files the scheduler, the workers and the organiser's client speak Dask's ``tls://``
and each side refuses a peer whose certificate the contest's CA did not sign (Dask requires a peer
certificate on both sides of every connection: ``distributed.security.Security``).

``DIR/ca.pem`` is the CA's certificate (every machine needs it); ``ca-key.pem`` signs certificates and
should leave the organiser's machine never. Each role, ``scheduler``, ``worker`` and ``client``, gets
``<role>.pem`` and ``<role>-key.pem``; keys are written readable by their owner only. Keys are
ECDSA P-256; certificates last ``days`` days and name ``localhost``, ``127.0.0.1``, ``scheduler``
(the compose file's service) and every ``hosts`` entry (Dask does not check names, only the CA).
"""

from __future__ import annotations

import datetime
import ipaddress
import os
from collections.abc import Sequence
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from arena.errors import ConfigError

ROLES = ("scheduler", "worker", "client")
CA = "ca"
DEFAULT_HOSTS = ("localhost", "127.0.0.1", "scheduler")


def cert_path(folder: Path, role: str) -> Path:
    """``<role>.pem`` in ``folder``."""
    return folder / f"{role}.pem"


def key_path(folder: Path, role: str) -> Path:
    """``<role>-key.pem`` in ``folder``."""
    return folder / f"{role}-key.pem"


def make_certs(folder: Path, *, hosts: Sequence[str] = (), days: int = 365) -> list[Path]:
    """Write the CA and the three roles' certificates into ``folder``; return the files written."""
    if days < 1:
        raise ConfigError(f"--days must be at least 1, got {days}")
    folder.mkdir(parents=True, exist_ok=True)
    existing = [
        p.name
        for role in (CA, *ROLES)
        for p in (cert_path(folder, role), key_path(folder, role))
        if p.exists()
    ]
    if existing:
        raise ConfigError(
            f"{folder} already holds {', '.join(existing)}; use a new folder (nothing was changed)"
        )
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "arena contest CA")])
    ca_cert = (
        _builder(ca_name, ca_name, ca_key.public_key(), now, days)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_key_usage(ca=True), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    written = _write(folder, CA, ca_cert, ca_key)
    names = _names([*DEFAULT_HOSTS, *hosts])
    for role in ROLES:
        key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"arena {role}")])
        cert = (
            _builder(subject, ca_name, key.public_key(), now, days)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(_key_usage(ca=False), critical=True)
            .add_extension(
                x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]),
                critical=False,
            )
            .add_extension(x509.SubjectAlternativeName(names), critical=False)
            .sign(ca_key, hashes.SHA256())
        )
        written += _write(folder, role, cert, key)
    return written


def _builder(
    subject: x509.Name,
    issuer: x509.Name,
    public: ec.EllipticCurvePublicKey,
    now: datetime.datetime,
    days: int,
) -> x509.CertificateBuilder:
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=days))
    )


def _key_usage(*, ca: bool) -> x509.KeyUsage:
    return x509.KeyUsage(
        digital_signature=True,
        content_commitment=False,
        key_encipherment=not ca,
        data_encipherment=False,
        key_agreement=not ca,
        key_cert_sign=ca,
        crl_sign=ca,
        encipher_only=False,
        decipher_only=False,
    )


def _names(hosts: Sequence[str]) -> list[x509.GeneralName]:
    names: list[x509.GeneralName] = []
    for host in dict.fromkeys(hosts):
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            names.append(x509.DNSName(host))
    return names


def _write(folder: Path, role: str, cert: x509.Certificate, key: ec.EllipticCurvePrivateKey) -> list[Path]:
    key_file = key_path(folder, role)
    secret = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(secret)
    cert_file = cert_path(folder, role)
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return [cert_file, key_file]
