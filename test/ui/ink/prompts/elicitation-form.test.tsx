/**
 * An MCP server's form on the terminal: the Ink app shows it through the InkApprover (the approval
 * channel), pre-filled with the schema defaults (SEP-1034); Enter goes field by field and accepts on the
 * last, Esc declines, an aborted run removes the form and rejects (the server reads `cancel`).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { cleanup } from "ink-testing-library";
import type {
  ElicitationAnswer,
  ElicitationQuestion,
} from "../../../../src/kernel/run-events/elicitation.ts";
import { formFields } from "../../../../src/tools/mcp/elicitation-form.ts";
import { InkApprover } from "../../../../src/ui/ink/prompts/ink-approver.ts";
import { UiStore } from "../../../../src/ui/ink/state/store.ts";
import { approvalRequest, tick } from "../../fixtures.ts";
import { renderRunApp } from "../../mount-app.tsx";

afterEach(() => cleanup());

const ENTER = "\r";
const ESC = "\u001b";

function question(
  id: string,
  properties: Record<string, unknown>,
  required: string[] = [],
): ElicitationQuestion {
  const form = formFields({ type: "object", properties, required });
  if ("error" in form) throw new Error(form.error);
  return {
    id,
    server: "everything",
    message: "Please provide inputs\u001b[2J for the following fields:",
    fields: form.fields,
  };
}

const DEFAULTS = {
  name: { type: "string", title: "Name", default: "John Doe" },
  age: { type: "integer", default: 30, minimum: 1, maximum: 120 },
  status: { type: "string", enum: ["active", "inactive"], default: "active" },
  verified: { type: "boolean", default: true },
};

function mount() {
  const store = new UiStore({ flushMs: 5 });
  const approver = new InkApprover(store);
  let interrupts = 0;
  const app = renderRunApp(store, { approver, onInterrupt: () => interrupts++ });
  return { ...app, approver, interrupts: () => interrupts };
}

/** Waits until the screen shows `text` (a render is asynchronous), at most about 3 s. */
async function until(frame: () => string | undefined, text: string, shown = true): Promise<string> {
  for (let i = 0; i < 100 && (frame() ?? "").includes(text) !== shown; i++) await tick(30);
  return frame() ?? "";
}

describe("MCP form on the terminal", () => {
  test("names the server, shows its message made terminal-safe and every default pre-filled", async () => {
    const { approver, lastFrame } = mount();
    void approver.elicit(question("q1", DEFAULTS), new AbortController().signal);
    const frame = await until(lastFrame, "everything");
    expect(frame).toContain("MCP server everything asks you to fill in a form");
    expect(frame).toContain("Please provide inputs for the following fields:");
    expect(frame).not.toContain("\u001b[2J");
    expect(frame).toContain("Name: John Doe");
    expect(frame).toContain("age (integer 1–120): 30");
    expect(frame).toContain("status: ‹ active ›");
    expect(frame).toContain("verified: [x] yes");
    expect(frame).toContain("Esc decline");
  });

  test("Enter on each field accepts the form as pre-filled", async () => {
    const { approver, lastFrame, stdin } = mount();
    const answer = approver.elicit(question("q2", DEFAULTS), new AbortController().signal);
    await until(lastFrame, "John Doe");
    for (let i = 0; i < 4; i++) {
      stdin.write(ENTER);
      await tick();
    }
    expect(await answer).toEqual({
      action: "accept",
      drafts: { name: "John Doe", age: "30", status: "active", verified: true },
    });
    expect(await until(lastFrame, "fill in a form", false)).not.toContain("fill in a form");
  });

  test("edits: typing, Space toggles, → picks the next choice; a required empty field stops Enter with its reason", async () => {
    const { approver, lastFrame, stdin } = mount();
    const answer = approver.elicit(
      question("q3", { who: { type: "string" }, ...DEFAULTS }, ["who"]),
      new AbortController().signal,
    );
    await until(lastFrame, "who*");
    stdin.write(ENTER);
    expect(await until(lastFrame, "who is required")).toContain("who is required");
    stdin.write("Ada");
    await until(lastFrame, "who*: Ada");
    for (const key of [ENTER, ENTER, ENTER, "\u001b[C", ENTER, " ", ENTER]) {
      stdin.write(key);
      await tick();
    }
    expect(await answer).toEqual({
      action: "accept",
      drafts: { who: "Ada", name: "John Doe", age: "30", status: "inactive", verified: false },
    });
  });

  test("Esc declines without interrupting the run", async () => {
    const { approver, lastFrame, stdin, interrupts } = mount();
    const answer = approver.elicit(question("q4", DEFAULTS), new AbortController().signal);
    await until(lastFrame, "John Doe");
    stdin.write(ESC);
    expect(await answer).toEqual({ action: "decline" } satisfies ElicitationAnswer);
    expect(interrupts()).toBe(0);
  });

  test("an aborted run takes the form off the screen and rejects", async () => {
    const { approver, lastFrame } = mount();
    const controller = new AbortController();
    const answer = approver.elicit(question("q5", DEFAULTS), controller.signal);
    await until(lastFrame, "John Doe");
    controller.abort(new Error("interrupted"));
    await expect(answer).rejects.toThrow("interrupted");
    expect(await until(lastFrame, "fill in a form", false)).not.toContain("fill in a form");
  });

  test("the server gets its own values back, not the terminal-safe copy the form shows", async () => {
    const { approver, lastFrame, stdin } = mount();
    const answer = approver.elicit(
      question("q6", { pick: { type: "string", enum: ["a\u0007", "b"], default: "a\u0007" } }),
      new AbortController().signal,
    );
    await until(lastFrame, "pick");
    stdin.write(ENTER);
    expect(await answer).toEqual({ action: "accept", drafts: { pick: "a\u0007" } });
  });

  test("an approval that comes while a form is open waits behind it; the typed text stays", async () => {
    const { approver, lastFrame, stdin } = mount();
    const answer = approver.elicit(question("q7", { who: { type: "string" } }), new AbortController().signal);
    await until(lastFrame, "who:");
    stdin.write("Ada");
    await until(lastFrame, "who: Ada");
    const decision = approver.decide(approvalRequest("r1"), new AbortController().signal);
    expect(await until(lastFrame, "(1 more waiting)")).toContain("who: Ada");
    expect(lastFrame()).not.toContain("wants to run");
    stdin.write(ENTER);
    expect(await answer).toEqual({ action: "accept", drafts: { who: "Ada" } });
    expect(await until(lastFrame, "wants to run")).toContain("wants to run edit_file");
    stdin.write("y");
    expect(await decision).toEqual({ kind: "once" });
  });
});
