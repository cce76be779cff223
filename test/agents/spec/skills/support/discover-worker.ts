/**
 * Skill discovery on a thread of its own: the test thread stays free, so bun's per-test timeout fires
 * (and fails the test) while a backtracking parse is still running here. Posts the skills' descriptions
 * by name and the warnings.
 */
import { discoverSkills } from "../../../../../src/agents/spec/skills/discover.ts";

declare const self: Worker;

self.onmessage = async (
  event: MessageEvent<{ workspaceRoot: string; home: string; env: Record<string, string> }>,
) => {
  const set = await discoverSkills(event.data);
  const descriptions = Object.fromEntries([...set.skills].map(([name, skill]) => [name, skill.description]));
  self.postMessage({ descriptions, warnings: set.warnings });
};
