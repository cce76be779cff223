import { describe, expect, test } from "bun:test";
import { createInkRenderer, type InkRendererOptions } from "../../../../src/ui/ink/run/ink-renderer.tsx";
import { FakeTtyIn, FakeTtyOut } from "../../fake-tty.ts";
import { approvalRequest, finishedRun, sampleRun, tick } from "../../fixtures.ts";

/** The Ink renderer on fake terminals (colors off, a flush every 5 ms), with the options a test adds. */
function rendererOnFakeTty(options: Partial<InkRendererOptions> = {}) {
  const stdout = new FakeTtyOut();
  const stdin = new FakeTtyIn();
  const renderer = createInkRenderer({
    colors: false,
    stdout: stdout.asStream(),
    stdin: stdin.asStream(),
    stderr: new FakeTtyOut().asStream(),
    patchConsole: false,
    flushMs: 5,
    ...options,
  });
  return { stdout, stdin, renderer };
}

describe("Ink renderer", () => {
  test("renders events, asks through its approver, prints the summary and releases the terminal", async () => {
    const { stdout, stdin, renderer } = rendererOnFakeTty({ costOf: () => 0.001 });
    expect(renderer.kind).toBe("ink");
    for (const event of sampleRun()) renderer.onEvent(event);
    await tick();
    // Raw mode while the run goes on: Esc (and Ctrl-C) arrive as keys that interrupt it.
    expect(stdin.rawModes).toEqual([true]);

    const decision = renderer.approver.decide(approvalRequest("r1"), new AbortController().signal);
    await tick();
    expect(stdin.rawModes).toContain(true);
    stdin.press("y");
    expect(await decision).toEqual({ kind: "once" });

    await renderer.finish(finishedRun());
    expect(stdin.rawModes[stdin.rawModes.length - 1]).toBe(false);
    const text = stdout.text;
    expect(text).toContain("delegating to code-editor: fix src/x.ts");
    expect(text).toContain("■ success (stop)");
    expect(text).toContain("session s-1");
    renderer.onEvent(sampleRun()[0]!); // after finish: ignored, no throw
    renderer.dispose();
  });
});

describe("Ink renderer keys", () => {
  test("Esc while the run goes on interrupts through onInterrupt; so does Ctrl-C", async () => {
    const keys: (string | undefined)[] = [];
    const { stdin, renderer } = rendererOnFakeTty({ onInterrupt: (key) => keys.push(key) });
    for (const event of sampleRun()) renderer.onEvent(event);
    await tick();
    stdin.press("\u001b");
    await tick();
    stdin.press("\u0003");
    await tick();
    expect(keys).toEqual(["escape", "ctrl-c"]);
    await renderer.finish(finishedRun());
  });
});

describe("Ink renderer finish", () => {
  test("a second finish (a forcing Ctrl-C while the run's end is drawn) resolves only once the summary is out", async () => {
    const { stdout, renderer } = rendererOnFakeTty();
    for (const event of sampleRun()) renderer.onEvent(event);
    await tick();
    const first = renderer.finish(finishedRun());
    // Called while the first is still drawing: whatever it is given, it waits for the same end.
    const second = renderer.finish({ ...finishedRun(), status: "interrupted", finishReason: "aborted" });
    await second;
    expect(stdout.text).toContain("■ success (stop)");
    expect(stdout.text).not.toContain("interrupted (aborted)");
    await first;
  });
});
