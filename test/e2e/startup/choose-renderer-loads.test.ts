/**
 * The headless and JSON renderers never load Ink: chooseRenderer runs in a fresh Bun process, which then
 * reports whether any Ink module got loaded. The renderers themselves are tested in process:
 * test/ui/choose-renderer.test.ts.
 */
import { describe, expect, test } from "bun:test";

const RENDERER = new URL("../../../src/ui/renderer.ts", import.meta.url).pathname;

/** Runs chooseRenderer in a fresh process and reports whether Ink got loaded. */
function loadsInk(output: string, stdinIsTTY: boolean): { kind: string; ink: boolean } {
  const script = `
    const { chooseRenderer } = await import(${JSON.stringify(RENDERER)});
    const r = await chooseRenderer({ output: ${JSON.stringify(output)}, stdinIsTTY: ${stdinIsTTY}, stdoutIsTTY: true,
      stderrIsTTY: false, noColor: true });
    const ink = Object.keys(require.cache).some((k) => k.includes("node_modules/ink/"));
    console.log(JSON.stringify({ kind: r.kind, ink }));
  `;
  const proc = Bun.spawnSync([process.execPath, "-e", script], { stdin: "ignore" });
  return JSON.parse(proc.stdout.toString().trim().split("\n").pop() ?? "{}");
}

describe("chooseRenderer", () => {
  test("headless and JSON paths never load Ink", () => {
    expect(loadsInk("text", false)).toEqual({ kind: "plain", ink: false });
    expect(loadsInk("json", true)).toEqual({ kind: "json", ink: false });
    expect(loadsInk("stream-json", true)).toEqual({ kind: "stream-json", ink: false });
  });
});
