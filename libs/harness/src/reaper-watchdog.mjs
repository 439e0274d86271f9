// The reaper's watchdog (see reaper.ts), in plain JS so that it runs on plain node.
//
// It reads one JSON message per line on stdin: {"op":"add","id":1,"label":"…","pid":123,
// "processGroup":false,"dir":"/tmp/…"} registers what to clean up, {"op":"release","id":1} forgets
// it. stdin ends when the process that started the watchdog exits, however it exits (SIGKILL
// included): then every process still registered gets SIGTERM (its process group when
// `processGroup`), SIGKILL if it is still there after the grace period (argv[2], ms), every
// directory still registered is removed, and the watchdog exits.
import { readFileSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

const graceMs = Number(process.argv[2] ?? 5000);
const entries = new Map();

/** A zombie (ended, not yet reaped by its parent) counts as gone. */
function zombie(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

function alive(entry) {
  const target = entry.processGroup ? -entry.pid : entry.pid;
  try {
    process.kill(target, 0);
    return entry.processGroup || !zombie(entry.pid);
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function signal(entry, name) {
  try {
    process.kill(entry.processGroup ? -entry.pid : entry.pid, name);
  } catch {
    // Already gone.
  }
}

async function waitGone(targets, ms) {
  const deadline = Date.now() + ms;
  while (targets.some(alive) && Date.now() < deadline) await sleep(100);
}

async function reap() {
  const targets = [...entries.values()].filter((e) => Number.isInteger(e.pid) && e.pid > 0);
  for (const entry of targets) {
    // A paused (SIGSTOPped) process handles SIGTERM only once it runs again.
    signal(entry, 'SIGCONT');
    signal(entry, 'SIGTERM');
  }
  await waitGone(targets, graceMs);
  for (const entry of targets.filter(alive)) signal(entry, 'SIGKILL');
  await waitGone(targets, 2000);
  for (const entry of entries.values()) {
    if (typeof entry.dir === 'string' && entry.dir) {
      try {
        rmSync(entry.dir, { recursive: true, force: true });
      } catch {
        // Nothing more to do about it.
      }
    }
  }
  process.exit(0);
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (message.op === 'add') entries.set(message.id, message);
  else if (message.op === 'release') entries.delete(message.id);
});
lines.once('close', () => void reap());
