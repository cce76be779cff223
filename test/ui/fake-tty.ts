import { EventEmitter } from "node:events";

/** A terminal-like stdout that records what Ink writes. */
export class FakeTtyOut extends EventEmitter {
  readonly isTTY = true;
  columns = 100;
  rows = 40;
  chunks: string[] = [];
  write(chunk: string, callback?: () => void): boolean {
    this.chunks.push(String(chunk));
    callback?.();
    return true;
  }
  get text(): string {
    return this.chunks.join("");
  }
  asStream(): NodeJS.WriteStream {
    return this as unknown as NodeJS.WriteStream;
  }
}

/** A terminal-like stdin that records raw-mode changes; `press` sends keys. */
export class FakeTtyIn extends EventEmitter {
  readonly isTTY = true;
  rawModes: boolean[] = [];
  private data: string | null = null;
  setRawMode(mode: boolean): this {
    this.rawModes.push(mode);
    return this;
  }
  setEncoding(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  read(): string | null {
    const { data } = this;
    this.data = null;
    return data;
  }
  press(data: string): void {
    this.data = data;
    this.emit("readable");
    this.emit("data", data);
  }
  asStream(): NodeJS.ReadStream {
    return this as unknown as NodeJS.ReadStream;
  }
}
