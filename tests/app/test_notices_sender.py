"""A sending pass reuses its connections to the mail server, and a server that cannot
be reached fails the rest of the pass without a connection tried for each mail."""

from __future__ import annotations

import asyncio
import email
import email.policy
import socket
from email.message import Message

from app.notices import mail
from tests.app.notice_parts import MailServer


def letter(to: str) -> Message:
    return mail.compose(
        "Campground <noreply@localhost>",
        to,
        "Your turn",
        ["It is your turn."],
        "https://camp.example/games/g",
        "Open the table",
        "https://camp.example/api/notices/mail/unsubscribe?token=t",
    )


def test_a_mail_in_words_outside_ascii_reads_back_as_written():
    msg = mail.compose(
        "Zoë's Campground <noreply@localhost>",
        "zoe@example.org",
        "Zoë played at Let's Take a Hike — your turn",
        ["Zoë played a Trail Marker ☀; it is your turn."],
        "https://camp.example/games/g",
        "Open the table",
        "https://camp.example/api/notices/mail/unsubscribe?token=t=",
    )
    raw = msg.as_bytes()
    assert raw.isascii()  # every header and body encoded for any mail server
    read = email.message_from_bytes(raw, policy=email.policy.default)
    assert read["From"] == "Zoë's Campground <noreply@localhost>"
    assert read["Subject"] == "Zoë played at Let's Take a Hike — your turn"
    plain = read.get_body(("plain",))
    html = read.get_body(("html",))
    assert plain is not None and html is not None
    text = plain.get_content().replace("\r\n", "\n")  # SMTP's line ends
    assert text.startswith("Zoë played a Trail Marker ☀; it is your turn.\n\nOpen the table: ")
    assert text.endswith("unsubscribe?token=t=\n")
    assert "<p>Zoë played a Trail Marker ☀; it is your turn.</p>" in html.get_content()


async def test_the_mails_of_a_pass_go_over_one_connection():
    server = MailServer()
    try:
        sender = mail.Sender(mail.smtp(server.url), timeout=10)
        sent = [await sender.send(letter(f"p{i}@example.org")) for i in range(3)]
        await sender.close()
        assert sent == [True, True, True]
        assert [rcpt for rcpt, _ in server.inbox.mails] == [[f"p{i}@example.org"] for i in range(3)]
        assert len(set(server.inbox.peers)) == 1
        # The next pass opens a connection of its own.
        later = mail.Sender(mail.smtp(server.url), timeout=10)
        assert await later.send(letter("p3@example.org"))
        await later.close()
        assert len(set(server.inbox.peers)) == 2
    finally:
        server.close()


async def test_mails_sent_at_once_share_a_few_connections():
    server = MailServer()
    try:
        sender = mail.Sender(mail.smtp(server.url), timeout=10, connections=3)
        sent = await asyncio.gather(*(sender.send(letter(f"p{i}@example.org")) for i in range(20)))
        await sender.close()
        assert all(sent) and len(server.inbox.mails) == 20
        assert 1 <= len(set(server.inbox.peers)) <= 3
    finally:
        server.close()


async def test_a_server_that_does_not_answer_is_tried_once_a_pass():
    # It takes connections and never greets: each would wait its timeout.
    silent = socket.create_server(("127.0.0.1", 0))
    try:
        port = silent.getsockname()[1]
        sender = mail.Sender(mail.smtp(f"smtp://127.0.0.1:{port}"), timeout=0.5)
        sent = [await sender.send(letter(f"p{i}@example.org")) for i in range(3)]
        await sender.close()
        assert sent == [False, False, False]
        silent.settimeout(0)
        accepted = []
        while True:
            try:
                accepted.append(silent.accept()[0])
            except BlockingIOError:
                break
        assert len(accepted) == 1
        for conn in accepted:
            conn.close()
    finally:
        silent.close()
