/** The rules of the real Anthropic API that the fake server enforces (see fake-rules.ts). */
import type { FakeRule } from "./fake-rules.ts";

export const anthropicRules: FakeRule[] = [];
