/**
 * Whether a keyless OpenAI-compatible server (a local Ollama) actually answers: one bounded GET of its
 * model list, `BASE_URL/models`. Ollama serves the OpenAI-compatible list at `/v1/models` (the built-in
 * base URL ends in `/v1`; docs.ollama.com/api/openai-compatibility lists `/v1/models` among the
 * supported endpoints). Never throws: a refused connection, a timeout or a non-2xx status is "no".
 */

/** How long a probe waits: a local server answers in milliseconds; a closed port fails at once. */
export const PROBE_TIMEOUT_MS = 1500;

export async function serverAnswers(baseUrl: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl.replace(/\/+$/, "")}/models`, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: "application/json" },
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
