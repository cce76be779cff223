/** The rules of the real Openai API that the fake server enforces (see fake-rules.ts). */
import type { FakeRule } from "./fake-rules.ts";

export const openaiRules: FakeRule[] = [];
