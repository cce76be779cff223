/**
 * The built-in `ollama` provider: a local Ollama server's OpenAI-compatible endpoint, usable as
 * `ollama:MODEL` with no config and no key.
 *
 * - Path: Ollama serves the OpenAI-compatible API under `/v1` (`http://localhost:11434/v1`), and the
 *   key the OpenAI SDK insists on is "required but ignored" (docs.ollama.com/api/openai-compatibility;
 *   ollama/ollama docs/openai.md).
 * - OLLAMA_HOST is read as Ollama itself reads it (ollama/ollama envconfig/config.go, getOllamaHost):
 *   quotes and spaces trimmed; no scheme means http with port 11434; `http://` without a port means 80
 *   and `https://` 443; a missing host is 127.0.0.1; trailing slashes dropped.
 */

/** The base URL when OLLAMA_HOST is not set. */
export const OLLAMA_DEFAULT_BASE_URL = "http://localhost:11434/v1";

/** The OpenAI-compatible base URL of the Ollama server OLLAMA_HOST names (the default when unset). */
export function ollamaBaseUrl(hostVar: string | undefined): string {
  const value = (hostVar ?? "")
    .trim()
    .replace(/^["']+|["']+$/g, "")
    .trim();
  if (value === "") return OLLAMA_DEFAULT_BASE_URL;
  const schemeAt = value.indexOf("://");
  let scheme = "http";
  let defaultPort = "11434";
  let hostPort = value;
  if (schemeAt >= 0) {
    scheme = value.slice(0, schemeAt);
    hostPort = value.slice(schemeAt + 3);
    if (scheme === "http") defaultPort = "80";
    else if (scheme === "https") defaultPort = "443";
  }
  hostPort = hostPort.replace(/\/+$/, "");
  const { host, port } = splitHostPort(hostPort);
  return `${scheme}://${host || "127.0.0.1"}:${port ?? defaultPort}/v1`;
}

/** `host:port`, `[v6]:port`, `host`, `[v6]` or a bare IPv6 address. */
function splitHostPort(text: string): { host: string; port?: string } {
  const bracketed = /^\[([^\]]*)\](?::(\d+))?$/.exec(text);
  if (bracketed) return { host: `[${bracketed[1]}]`, ...(bracketed[2] ? { port: bracketed[2] } : {}) };
  const colons = text.split(":").length - 1;
  if (colons > 1) return { host: `[${text}]` };
  const hostPort = /^(.*):(\d+)$/.exec(text);
  if (hostPort) return { host: hostPort[1] ?? "", port: hostPort[2] ?? "" };
  return { host: text };
}
