import { writeSync } from 'node:fs';

/** Writes bytes synchronously, returning how many were written (fs.writeSync of one fd). */
export type WriteSync = (bytes: Buffer, offset: number) => number;

export interface BatchedWriterOptions {
  /** Bytes kept before a batch is written at once. */
  batchBytes: number;
  /** The longest a line is kept when fewer than a batch come in. */
  flushMs: number;
  write: WriteSync;
  /** Waits before a write that failed with EAGAIN is tried again (the pipe is full). */
  pause?: (ms: number) => void;
}

const EAGAIN_PAUSE_MS = 10;
const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Lines kept in memory and written synchronously in batches: once `batchBytes` are kept, or
 * `flushMs` after the first kept line (an unref'd timer: it never keeps a process alive), or when
 * `flush()` is called. A full pipe (EAGAIN) is waited for, as pino's synchronous destination
 * does; any other failure (EPIPE: nobody reads any more) drops the batch and stops the writing,
 * so a flush at exit can never loop (sonic-boom's flushSync retries every error forever).
 */
export class BatchedWriter {
  private kept: string[] = [];
  private bytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private broken = false;

  constructor(private readonly options: BatchedWriterOptions) {}

  /** pino's destination interface: one line (with its newline) per call. */
  write(line: string): void {
    if (this.broken) return;
    this.kept.push(line);
    this.bytes += line.length;
    if (this.bytes >= this.options.batchBytes) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.options.flushMs).unref();
  }

  /** Writes what is kept now. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.kept.length === 0) return;
    const bytes = Buffer.from(this.kept.join(''));
    this.kept = [];
    this.bytes = 0;
    if (this.broken) return;
    const pause = this.options.pause ?? sleep;
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += this.options.write(bytes, offset);
      } catch (err) {
        if ((err as { code?: string }).code === 'EAGAIN') {
          pause(EAGAIN_PAUSE_MS);
          continue;
        }
        this.broken = true;
        return;
      }
    }
  }
}

/** A BatchedWriter on a file descriptor (1: standard output). */
export function batchedFd(fd: number, batchBytes: number, flushMs: number): BatchedWriter {
  return new BatchedWriter({
    batchBytes,
    flushMs,
    write: (bytes, offset) => writeSync(fd, bytes, offset, bytes.length - offset),
  });
}
