/**
 * Chat that orients (issue 21 item 6, the src/ui parts): the opening screen (model, workspace, keys), the
 * `/` command list as the user types, the nearest command for an unknown one, and a status line that
 * starts over on /clear.
 */

import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, render } from "ink-testing-library";
import { emptyUsage } from "../../../../src/kernel/index.ts";
import { ChatController } from "../../../../src/ui/ink/chat/chat-controller.ts";
import { CHAT_HINT, ChatWelcome } from "../../../../src/ui/ink/chat/chat-welcome.tsx";
import { SlashCommandList } from "../../../../src/ui/ink/chat/slash-command-list.tsx";
import { UiStore } from "../../../../src/ui/ink/state/store.ts";
import {
  type ChatCommand,
  matchSlash,
  nearestCommand,
  unknownCommandText,
} from "../../../../src/ui/slash-commands.ts";
import { answeredTurn } from "../../fixtures.ts";
import { renderChatApp, until } from "../../mount-app.tsx";

afterEach(() => cleanup());

const COMMANDS: ChatCommand[] = [
  { name: "help", description: "this list" },
  { name: "clear", description: "start a new conversation" },
  { name: "model", description: "show or switch the model" },
  { name: "cost", description: "tokens and cost so far" },
  { name: "compact", description: "summarise the older part of the conversation" },
  { name: "quit", description: "leave" },
];

describe("the opening screen", () => {
  test("names the model, the workspace (home as ~) and the keys", () => {
    const { lastFrame } = render(
      <ChatWelcome
        model="anthropic:claude-haiku-5-5"
        workspace="/home/ada/greeter"
        home="/home/ada"
        tier="fast"
        colors={false}
      />,
    );
    const frame = lastFrame() ?? "";
    expect(frame).toContain("model anthropic:claude-haiku-5-5 (tier fast · /model to change)");
    expect(frame).toContain("workspace ~/greeter");
    expect(frame).toContain("/help · Esc interrupts · Ctrl-C twice quits");
    expect(CHAT_HINT).toBe("/help · Esc interrupts · Ctrl-C twice quits");
  });

  test("a continued chat says how many earlier messages it has; a path outside home is shown whole", () => {
    const { lastFrame } = render(
      <ChatWelcome model="m" workspace="/srv/app" home="/home/ada" resumed={4} colors={false} />,
    );
    const frame = lastFrame() ?? "";
    expect(frame).toContain("continuing (4 earlier messages)");
    expect(frame).toContain("workspace /srv/app");
  });

  test("the chat view opens with it first in the history, before any message", async () => {
    const store = new UiStore({ flushMs: 0 });
    store.dispatch({ type: "welcome", info: { model: "openai:gpt-6-mini", workspace: "/w" } });
    store.flush();
    const { lastFrame } = renderChatApp(store);
    await until(() => (lastFrame() ?? "").includes(CHAT_HINT), "the opening screen");
    const frame = lastFrame() ?? "";
    expect(frame).toContain("model openai:gpt-6-mini");
    expect(frame.indexOf("model openai:gpt-6-mini")).toBeLessThan(frame.indexOf("0 tokens"));
  });
});

describe("matching / commands", () => {
  test("`/` lists every command; a prefix filters them; arguments or plain text list nothing", () => {
    expect(matchSlash("/", COMMANDS)).toEqual({ kind: "list", commands: COMMANDS });
    const c = matchSlash("/c", COMMANDS);
    expect(c.kind === "list" ? c.commands.map((x) => x.name) : []).toEqual(["clear", "cost", "compact"]);
    expect(matchSlash("/CO", COMMANDS)).toMatchObject({ kind: "list" });
    expect(matchSlash("/model gpt", COMMANDS)).toEqual({ kind: "none" });
    expect(matchSlash("hello /model", COMMANDS)).toEqual({ kind: "none" });
  });

  test("an unknown command suggests the nearest by edit distance, and only when it is near", () => {
    expect(matchSlash("/mdoel", COMMANDS)).toEqual({
      kind: "unknown",
      typed: "mdoel",
      suggestion: { name: "model", description: "show or switch the model" },
    });
    expect(nearestCommand("clera", COMMANDS)?.name).toBe("clear");
    expect(nearestCommand("/hepl", COMMANDS)?.name).toBe("help");
    expect(nearestCommand("deploy", COMMANDS)).toBeUndefined();
    expect(matchSlash("/xyz", COMMANDS)).toEqual({ kind: "unknown", typed: "xyz" });
  });

  test("the line for an unknown command names the nearest, or points at /help", () => {
    expect(unknownCommandText("/mdoel", COMMANDS)).toBe("unknown command /mdoel: did you mean /model?");
    expect(unknownCommandText("deploy", COMMANDS)).toBe("unknown command /deploy: /help lists the commands");
  });
});

describe("the command list on screen", () => {
  test("lists the matching commands with their descriptions", () => {
    const { lastFrame } = render(
      <SlashCommandList input="/c" commands={COMMANDS} colors={false} columns={80} />,
    );
    const frame = lastFrame() ?? "";
    expect(frame).toMatch(/\/clear\s+start a new conversation/);
    expect(frame).toMatch(/\/cost\s+tokens and cost so far/);
    expect(frame).toMatch(/\/compact\s+summarise/);
    expect(frame).not.toContain("/model");
  });

  test("an unknown command shows the suggestion; past `max` the rest is counted", () => {
    const unknown = render(
      <SlashCommandList input="/mdoel" commands={COMMANDS} colors={false} columns={80} />,
    );
    expect(unknown.lastFrame()).toContain("unknown command /mdoel · did you mean /model?");
    const few = render(
      <SlashCommandList input="/" commands={COMMANDS} colors={false} columns={80} max={2} />,
    );
    expect(few.lastFrame()).toContain("+4 more");
    const none = render(<SlashCommandList input="hi" commands={COMMANDS} colors={false} columns={80} />);
    expect(none.lastFrame()).toBe("");
  });

  test("in the chat input: typing `/` shows the list, it filters as you type, and goes with a space", async () => {
    const store = new UiStore({ flushMs: 0 });
    const chat = new ChatController();
    const { lastFrame, stdin } = renderChatApp(store, { chat, commands: COMMANDS });
    void chat.next();
    await until(() => (lastFrame() ?? "").includes("Enter send"), "the input box");
    expect(lastFrame()).not.toContain("/compact");
    stdin.write("/");
    await until(() => (lastFrame() ?? "").includes("/compact"), "the command list");
    expect(lastFrame()).toContain("/quit");
    stdin.write("mo");
    await until(() => !(lastFrame() ?? "").includes("/compact"), "the list to filter");
    expect(lastFrame()).toMatch(/\/model\s+show or switch the model/);
    stdin.write("e");
    await until(() => (lastFrame() ?? "").includes("unknown command /moe"), "the unknown command");
    expect(lastFrame()).toContain("did you mean /model?");
    stdin.write(" x");
    await until(() => !(lastFrame() ?? "").includes("unknown command"), "the list to go");
  });
});

describe("/clear and the status line", () => {
  test("reset starts the status line over: no tokens, the model given", async () => {
    const store = new UiStore({ flushMs: 0 });
    const usage = { ...emptyUsage(), inputTokens: 1200, outputTokens: 300 };
    for (const event of answeredTurn("old-model", usage, "Hello.")) store.dispatch({ type: "event", event });
    store.flush();
    const { lastFrame } = renderChatApp(store, { showCost: true });
    await until(() => (lastFrame() ?? "").includes("1.5k tokens"), "the status line with usage");
    store.dispatch({ type: "reset", model: "new-model" });
    store.flush();
    await until(() => (lastFrame() ?? "").includes("new-model · 0 tokens · $0.0000"), "a fresh status line");
    expect(lastFrame()).not.toContain("old-model · ");
  });
});
