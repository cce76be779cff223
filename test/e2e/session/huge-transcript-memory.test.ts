/**
 * `sessions list` reads a huge transcript (test/support/huge-transcript.ts, about 50 MB) with bounded
 * memory: the peak RSS of a separate Bun process that lists it. What the listing says is checked in
 * process, in test/session/huge-transcript.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { writeHugeTranscript } from "../../support/huge-transcript.ts";

let dir: string;

beforeAll(() => {
  dir = writeHugeTranscript();
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a transcript with lines of tens of megabytes", () => {
  test("is listed with bounded memory (peak RSS of a separate process)", () => {
    const script = `
      import { listSessions } from ${JSON.stringify(join(import.meta.dir, "../../../src/session/session-summary.ts"))};
      const [s] = listSessions({ dir: ${JSON.stringify(dir)} });
      // VmHWM: the peak RSS of this process image (getrusage's maxrss survives exec: it would be the parent's).
      const hwm = /VmHWM:\\s+(\\d+) kB/.exec(require("node:fs").readFileSync("/proc/self/status", "utf8"));
      console.log(JSON.stringify({ turns: s.turns, maxRssKb: Number(hwm?.[1]) }));
    `;
    const run = Bun.spawnSync(["bun", "-e", script], { stdout: "pipe", stderr: "pipe" });
    expect(run.stderr.toString()).toBe("");
    const out = JSON.parse(run.stdout.toString()) as { turns: number; maxRssKb: number };
    expect(out.turns).toBe(2);
    // The file is about 50 MB; bun itself needs some 40 MB. Reading it whole took several times its size.
    expect(out.maxRssKb).toBeLessThan(100 * 1024);
  });
});
