// A WebSocket that reconnects with backoff until it is closed on purpose or refused (4xxx).
export const STATUS_TEXT = { connecting: "Connecting…", online: "Live", offline: "Reconnecting…", gone: "Closed" };

export class LiveSocket {
  constructor(url, { onMessage, onStatus }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.delay = 500;
    this.closed = false;
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
    ws.onmessage = (event) => this.onMessage(JSON.parse(event.data));
    ws.onclose = (event) => {
      if (this.closed) return;
      // 4xxx: the server refused for good (e.g. 4404 no such game); retrying will not help.
      if (event.code >= 4000 && event.code < 5000) {
        this.closed = true;
        this.onStatus("gone", event.reason);
        return;
      }
      this.onStatus("offline");
      this.timer = setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 10000);
    };
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
