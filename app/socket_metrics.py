"""The sockets' traffic: messages received and sent, by type, and closes, by close code.

Counted as messages pass the socket guard (``app.guard``) and the outermost middleware
(``app.logs.RequestContext``); the other metrics, open sockets among them, are in
``app.metrics``, whose note on worker processes holds here too.
"""

from __future__ import annotations

from typing import Any

from prometheus_client import Counter

WS_RECEIVED = Counter(
    "campground_ws_messages_received_total",
    "Socket messages received, by type (move, chat, "
    "sync, seeks; other: any other type; unreadable: not a JSON object, binary or too large)",
    ["type"],
)
WS_SENT = Counter(
    "campground_ws_messages_sent_total",
    "Socket messages sent, by type (state, patch, ack, "
    "error, chat, rematch, lobby, seeks, waiting, queue, seated)",
    ["type"],
)
WS_SENT_BYTES = Counter(
    "campground_ws_sent_bytes_total",
    "Characters of socket messages sent (bytes for ASCII), by type",
    ["type"],
)
WS_CLOSED = Counter(
    "campground_ws_closed_total",
    "Sockets closed, by the close code of whichever side closed "
    "first (the client's 1006: the connection dropped; none: the server ended the socket "
    "without a close frame; other: a code outside the standard ones and the server's own)",
    ["code"],
)

RECEIVED_TYPES = frozenset({"move", "chat", "sync", "seeks"})
SENT_TYPES = frozenset(
    {
        "state",
        "patch",
        "ack",
        "error",
        "chat",
        "rematch",
        "lobby",
        "seeks",
        "waiting",
        "queue",
        "seated",
    }
)
# Codes the server closes with, beside the standard ones (1000-1015).
SERVER_CLOSE_CODES = frozenset({4400, 4404, 4429})
# Every sent message starts so: ``app.sockets.encode`` keeps the key order it is given.
_TYPED = '{"type":"'


# The counters' children, by label values: ``labels()`` takes a lock and checks its arguments
# each time, several microseconds a message sent to each socket; a dictionary look-up does not.
_RECEIVED = {
    kind: WS_RECEIVED.labels(kind) for kind in (*sorted(RECEIVED_TYPES), "other", "unreadable")
}
_SENT = {
    kind: (WS_SENT.labels(kind), WS_SENT_BYTES.labels(kind))
    for kind in (*sorted(SENT_TYPES), "other")
}
_CLOSED = {
    code: WS_CLOSED.labels(str(code))
    for code in (*range(1000, 1016), *sorted(SERVER_CLOSE_CODES), "none", "other")
}


def message_received(parsed: Any) -> None:
    """A socket message arrived: ``parsed`` is the JSON object it holds, or None."""
    if parsed is None:
        label = "unreadable"
    else:
        kind = parsed.get("type") if isinstance(parsed, dict) else None
        # Any JSON a client likes: a list is no set member.
        label = kind if isinstance(kind, str) and kind in RECEIVED_TYPES else "other"
    _RECEIVED[label].inc()


def message_sent(text: str) -> None:
    end = text.find('"', 9) if text.startswith(_TYPED) else -1
    count, size = _SENT.get(text[9:end] if end > 0 else "other") or _SENT["other"]
    count.inc()
    size.inc(len(text))


def socket_closed(code: int | None) -> None:
    """A socket closed with ``code`` by whichever side closed first; None: without a close."""
    _CLOSED.get("none" if code is None else code, _CLOSED["other"]).inc()
