import { expect, test } from "bun:test";
import { OLLAMA_DEFAULT_BASE_URL, ollamaBaseUrl } from "../../../src/llm/local/ollama-host.ts";

// OLLAMA_HOST forms and the address Ollama itself derives from them (ollama/ollama envconfig/config.go,
// getOllamaHost), plus the OpenAI-compatible /v1 path.
const CASES: [string | undefined, string][] = [
  [undefined, OLLAMA_DEFAULT_BASE_URL],
  ["", "http://localhost:11434/v1"],
  ["127.0.0.1", "http://127.0.0.1:11434/v1"],
  ["0.0.0.0:11434", "http://0.0.0.0:11434/v1"],
  ["gpu-box:8080", "http://gpu-box:8080/v1"],
  ["http://gpu-box", "http://gpu-box:80/v1"],
  ["https://ollama.example.com", "https://ollama.example.com:443/v1"],
  ["https://ollama.example.com:8443/", "https://ollama.example.com:8443/v1"],
  ['"gpu-box:9000"', "http://gpu-box:9000/v1"],
  [":11500", "http://127.0.0.1:11500/v1"],
  ["[::1]:11434", "http://[::1]:11434/v1"],
  ["::1", "http://[::1]:11434/v1"],
];

for (const [hostVar, expected] of CASES) {
  test(`OLLAMA_HOST=${JSON.stringify(hostVar)} -> ${expected}`, () => {
    expect(ollamaBaseUrl(hostVar)).toBe(expected);
  });
}
