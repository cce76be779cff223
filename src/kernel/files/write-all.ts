/**
 * writeSync until every byte is written. One write(2) may take only part of a line (a disk about to
 * fill, a signal): without the loop the rest is silently dropped and a JSONL file gets a torn line
 * with no error. With it, the next write raises the error (ENOSPC) for the caller to report.
 */
import { writeSync } from "node:fs";

export function writeAllSync(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
}
