// JSON over fetch; the player's cookie rides along automatically.
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

export function wsUrl(path) {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}${path}`;
}
