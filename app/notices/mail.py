"""Mail: addresses, the signed links in mails, and sending one mail with ``aiosmtplib``.

Every mail has a plain text and an HTML part, and ``List-Unsubscribe`` with
``List-Unsubscribe-Post`` (RFC 8058): a mail program's "unsubscribe" posts to the link, which
deletes the address without a sign-in. A link carries what it acts on, signed by the server
(``Keys.sign``): a confirmation link its one-time nonce, an unsubscribe link a hash of its own
address, so it unsubscribes that address and no other. An address goes into no log line.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import re
from dataclasses import dataclass
from email import charset
from email.header import Header
from email.message import Message
from email.policy import compat32
from email.mime.multipart import MIMEMultipart
from email.mime.nonmultipart import MIMENonMultipart
from email.utils import formataddr, make_msgid, parseaddr
from html import escape
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

import aiosmtplib

from app.services.errors import Problem

if TYPE_CHECKING:
    from app.notices.keys import Keys

# One @, no spaces or brackets, a dot in the domain: a typo is caught, and a mail server
# decides the rest (the confirmation link proves the address).
ADDRESS = re.compile(r"[^@\s<>()\[\],;:\"']{1,64}@[^@\s<>()\[\],;:\"']+\.[^@\s<>()\[\],;:\"'.]{2,}")


@dataclass(frozen=True)
class Smtp:
    hostname: str
    port: int
    username: str | None
    password: str | None
    use_tls: bool


def smtp(url: str) -> Smtp:
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ValueError("SMTP_URL is smtp://user:password@host:port or smtps://…")
    tls = parts.scheme == "smtps"
    return Smtp(
        parts.hostname,
        parts.port or (465 if tls else 25),
        unquote(parts.username) if parts.username else None,
        unquote(parts.password) if parts.password else None,
        tls,
    )


def clean_address(text: str) -> str:
    address = text.strip()
    if len(address) > 254 or not ADDRESS.fullmatch(address):
        raise Problem(422, "That is not a mail address.")
    return address


def _digest(address: str) -> str:
    return hashlib.sha256(address.lower().encode()).hexdigest()[:24]


def confirm_token(keys: Keys, player_id: str, nonce: str) -> str:
    return keys.sign("confirm", player_id, nonce)


def unsubscribe_token(keys: Keys, player_id: str, address: str) -> str:
    return keys.sign("unsubscribe", player_id, _digest(address))


def opened(keys: Keys, token: str, purpose: str) -> tuple[str, str]:
    """The player and the nonce (or address hash) a token of ``purpose`` carries; 400 for a
    token this server did not sign for that."""
    parts = keys.open(token)
    if parts is None or len(parts) != 3 or parts[0] != purpose:
        raise Problem(400, "That link is not one this server made.")
    return parts[1], parts[2]


def is_for(address: str, digest: str) -> bool:
    return _digest(address) == digest


# Bodies in quoted-printable: readable where they are ASCII, as a mail's words mostly are.
UTF8 = charset.Charset("utf-8")
UTF8.body_encoding = charset.QP
# A long link in a header kept on its header's line (folded, some readers keep the space),
# and the line ends SMTP speaks.
POLICY = compat32.clone(max_line_length=998, linesep="\r\n")


def _part(text: str, subtype: str) -> Message:
    part = MIMENonMultipart("text", subtype, charset="utf-8")
    part.set_payload(text, UTF8)
    return part


def html(paragraphs: list[str], link: str, label: str, unsubscribe: str) -> str:
    """A mail's HTML part: the same words as its text part, and one button."""
    body = "".join(f"<p>{escape(p)}</p>" for p in paragraphs)
    return (
        '<!doctype html><html><body style="font-family:sans-serif">'
        f'{body}<p><a href="{escape(link)}" style="font-weight:bold">{escape(label)}</a></p>'
        f'<p style="color:#666;font-size:small"><a href="{escape(unsubscribe)}">'
        "Stop these mails</a></p></body></html>"
    )


def compose(
    sender: str,
    to: str,
    subject: str,
    paragraphs: list[str],
    link: str,
    label: str,
    unsubscribe_url: str,
) -> Message:
    """A mail with a text and an HTML part. Built with the classic MIME classes: the modern
    ``EmailMessage`` parses every header it is given, four times the CPU for the same bytes."""
    msg = MIMEMultipart("alternative", policy=POLICY)
    msg["From"] = formataddr(parseaddr(sender), charset="utf-8")
    msg["To"] = to
    msg["Subject"] = (
        subject if subject.isascii() else Header(subject, "utf-8", header_name="Subject").encode()
    )
    msg["Message-ID"] = make_msgid(domain="campground")
    msg["List-Unsubscribe"] = f"<{unsubscribe_url}>"
    msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    plain = "\n\n".join([*paragraphs, f"{label}: {link}", f"Stop these mails: {unsubscribe_url}"])
    msg.attach(_part(plain + "\n", "plain"))
    msg.attach(_part(html(paragraphs, link, label, unsubscribe_url), "html"))
    return msg


class Sender:
    """The mails of one sending pass over a few connections to the mail server, each opened
    at need and used again for the next mail (SMTP takes one mail at a time on a
    connection): a pass of a hundred mails costs a few connections and greetings, not a
    hundred. A server that cannot be reached fails the rest of the pass at once, so a mail
    server down does not hold the pass for a timeout per mail; those mails are tried again
    later."""

    def __init__(self, server: Smtp, timeout: float, connections: int = 8) -> None:
        self.server = server
        self.timeout = timeout
        self.idle: list[aiosmtplib.SMTP] = []
        self.free = asyncio.Semaphore(connections)
        self.unreachable = False

    async def send(self, msg: Message) -> bool:
        """Whether the server took the mail; False (to try again later) when it could not."""
        async with self.free:
            client = self.idle.pop() if self.idle else await self._connect()
            if client is None:
                return False
            try:
                await client.sendmail(
                    parseaddr(msg["From"])[1], [msg["To"]], msg.as_bytes(policy=POLICY)
                )
            except (aiosmtplib.SMTPException, OSError, TimeoutError):
                client.close()  # in any state now: the next mail opens another
                return False
            self.idle.append(client)
            return True

    async def _connect(self) -> aiosmtplib.SMTP | None:
        if self.unreachable:
            return None
        client = aiosmtplib.SMTP(
            hostname=self.server.hostname,
            port=self.server.port,
            username=self.server.username,
            password=self.server.password,
            use_tls=self.server.use_tls,
            timeout=self.timeout,
        )
        try:
            await client.connect()
        except (aiosmtplib.SMTPException, OSError, TimeoutError):
            self.unreachable = True
            return None
        return client

    async def close(self) -> None:
        for client in self.idle:
            with contextlib.suppress(aiosmtplib.SMTPException, OSError, TimeoutError):
                await client.quit()
            client.close()
        self.idle = []
