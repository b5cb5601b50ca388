// Transient state as kubectl, ps and free print it: readings that are true only at the moment they were taken.
import type { Rng } from '../rng.js';
import { clock, NOUNS } from './vocab.js';

export interface PodState {
  readonly content: string;
  readonly pod: string;
  readonly restarts: number;
  readonly reason: string;
}

export function kubectlPods(r: Rng, app: string, rows: number): PodState {
  const lines = ['NAME                                READY   STATUS             RESTARTS        AGE'];
  let first: PodState | undefined;
  for (let i = 0; i < Math.max(1, rows); i += 1) {
    const pod = `${app}-${r.hex(10)}-${r.hex(5)}`;
    const crash = i === 0 || r.chance(0.2);
    const restarts = crash ? r.int(3, 40) : 0;
    const status = crash ? r.pick(['CrashLoopBackOff', 'OOMKilled', 'Error']) : 'Running';
    lines.push(
      `${pod.padEnd(36)}${crash ? '0/1' : '1/1'}     ${status.padEnd(19)}${`${restarts}${crash ? ` (${r.int(5, 59)}s ago)` : ''}`.padEnd(16)}${r.int(2, 90)}m`,
    );
    if (!first) first = { content: '', pod, restarts, reason: status };
  }
  return { ...first!, content: lines.join('\n') };
}

export function psAux(r: Rng, command: string, rows: number): { content: string; pid: number } {
  const lines = ['USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND'];
  const pid = r.int(1000, 99999);
  lines.push(
    `app      ${String(pid).padStart(7)} ${r.int(10, 99)}.${r.int(0, 9)}  ${r.int(1, 30)}.${r.int(0, 9)} ${r.int(100000, 9000000)} ${r.int(10000, 900000)} ?        Sl   ${clock(r.int(0, 86399)).slice(0, 5)}   ${r.int(0, 59)}:${String(r.int(0, 59)).padStart(2, '0')} ${command}`,
  );
  for (let i = 1; i < rows; i += 1)
    lines.push(
      `${r.pick(['root', 'app', 'postgres'])}     ${String(r.int(1, 99999)).padStart(7)}  ${r.int(0, 9)}.${r.int(0, 9)}  ${r.int(0, 9)}.${r.int(0, 9)} ${r.int(10000, 900000)} ${r.int(1000, 90000)} ?        S    ${clock(r.int(0, 86399)).slice(0, 5)}   0:0${r.int(0, 9)} ${r.pick(['/usr/sbin/sshd -D', 'postgres: checkpointer', '/usr/bin/containerd', `node dist/${r.pick(NOUNS)}.js`, 'nginx: worker process'])}`,
    );
  return { content: lines.join('\n'), pid };
}

export function freeM(r: Rng): { content: string; available: number } {
  const total = r.pick([7937, 15995, 32092, 64289]);
  const used = r.int(Math.round(total * 0.3), Math.round(total * 0.95));
  const free = r.int(50, Math.max(60, total - used));
  const cache = Math.max(0, total - used - free);
  const available = free + Math.round(cache * 0.8);
  return {
    content: [
      '               total        used        free      shared  buff/cache   available',
      `Mem:    ${String(total).padStart(12)}${String(used).padStart(12)}${String(free).padStart(12)}${String(r.int(10, 500)).padStart(12)}${String(cache).padStart(12)}${String(available).padStart(12)}`,
      `Swap:   ${String(2047).padStart(12)}${String(r.int(0, 2047)).padStart(12)}${String(r.int(0, 2047)).padStart(12)}`,
    ].join('\n'),
    available,
  };
}
