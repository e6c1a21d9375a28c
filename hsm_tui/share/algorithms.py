"""The SSH algorithms ``hsm serve`` accepts: only those OpenSSH still offers by default,
no SHA-1 or MD5 anywhere (OpenSSH dropped SHA-1 RSA signatures in 8.8). A client that
offers none of one kind cannot agree on a connection and is refused with one log line.
"""

from __future__ import annotations

KEX = (
    "curve25519-sha256",
    "curve25519-sha256@libssh.org",
    "ecdh-sha2-nistp256",
    "ecdh-sha2-nistp384",
    "ecdh-sha2-nistp521",
)
"""Key exchanges: Curve25519 first, the NIST curves for clients that lack it."""

CIPHERS = (
    "chacha20-poly1305@openssh.com",
    "aes256-gcm@openssh.com",
    "aes128-gcm@openssh.com",
    "aes256-ctr",
    "aes192-ctr",
    "aes128-ctr",
)
"""Ciphers: the authenticated ones first; no CBC mode, no RC4, no 3DES."""

MACS = ("hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com")
"""MACs for the CTR ciphers (the others carry their own): encrypt-then-MAC, SHA-2 only."""

SIGNATURES = (
    "ssh-ed25519",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521",
    "sk-ssh-ed25519@openssh.com",
    "sk-ecdsa-sha2-nistp256@openssh.com",
    "rsa-sha2-512",
    "rsa-sha2-256",
)
"""Signatures the server tells clients it takes (``server-sig-algs``): an RSA key signs
with SHA-2, never ``ssh-rsa``'s SHA-1. Told, not enforced: asyncssh checks a user's
signature with whatever hash it names, so a client that ignores this list and signs with
SHA-1 still gets in (OpenSSH clients since 7.2 never do; the test that it is refused is
kept as an expected failure until asyncssh lets a server refuse it)."""
