/**
 * A provider endpoint on this machine (Ollama, LM Studio, llama.cpp at localhost): when it refuses the
 * connection, nothing is listening, so retrying for seconds does not help and the error says what to
 * start. `agent models` says "not answering" for the same case (server-probe.ts).
 */
import type { StreamEvent, StreamFn } from "../../kernel/conversation/stream.ts";

/** Whether a base URL names this machine: localhost, 127.0.0.0/8, ::1 or 0.0.0.0. */
export function isLoopbackUrl(baseUrl: string | undefined): boolean {
  if (baseUrl === undefined) return false;
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === "[::1]" ||
    host === "0.0.0.0"
  );
}

/** What to check when the endpoint `name` at `baseUrl` refuses the connection. */
export function refusedHint(name: string, baseUrl: string): string {
  let origin = baseUrl;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    // Not a URL: name it as given.
  }
  // `ollama serve` starts the server: the command Ollama's own service unit runs
  // (`ExecStart=/usr/bin/ollama serve`, build.opensuse.org ollama.service; ollama/ollama docs/linux.md).
  if (name === "ollama") return `is Ollama running at ${origin}? (start it with \`ollama serve\`)`;
  return `is the ${name} server at ${origin} running?`;
}

/** Adds `hint` to the message of every refused-connection error the stream reports. */
export function withRefusedHint(stream: StreamFn, hint: string): StreamFn {
  return async function* hinting(request): AsyncGenerator<StreamEvent> {
    for await (const event of stream(request)) {
      if (event.type === "error" && event.error.connectionRefused) {
        const message = `${event.error.message.replace(/\.$/, "")}; ${hint}`;
        yield { ...event, error: { ...event.error, message } };
      } else yield event;
    }
  };
}
