// The JSON API and the live WebSocket, all on URLs relative to the page (inside Discord they go through /.proxy/).
import type { ApiError, LiveFrame } from "./types";

export class ApiFailure extends Error {
  constructor(
    public status: number,
    public error: ApiError | null,
  ) {
    super(error?.text ?? `HTTP ${status}`);
  }
}

let session = "";

export function setSession(token: string): void {
  session = token;
}

export function url(path: string): string {
  return new URL(path, document.baseURI).toString();
}

/** The reader's languages as plain language tags first ("fr, fr-FR"): the words of an answer given before the
 * session knows the reader's Discord language (a refused sign-in or link). */
function languages(): string {
  const tags = navigator.languages?.length ? navigator.languages : [navigator.language || "en"];
  const plain = tags.map((tag) => tag.split("-")[0].toLowerCase());
  return [...new Set([...plain, ...tags])].join(", ");
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { "Accept-Language": languages() };
  if (session) headers.Authorization = `Bearer ${session}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(url(path), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "omit",
  });
  let data: unknown = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  const err = (data as { error?: ApiError } | null)?.error ?? null;
  if (!res.ok || (data as { ok?: boolean } | null)?.ok === false) throw new ApiFailure(res.status, err);
  return data as T;
}

/** A GET of a private resource (the ticket map) with the session; throws ApiFailure when refused. */
export async function fetchWithSession(path: string): Promise<Response> {
  const res = await fetch(url(path), { headers: { Authorization: `Bearer ${session}` }, credentials: "omit" });
  if (!res.ok) {
    let err: ApiError | null = null;
    try {
      err = ((await res.json()) as { error?: ApiError }).error ?? null;
    } catch {
      err = null;
    }
    throw new ApiFailure(res.status, err);
  }
  return res;
}



/** Keeps one WebSocket to the game open, reconnecting with backoff; each frame goes to onFrame. */
export class Live {
  private ws: WebSocket | null = null;
  private closed = false;
  private delay = 500;

  constructor(
    private gameId: string,
    private onFrame: (f: LiveFrame) => void,
    private onState: (up: boolean) => void,
  ) {}

  start(): void {
    const u = new URL(url(`api/games/${encodeURIComponent(this.gameId)}/live`));
    u.protocol = u.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(u.toString());
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      ws.send(JSON.stringify({ type: "hello", session }));
      this.onState(true);
    };
    ws.onmessage = (ev) => {
      try {
        this.onFrame(JSON.parse(String(ev.data)) as LiveFrame);
      } catch {
        /* a frame that is not JSON is ignored */
      }
    };
    ws.onclose = () => {
      this.ws = null;
      if (this.closed) return;
      this.onState(false);
      if (this.closed) return;
      setTimeout(() => this.start(), this.delay);
      this.delay = Math.min(this.delay * 2, 15000);
    };
  }

  stop(): void {
    this.closed = true;
    this.ws?.close();
  }

  /** Connects again after `stop` (with the session set since). */
  restart(): void {
    this.closed = false;
    this.delay = 500;
    this.start();
  }
}
