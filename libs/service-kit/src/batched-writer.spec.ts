import { describe, expect, it } from '@jest/globals';
import { BatchedWriter, type WriteSync } from './batched-writer.js';

/** A writer into memory that takes at most `chunk` bytes per call, failing as `failures` say. */
function sink(chunk = Infinity, failures: string[] = []) {
  const written: string[] = [];
  let calls = 0;
  const write: WriteSync = (bytes, offset) => {
    calls += 1;
    const code = failures.shift();
    if (code) throw Object.assign(new Error(code), { code });
    const end = Math.min(bytes.length, offset + chunk);
    written.push(bytes.subarray(offset, end).toString());
    return end - offset;
  };
  return { write, text: () => written.join(''), calls: () => calls };
}

describe('BatchedWriter', () => {
  it('keeps lines until a batch is full, then writes them in one call', () => {
    const out = sink();
    const writer = new BatchedWriter({ batchBytes: 20, flushMs: 60_000, write: out.write });
    writer.write('line one\n');
    writer.write('line two\n');
    expect(out.calls()).toBe(0);
    writer.write('line three\n');
    expect(out.calls()).toBe(1);
    expect(out.text()).toBe('line one\nline two\nline three\n');
  });

  it('writes a lone line after flushMs', async () => {
    const out = sink();
    const writer = new BatchedWriter({ batchBytes: 1000, flushMs: 5, write: out.write });
    writer.write('alone\n');
    expect(out.text()).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(out.text()).toBe('alone\n');
  });

  it('flush() writes what is kept, whole, across partial writes', () => {
    const out = sink(3);
    const writer = new BatchedWriter({ batchBytes: 1000, flushMs: 60_000, write: out.write });
    writer.write('{"a":1}\n');
    writer.write('{"é":2}\n');
    writer.flush();
    expect(out.text()).toBe('{"a":1}\n{"é":2}\n');
    writer.flush(); // nothing kept: no write
    expect(out.calls()).toBe(Math.ceil(Buffer.byteLength('{"a":1}\n{"é":2}\n') / 3));
  });

  it('waits for a full pipe (EAGAIN) and writes everything', () => {
    const out = sink(Infinity, ['EAGAIN', 'EAGAIN']);
    const pauses: number[] = [];
    const writer = new BatchedWriter({
      batchBytes: 1000,
      flushMs: 60_000,
      write: out.write,
      pause: (ms) => void pauses.push(ms),
    });
    writer.write('x\n');
    writer.flush();
    expect(pauses).toHaveLength(2);
    expect(out.text()).toBe('x\n');
  });

  it('stops writing after any other failure (EPIPE: the reader has gone), never retrying', () => {
    const out = sink(Infinity, ['EPIPE']);
    const writer = new BatchedWriter({ batchBytes: 1000, flushMs: 60_000, write: out.write });
    writer.write('lost\n');
    writer.flush();
    writer.write('after\n');
    writer.flush();
    expect(out.calls()).toBe(1);
    expect(out.text()).toBe('');
  });
});
