/**
 * A one-line progress display on stderr (servers done / total, the ones still running),
 * only when stderr is a terminal: logs and CI output stay clean, stdout is untouched.
 */
import { oneLine, shorten } from '../../util/text.js';

export interface Progress {
  start(label: string): void;
  finish(label: string): void;
  end(): void;
}

const NONE: Progress = { start() {}, finish() {}, end() {} };

export function createProgress(stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }, total: number): Progress {
  if (!stream.isTTY || total === 0) return NONE;
  let done = 0;
  const running: string[] = [];
  let shown = false;
  const render = () => {
    const names = running.map((n) => oneLine(n)).join(', ');
    let line = `mcp-annotate: ${done}/${total} servers done${names ? ` · running: ${names}` : ''}`;
    // A terminal that reports no size (0 columns: a pseudo-terminal nobody sized) gets 80.
    const width = (stream.columns || 80) - 1;
    line = shorten(line, Math.max(1, width));
    stream.write(`\r\x1b[2K${line}`);
    shown = true;
  };
  return {
    start(label) {
      running.push(label);
      render();
    },
    finish(label) {
      const i = running.indexOf(label);
      if (i !== -1) running.splice(i, 1);
      done++;
      render();
    },
    end() {
      if (shown) stream.write('\r\x1b[2K');
    },
  };
}
