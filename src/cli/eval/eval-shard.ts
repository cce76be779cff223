/**
 * `--shard i/n`: the tasks whose suite position p (0-based) has p mod n = i - 1. Deterministic from the
 * suite alone, so n CI jobs given 1/n … n/n run every task exactly once, and `agent eval merge` puts
 * them back in suite order.
 */

import { ExitCode } from "../../kernel/index.ts";
import { CliExit } from "../shared/command-module.ts";

export interface Shard {
  index: number;
  count: number;
}

/** Parses `i/n` (1 <= i <= n); anything else is a usage error (exit 2). */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count)
    throw new CliExit(ExitCode.usage, `--shard ${text}: expected i/n with 1 <= i <= n, e.g. --shard 2/4`);
  return { index, count };
}

export function inShard(position: number, shard: Shard | undefined): boolean {
  return shard === undefined || position % shard.count === shard.index - 1;
}
