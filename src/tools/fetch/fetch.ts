/**
 * fetch {url}: GETs an http(s) URL and returns its text (HTML reduced to text). Every hop, the first and
 * each redirect (followed by hand, at most 5), is checked by the network guard after DNS resolution, and
 * each redirect is put to the approval policy like a fetch of its own (ToolContext.approveRedirect).
 */

import { isIP } from "node:net";
import { z } from "zod";
import { definePrimitive } from "../define.ts";
import type { Primitive, ToolContext } from "../types.ts";
import { htmlToText } from "./html-text.ts";
import { checkHost, type LookupAll } from "./net-guard.ts";

export const MAX_REDIRECTS = 5;
/** Bytes of a response body read at most. */
export const FETCH_MAX_BYTES = 5 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface FetchToolOptions {
  /** DNS resolution used by the guard (default: the system resolver, every address). */
  lookup?: LookupAll;
  /** Origins allowed even at private addresses, in addition to `ToolContext.allowPrivateOrigins`. */
  allowPrivateOrigins?: string[];
  timeoutMs?: number;
}

const schema = z.object({
  url: z.string().min(1).describe("The http:// or https:// URL to fetch."),
});
export type FetchArgs = z.infer<typeof schema>;

/** Builds the fetch primitive; options make the guard's DNS lookup and allow-list injectable. */
export function createFetchTool(options: FetchToolOptions = {}): Primitive<FetchArgs> {
  return definePrimitive<FetchArgs>({
    name: "fetch",
    description:
      "Fetch a web page or file over http(s) with GET and return its text; HTML is reduced to readable " +
      "text. Follows up to 5 redirects. Private, loopback and link-local addresses are refused.",
    schema,
    readOnly: true,
    async policyTarget(args) {
      return { targets: [args.url], sensitive: false };
    },
    async preview(args) {
      return args.url;
    },
    async run(args, ctx) {
      const origins = [...(options.allowPrivateOrigins ?? []), ...(ctx.allowPrivateOrigins ?? [])];
      const signal = AbortSignal.any([
        ctx.signal,
        AbortSignal.timeout(options.timeoutMs ?? FETCH_TIMEOUT_MS),
      ]);
      let url = parseHttpUrl(args.url);
      for (let hop = 0; ; hop++) {
        // A rule lifts the guard for its origin only: `fetch:http://localhost:8080/*` not port 9999.
        const checked = await checkHost(url.hostname, {
          allowHosts: origins.includes(url.origin) ? [url.hostname] : [],
          ...(options.lookup ? { lookup: options.lookup } : {}),
        });
        if (hop > 0) await followable(url, args.url, ctx);
        const { target, host } = pinned(url, checked[0]);
        const response = await fetch(target, {
          redirect: "manual",
          signal,
          headers: {
            "user-agent": "agent-cli/0.1",
            accept: "text/html,text/plain,application/json,*/*;q=0.5",
            ...(host ? { host } : {}),
          },
        });
        const location = response.headers.get("location");
        if (REDIRECTS.has(response.status) && location) {
          await response.body?.cancel();
          if (hop >= MAX_REDIRECTS)
            throw new Error(`too many redirects (more than ${MAX_REDIRECTS}) from ${args.url}`);
          url = parseHttpUrl(new URL(location, url).href);
          continue;
        }
        return describe(url.href, response, await readCapped(response, FETCH_MAX_BYTES));
      }
    },
  });
}

export const fetchTool = createFetchTool();

/** Throws unless the policy lets fetch follow a redirect to `url` (a new fetch as far as rules go). */
async function followable(url: URL, first: string, ctx: ToolContext): Promise<void> {
  if (ctx.approveRedirect === undefined) {
    if (url.origin === new URL(first).origin) return;
    throw new Error(`${first} redirected to ${url.href}, another origin; fetch that URL to follow it`);
  }
  const refusal = await ctx.approveRedirect(url.href);
  if (refusal !== undefined)
    throw new Error(`${first} redirected to ${url.href}, which was not followed: ${refusal}`);
}

/**
 * For plain http, connect to the address the guard checked (with the original Host header) so a second
 * DNS answer cannot point elsewhere (DNS rebinding). https keeps the name: its certificate check needs it,
 * and a rebound address would have to present a valid certificate for that name.
 */
function pinned(url: URL, address: string | undefined): { target: URL; host?: string } {
  if (url.protocol !== "http:" || address === undefined || isIP(url.hostname.replace(/^\[|\]$/g, ""))) {
    return { target: url };
  }
  const target = new URL(url.href);
  target.hostname = isIP(address) === 6 ? `[${address}]` : address;
  return { target, host: url.host };
}

function parseHttpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`not a valid URL: ${text}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`only http and https URLs can be fetched, not ${url.protocol} (${text})`);
  }
  return url;
}

async function readCapped(response: Response, limit: number): Promise<{ bytes: Uint8Array; cut: boolean }> {
  const reader = response.body?.getReader();
  if (!reader) return { bytes: new Uint8Array(), cut: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.length > limit) {
      chunks.push(value.subarray(0, limit - size));
      size = limit;
      cut = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    size += value.length;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { bytes, cut };
}

function describe(href: string, response: Response, body: { bytes: Uint8Array; cut: boolean }) {
  const type = response.headers.get("content-type") ?? "";
  const mime = type.split(";")[0]?.trim().toLowerCase() ?? "";
  const isText = mime === "" || /^text\/|json|xml|javascript|yaml|csv|markdown/.test(mime);
  let text: string;
  if (!isText) text = `(binary content of type ${mime}, ${body.bytes.length} bytes, not shown)`;
  else {
    const raw = new TextDecoder().decode(body.bytes);
    text = mime.includes("html") ? htmlToText(raw) : raw;
  }
  if (body.cut) text += `\n\n[response cut after ${FETCH_MAX_BYTES} bytes]`;
  const header = `URL: ${href}\nStatus: ${response.status} ${response.statusText}\nContent-Type: ${type || "unknown"}`;
  const kb = (body.bytes.length / 1024).toFixed(1);
  return {
    modelText: `${header}\n\n${text}`,
    display: `GET ${href} -> ${response.status} ${mime || "unknown"} (${kb} KB)`,
    isError: response.status >= 400,
  };
}
