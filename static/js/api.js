// JSON over fetch; the player's cookie rides along automatically.
import { SIGNED_OUT, signedOut } from "./signed-out.js";

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export async function api(method, path, body) {
  const init = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, "Cannot reach the server. Check your connection and try again.");
  }
  const data = res.status === 204 ? null : await res.json().catch(() => null);
  // The token names nobody (any more): a 401 that asks for one, unlike a wrong password's.
  if (res.status === 401 && res.headers.has("www-authenticate")) {
    signedOut();
    throw new ApiError(401, SIGNED_OUT);
  }
  if (!res.ok) throw new ApiError(res.status, detailText(data) || `${res.status} ${res.statusText}`);
  return data;
}

// FastAPI errors: {"detail": "text"} or {"detail": [{"loc": [...], "msg": "..."}]}.
function detailText(data) {
  const detail = data && data.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) return detail.map((d) => d.msg).join("; ");
  if (detail && typeof detail === "object") return detail.message || JSON.stringify(detail);
  return "";
}

// The player of this browser, or null: asked without a refusal, so a first visit logs no error.
export async function currentPlayer() {
  return api("GET", "/api/players/current");
}

// A private table's invite code, from the page's address (/games/{id}?invite=…, as the invite
// page links it): its invited spectators send it with every look at the table.
export function withInvite(path) {
  const code = new URLSearchParams(location.search).get("invite");
  if (!code) return path;
  return `${path}${path.includes("?") ? "&" : "?"}invite=${encodeURIComponent(code)}`;
}

export function wsUrl(path) {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}${path}`;
}
