/**
 * Every process group a live run started, so that none outlives the command: groups are
 * killed when their server is done, on timeout, on Ctrl-C (see run.ts) and, as a last
 * resort, when the process exits.
 */

const groups = new Set<number>();
let exitHookInstalled = false;

/** Signal a whole process group (the server and every child it started); false if it is gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    if (process.platform === 'win32') process.kill(pgid, signal);
    else process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

export function registerGroup(pgid: number): void {
  groups.add(pgid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Synchronous last resort: whatever ends the process, no server group survives it.
    process.on('exit', () => {
      for (const g of groups) signalGroup(g, 'SIGKILL');
    });
  }
}

export function unregisterGroup(pgid: number): void {
  groups.delete(pgid);
}

/** Kill every group still registered (an interrupted run). */
export function killAllGroups(): void {
  for (const g of groups) signalGroup(g, 'SIGKILL');
}

let escaped = 0;

/** A server's stdout stayed open after its whole group was killed: a process it started left the group. */
export function noteEscaped(): void {
  escaped++;
}

/** How many servers left a process behind that escaped their group (see noteEscaped). */
export function escapedCount(): number {
  return escaped;
}

/** The end of the "interrupted" line: what became of the servers started. */
export function stoppedSummary(all: string): string {
  return escaped === 0 ? all : `${all}, except what ${escaped === 1 ? 'a server' : `${escaped} servers`} started outside its process group (setsid or detached), which may still be running`;
}
