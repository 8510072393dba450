// A WebSocket that reconnects with backoff until it is closed on purpose or refused for good.
// "Try again later" is not for good: a close with 1013 (too many sockets, the database away) or
// 4429 (too many connections from here) is retried after the time the server names, with
// backoff and jitter, so that a classroom whose Wi-Fi blinked does not come back all at once.
// While the database is away the server answers messages with an "unavailable" error and keeps
// the socket: the page says it is reconnecting and asks again after retry_after. A close with
// 4401 (this device was signed out) is for good, and the whole page hears of it.
import { CLOSE_SIGNED_OUT, signedOut } from "./signed-out.js";

export const STATUS_TEXT = {
  connecting: "Connecting…", online: "Live", offline: "Reconnecting to the table…", gone: "Closed",
  "signed-out": "Signed out",
};
const TRY_AGAIN_LATER = 1013;
const TOO_MANY = 4429;
const MAX_DELAY = 10000;

// Somewhere between the wait and twice it: clients refused together spread out.
const jittered = (ms) => ms * (1 + Math.random());

// The server's own wait, in milliseconds, from the reason of a 1013 or 4429 close:
// {"retry_after": seconds, "message": text}. 0 when it names none.
export function namedWait(reason) {
  let wait;
  try {
    wait = JSON.parse(reason || "{}").retry_after;
  } catch {
    return 0;
  }
  return Number.isFinite(wait) && wait > 0 ? wait * 1000 : 0;
}

export class LiveSocket {
  // resync: the message that asks for everything again (a game's {"type":"sync"}), if any.
  constructor(url, { onMessage, onStatus, resync }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.resync = resync || null;
    this.delay = 500;
    this.closed = false;
    this.away = false;
    this.open();
  }

  open() {
    this.onStatus("connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.onStatus("online");
    };
    ws.onmessage = (event) => this.received(JSON.parse(event.data));
    ws.onclose = (event) => {
      if (this.closed) return;
      if (event.code === CLOSE_SIGNED_OUT) {
        this.closed = true;
        this.onStatus("signed-out");
        signedOut();
        return;
      }
      const later = event.code === TRY_AGAIN_LATER || event.code === TOO_MANY;
      // Any other 4xxx: refused for good (e.g. 4404 no such game); retrying will not help.
      if (!later && event.code >= 4000 && event.code < 5000) {
        this.closed = true;
        this.onStatus("gone", event.reason);
        return;
      }
      this.onStatus("offline");
      const wait = later ? Math.max(namedWait(event.reason), this.delay) : this.delay;
      this.timer = setTimeout(() => this.open(), later ? jittered(wait) : wait);
      this.delay = Math.min(this.delay * 2, MAX_DELAY);
    };
  }

  received(msg) {
    if (msg.type === "error" && msg.code === "unavailable") {
      this.away = true;
      this.onStatus("offline");
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        if (this.resync) this.send(this.resync);
        else this.back();
      }, jittered((msg.retry_after || 1) * 1000));
    } else if (msg.type !== "error" && this.away) {
      this.back();
    }
    this.onMessage(msg);
  }

  back() {
    this.away = false;
    if (this.ws.readyState === WebSocket.OPEN) this.onStatus("online");
  }

  send(message) {
    if (this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.ws.close();
  }
}
