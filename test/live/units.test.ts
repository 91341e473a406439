/** The parts of live targets that need no server: variables, command lines, config shapes, discovery, progress. */
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../helpers/property.js';
import { tempDir, json } from '../helpers/cli.js';
import { ESCAPED_LETTERS_MAX, expand, hiddenRuns, masking, redact, redactJson, redactWindow, secretNeedles, VariableError } from '../../src/sources/live/vars.js';
import { excerpt } from '../../src/sources/live/errors.js';
import { parseEnvFile } from '../../src/sources/live/envfile.js';
import { lineSplitter } from '../../src/sources/live/connect.js';
import { displayUrl, isCredentialHeader, isKeySegment, isSecretSegment, parseHeader, querySecrets, splitCommandLine, targetsFromFlags } from '../../src/sources/live/targets.js';
import { targetsFromConfigText, targetsFromServerEntries, workspaceFolderOf } from '../../src/sources/live/config.js';
import { discoverConfigs, knownConfigLocations } from '../../src/sources/live/discover.js';
import { createProgress } from '../../src/sources/live/progress.js';
import { MAX_INDENTED_DEPTH, pickSnapshotFile, savedNote, snapshotFileName, snapshotMayReplace, snapshotText } from '../../src/sources/live/snapshot.js';
import { createLocator } from '../../src/sources/locate.js';
import { liveRepeatedKeys } from '../../src/sources/live/raw.js';

describe('variables', () => {
  const env = { TOKEN: 'tok-abcdef-123', EMPTY: '' };
  it('expands ${NAME}, ${env:NAME}, ${NAME:-default}, ${workspaceFolder}, ${userHome} and records secrets', () => {
    const secrets = new Set<string>();
    const ctx = { env, workspaceFolder: '/proj', userHome: '/home/u' };
    expect(expand('Bearer ${TOKEN} ${env:TOKEN} ${MISSING:-dflt} ${workspaceFolder}/x ${userHome}', ctx, secrets, 'h')).toBe(
      'Bearer tok-abcdef-123 tok-abcdef-123 dflt /proj/x /home/u',
    );
    expect([...secrets]).toEqual(['tok-abcdef-123']);
  });
  it('a missing or empty variable is an error naming it and where it was used', () => {
    expect(() => expand('${NOPE}', { env }, new Set(), 'headers.Authorization')).toThrow(
      new VariableError('environment variable NOPE is not set (referenced as ${NOPE} in headers.Authorization)'),
    );
    expect(() => expand('${EMPTY}', { env }, new Set(), 'x')).toThrow(/EMPTY is not set/);
    expect(() => expand('${command:pick}', { env }, new Set(), 'args[0]')).toThrow(/unsupported variable \$\{command:pick\} in args\[0\]/);
  });
  it("opencode's {env:NAME}", () => {
    expect(expand('{env:TOKEN}', { env, opencode: true }, new Set(), 'x')).toBe('tok-abcdef-123');
    expect(expand('{env:TOKEN}', { env }, new Set(), 'x')).toBe('{env:TOKEN}');
  });
  it('redacts whole values and long words of them, everywhere in a JSON value', () => {
    const needles = secretNeedles(['Bearer abcdefghijkl', 'short', '1']);
    expect(redact('got Bearer abcdefghijkl and abcdefghijkl', needles)).toBe('got *** and ***');
    expect(redact('short 1', needles)).toBe('short 1');
    expect(redactJson({ abcdefghijkl: ['x abcdefghijkl'] }, needles)).toEqual({ '***': ['x ***'] });
    // Everything else is copied as it was: order, types, "__proto__" keys (as data).
    const value = JSON.parse('{"b": [1, null, true, {"__proto__": {"k": "abcdefghijkl"}}], "a": {"z": 0, "y": "keep"}}');
    const copy = redactJson(value, needles) as Record<string, unknown>;
    expect(JSON.stringify(copy)).toBe('{"b":[1,null,true,{"__proto__":{"k":"***"}}],"a":{"z":0,"y":"keep"}}');
    expect(Object.getPrototypeOf((copy.b as object[])[3])).toBe(Object.prototype);
    // 100,000 levels deep, without recursion.
    const depth = 100_000;
    const deep = JSON.parse(`${'{"a":'.repeat(depth)}"abcdefghijkl"${'}'.repeat(depth)}`);
    let inner = redactJson(deep, needles) as Record<string, unknown>;
    for (let i = 1; i < depth; i++) inner = inner.a as Record<string, unknown>;
    expect(inner).toEqual({ a: '***' });
  });
});

describe('event stream lines', () => {
  it('a long line in many pieces is read whole, each piece searched once (linear, not the whole pending line again)', () => {
    const lines: string[] = [];
    const split = lineSplitter((l) => lines.push(l));
    const data = `data: ${JSON.stringify({ tools: Array.from({ length: 20_000 }, (_, i) => ({ name: `tool_${i}` })) })}`;
    const text = `event: message\r\n${data}\r\n\r\n: ping\rdata: b\n\n`;
    // Pieces of 7 characters: some end in the middle of a \r\n, which stays one line end.
    for (let i = 0; i < text.length; i += 7) split.push(text.slice(i, i + 7));
    split.end();
    expect(text.length).toBeGreaterThan(400_000);
    expect(lines).toEqual(['event: message', data, '', ': ping', 'data: b', '', '']);
    // The work done: every character searched once. Re-splitting the pending text on each piece searched billions.
    expect(split.scanned).toBe(text.length);
  });
});

describe('envFile', () => {
  it('reads one NAME=value a line as VS Code does, and gives the numbers of the lines it skipped', () => {
    const text = ['\ufeff# comment', 'A=1', 'GITHUB_TOKEN ghp_secretvalue', 'B = two words ', 'export C=x=y', "D='single # kept'", 'E="l1\\nl2" # note', 'F=plain # cut', 'G:  colon', 'H=', 'a.b-c_d=ok', 'no name=1', '=empty', 'I=`tick`'].join('\r\n');
    expect(parseEnvFile(text)).toEqual({
      vars: [['A', '1'], ['B', 'two words'], ['C', 'x=y'], ['D', 'single # kept'], ['E', 'l1\nl2'], ['F', 'plain'], ['G', 'colon'], ['H', ''], ['a.b-c_d', 'ok'], ['I', 'tick']],
      skipped: [3, 12, 13],
    });
  });
});

describe('secrets in what a server said', () => {
  const needles = secretNeedles(['pa"ss\tword-Secret-9876']);
  it('are hidden before the quotation is cut or escaped', () => {
    expect(excerpt(`${'y'.repeat(70)} pa"ss\tword-Secret-9876 end`, 80, needles)).toBe(`"${'y'.repeat(70)} *** end"`);
    expect(excerpt(`${'y'.repeat(75)} pa"ss\tword-Secret-9876`, 80, needles)).toBe(`"${'y'.repeat(75)} ***"`);
    // Blanks are cut from the ends, a byte order mark is not: it shows.
    expect(excerpt(' \ufeff{"a":1}\t\n', 80)).toBe('"\\u{FEFF}{\\"a\\":1}"');
  });
  it('are hidden in the forms a server echoes them in: JSON-escaped, \\uXXXX-escaped, escaped twice, and as a message shows those', () => {
    const quoted = secretNeedles(['ab"cdefghij']);
    const backslash = secretNeedles(['tok\\en12345']);
    const wide = secretNeedles(['pässwörd/<x>&y']);
    const cases: [readonly string[], string][] = [
      [quoted, `config ${JSON.stringify({ k: 'ab"cdefghij' })}`],
      [quoted, `config ${JSON.stringify(JSON.stringify({ k: 'ab"cdefghij' }))}`],
      [backslash, `config ${JSON.stringify({ k: 'tok\\en12345' })}`],
      [wide, 'config {"k": "p\\u00e4ssw\\u00f6rd/<x>&y"}'],
      [wide, 'config {"k": "p\\u00E4ssw\\u00F6rd\\/<x>&y"}'],
      [wide, 'config {"k": "pässwörd/\\u003cx\\u003e\\u0026y"}'],
      [wide, 'config {"k": "pässwörd\\/<x>&y"}'],
    ];
    const leaked = /cdefghij|en12345|ssw|rd|<x|003c/;
    for (const [needles, text] of cases) {
      expect(text).toMatch(leaked);
      for (const shown of [
        redact(text, needles),
        excerpt(text, 200, needles),
        // A message built first (quoting the text as excerpt does) and redacted after.
        redact(`said "${text.replace(/"/g, '\\"')}"`, needles),
      ]) {
        expect(shown).toContain('***');
        expect(shown).not.toMatch(leaked);
      }
    }
    expect(excerpt(`config ${JSON.stringify({ k: 'ab"cdefghij' })}`, 200, quoted)).toBe('"config {\\"k\\":\\"***\\"}"');
  });
  it('are hidden in partial and mixed escapes: .NET, double-encoded \\u escapes, PHP twice, percent-encoding', () => {
    const plus = secretNeedles(['abc+def/ghi=jk']);
    const wide = secretNeedles(['pässwörd/ü1']);
    const quotes = secretNeedles([`it's"a\`key9`]);
    const spaced = secretNeedles(['open sesame 42']);
    const cases: [readonly string[], string, RegExp][] = [
      // .NET System.Text.Json: + as \u002B, ' " ` as upper-case \uXXXX, / and = as they are.
      [plus, 'fatal: bad key in config {"key":"abc\\u002Bdef/ghi=jk"}', /def|ghi/],
      [plus, 'bad {"key":"abc\\u002bdef\\/ghi\\u003Djk"}', /def|ghi/],
      [quotes, 'bad {"key":"it\\u0027s\\u0022a\\u0060key9"}', /key9|s\\u0022/],
      // Python json.dumps twice (ensure_ascii), PHP json_encode twice.
      [wide, 'log "{\\"k\\": \\"p\\\\u00e4ssw\\\\u00f6rd/\\\\u00fc1\\"}"', /ssw|rd/],
      [plus, 'log "{\\"k\\":\\"abc+def\\\\\\/ghi=jk\\"}"', /def|ghi/],
      // Percent-encoded, as HTTP clients quote a URL (either hex case; + for a space in a query).
      [plus, 'GET /x?key=abc%2Bdef%2Fghi%3Djk failed', /def|ghi/],
      [plus, 'GET /x?key=abc%2bdef/ghi%3djk failed', /def|ghi/],
      [wide, 'redirected to /p%C3%A4ssw%C3%B6rd/%C3%BC1', /ssw|rd/],
      [spaced, 'GET /x?q=open+sesame+42 and /open%20sesame%2042', /sesame/],
    ];
    for (const [needles, text, leaked] of cases) {
      expect(text).toMatch(leaked);
      for (const shown of [redact(text, needles), excerpt(text, 200, needles), redact(`said "${text.replace(/"/g, '\\"')}"`, needles)]) {
        expect(shown).toContain('***');
        expect(shown).not.toMatch(leaked);
      }
    }
    // Other text is left as it was.
    expect(redact('abc def/ghi jk %2B \\u002B', plus)).toBe('abc def/ghi jk %2B \\u002B');
  });
  it('are hidden when any mix of their characters, letters and digits included, is \\uXXXX-escaped in either case', () => {
    // The README promises any \uXXXX: a server that escapes every character ("\u0061\u0062…") must not show the secret.
    const all = secretNeedles(['abcdefgh']);
    const escaped = 'config {"key":"\\u0061\\u0062\\u0063\\u0064\\u0065\\u0066\\u0067\\u0068"}';
    expect(redact(escaped, all)).toBe('config {"key":"***"}');
    expect(excerpt(escaped, 200, all)).toBe('"config {\\"key\\":\\"***\\"}"');
    // The secret as it is ends inside an escaped copy ("\u0031" ends with "1"): the escaped copy is hidden whole.
    expect(redact('config {"key":"\\u0031aaaaaa"} end', secretNeedles(['1aaaaaa']))).toBe('config {"key":"***"} end');
    expect(redact('said "\\u0022\\\\"abcdef"', secretNeedles(['""abcdef']))).toBe('said "***"');
    // One secret written just before another that starts with its end: each is hidden whole.
    expect(redact('id=xyzabcdefgh;', secretNeedles(['xyzabc', 'abcdefgh']))).toBe('id=***;');
    expect(redact('id=xyzab\\u0063defgh;', secretNeedles(['xyzabc', 'abcdefgh']))).toBe('id=***;');
    // The same where a longer value hid a long run first, and the shorter is searched only around it.
    const long = 'abcdefgh' + 'q'.repeat(100);
    expect(redact(`id=\\u0078yz${long};`, secretNeedles(['xyzabc', long]))).toBe('id=***;');
    expect(redact(`id=${'q'.repeat(100)}wxyz\\u00312;`, secretNeedles(['wxyz12', 'q'.repeat(100) + 'wxyz']))).toBe('id=***;');
    // `\` as it is, then `u` escaped: V8's pattern takes `\\` for the `\` and stops before "0075".
    for (const linearOnly of [false, true]) {
      masking.linearOnly = linearOnly;
      expect(redact('x aaaa\\\\u0075 y', secretNeedles(['aaaa\\u']))).toBe('x *** y');
      masking.linearOnly = false;
    }
    const char = fc.constantFrom(...'abcxyzABCXYZ0123456789-_+/.é€"'.split(''));
    const form = fc.constantFrom('raw', 'lower', 'upper');
    assertProperty(
      fc.property(fc.array(fc.tuple(char, form), { minLength: 6, maxLength: 24 }), (chars) => {
        const secret = chars.map(([c]) => c).join('');
        const text = chars
          .map(([c, f]) => {
            if (f === 'raw') return JSON.stringify(c).slice(1, -1);
            const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
            return `\\u${f === 'upper' ? hex.toUpperCase() : hex}`;
          })
          .join('');
        expect(redact(`config {"key":"${text}"} end`, secretNeedles([secret]))).toBe('config {"key":"***"} end');
      }),
    );
  });
  it('long values (a cookie jar, a certificate) never stop the run, and are hidden in their usual forms', () => {
    // One group of alternatives per character made a pattern V8 could not compile (about 6,000
    // characters): the run crashed, and its error message quoted the secret.
    const token = Array.from({ length: 7000 }, (_, i) => 'abcdefghijklmnopqrstuvwxyz0123456789'[(i * 7) % 36]).join('') + '+/=';
    const needles = secretNeedles([token]);
    expect(redact(`Cookie: ${token}; path=/`, needles)).toBe('Cookie: ***; path=/');
    expect(redact(`{"c":"${token.replace('+', '\\u002B').replace('/', '\\/')}"}`, needles)).toBe('{"c":"***"}');
    // Up to the limit, letters and digits match escaped too; past it, as they are.
    const atLimit = 'k'.repeat(ESCAPED_LETTERS_MAX - 1) + 'z';
    expect(redact(`"${'\\u006b'.repeat(ESCAPED_LETTERS_MAX - 1)}z"`, secretNeedles([atLimit]))).toBe('"***"');
    // A value no pattern can be made for (every character escapable, thousands of them) is still hidden as it is.
    const symbols = '+-'.repeat(4000);
    expect(() => secretNeedles([symbols])).not.toThrow();
    expect(redact(`x ${symbols} y`, secretNeedles([symbols]))).toBe('x *** y');
  });
  it('a secret with a long run of one character, in a text of that character, is hidden in time linear in the text', () => {
    // The pattern was tried at every place of the text, each try reading up to the secret's length:
    // 1,000 "x" and a "y" in 100 KB of "x" took 9 s, in 1 MB about 15 minutes. Now 0.2 s for 1 MB.
    const secret = `${'x'.repeat(1000)}y`;
    const needles = secretNeedles([secret]);
    const text = 'x'.repeat(1 << 20);
    expect(redact(text, needles)).toBe(text);
    // Still hidden in it, as it is and with mixed escapes.
    const mixed = `${'\\u0078'.repeat(3)}${'x'.repeat(997)}%79`;
    expect(redact(`${text}${mixed}!`, needles)).toBe(`${'x'.repeat(1 << 20)}***!`);
    const escaped = `${'\\u0078'.repeat(1000)}y`;
    expect(redact(`${escaped} ${text}`, needles)).toBe(`*** ${text}`);
  }, 8000);
  it('a secret with a character escaped several ways (a backslash) takes no exponential time where it is echoed mixed', () => {
    // `\\` is `\`, `\\` or `\\\\`: the pattern, tried where a match starts, backtracked through every split
    // of the run: 39 "\\" and a "Q", echoed with the "Q" as %51 before 300 characters, took 16 s (each "\\" more: ×1.8).
    const secret = `${'\\'.repeat(59)}Q`;
    const needles = secretNeedles([secret]);
    expect(redact(`${'\\'.repeat(59)}%51${'z'.repeat(300)}`, needles)).toBe(`***${'z'.repeat(300)}`);
    expect(redact(`${'\\'.repeat(59)}%51z`.repeat(2000), needles)).toBe('***z'.repeat(2000));
  }, 8000);
  it('the quick path (the global pattern) and the linear pass hide the same; no match of any secret is left whole, and only matches are hidden', () => {
    const char = fc.constantFrom('a', 'x', '\\', '%', '2', '5', '/', '"', '+', ' ', 'é', '😀', 'u', '0');
    const form = (c: string, f: number) => {
      const units = [...Array(c.length).keys()].map((i) => c.charCodeAt(i).toString(16).padStart(4, '0'));
      const escaped = units.map((h) => `\\u${f % 2 ? h.toUpperCase() : h}`).join('');
      const pct = [...new TextEncoder().encode(c)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
      return [c, JSON.stringify(c).slice(1, -1), escaped, JSON.stringify(escaped).slice(1, -1), pct, pct.toUpperCase(), c === ' ' ? '+' : c][f % 7]!;
    };
    assertProperty(
      fc.property(
        fc.array(fc.array(char, { minLength: 6, maxLength: 12 }), { minLength: 1, maxLength: 2 }),
        fc.array(fc.tuple(fc.nat(1), fc.nat(11), fc.nat(11), fc.array(fc.nat(6))), { maxLength: 6 }),
        (secrets, pieces) => {
          // Pieces of the secrets (which, from, to), each character in some form, one after another.
          const text = pieces
            .map(([s, a, b, fs]) => {
              const chars = secrets[s % secrets.length]!;
              return chars.slice(Math.min(a, b), Math.max(a, b) + 1).map((c, i) => form(c, fs[i % Math.max(fs.length, 1)] ?? 0)).join('');
            })
            .join('');
          const needles = secretNeedles(secrets.map((chars) => chars.join('')));
          const runs = hiddenRuns(text, needles);
          masking.linearOnly = true;
          try {
            expect(hiddenRuns(text, needles)).toEqual(runs);
          } finally {
            masking.linearOnly = false;
          }
          // Every match (of a pattern, or a needle), the plain way: each place, each end.
          const hidden = new Uint8Array(text.length);
          for (let k = 0; k < runs.length; k += 2) hidden.fill(1, runs[k], runs[k + 1]);
          const inMatch = new Uint8Array(text.length);
          for (const step of needles.steps!) {
            const whole = step.pattern && new RegExp(`^(?:${step.pattern.global.source})$`);
            for (let i = 0; i < text.length; i++) {
              for (let j = i + 1; j <= Math.min(text.length, i + (step.pattern?.widest ?? 0)); j++) {
                if (!whole!.test(text.slice(i, j))) continue;
                // No match is left whole, and what is hidden is in a match.
                expect(hidden.subarray(i, j).includes(1), `${JSON.stringify(text.slice(i, j))} at ${i} is shown whole`).toBe(true);
                inMatch.fill(1, i, j);
              }
            }
            for (const n of step.needles) expect(redact(text, needles).includes(n)).toBe(false);
          }
          for (let i = 0; i < text.length; i++) if (hidden[i]) expect(inMatch[i], `${JSON.stringify(text)} hides ${i}, in no match`).toBe(1);
        },
      ),
      { numRuns: 60 },
    );
  });
  it('a secret with a character outside the BMP is hidden when echoed as its escaped surrogate pair beside another escape', () => {
    // .NET's default encoder: `+` and every non-ASCII character as \uXXXX, upper case.
    const needles = secretNeedles(['tok+en😀value99']);
    for (const echo of ['tok\\u002Ben\\uD83D\\uDE00value99', 'tok+en\\ud83d\\ude00value\\u0039\\u0039', 'tok\\\\u002Ben\\\\uD83D\\\\uDE00value99', 'tok%2Ben%F0%9F%98%80value99']) {
      expect(redact(`invalid key "${echo}"`, needles)).toBe('invalid key "***"');
    }
  });
  it('a value of several words is hidden whole however its spaces are escaped, short words included', () => {
    const needles = secretNeedles(['hunter2 correcthorse']);
    expect(redact('login=hunter2+correcthorse', needles)).toBe('login=***');
    expect(redact('login=hunter2%20correcthorse', needles)).toBe('login=***');
    expect(redact('{"p":"hunter2\\u0020correcthorse"}', needles)).toBe('{"p":"***"}');
    expect(redact('just correcthorse', needles)).toBe('just ***');
    expect(redact('ab12xy9%2CZq8w7e6r5t4y', secretNeedles(['ab12xy9,Zq8w7e6r5t4y']))).toBe('***');
  });
  it('a window cut inside an escaped (percent-encoded) secret hides the part the cut left', () => {
    const needles = secretNeedles(['correct horse battery staple 42']);
    expect(redactWindow('%20battery%20staple%2042 zzz', needles, { start: true })).toBe('*** zzz');
    expect(redactWindow('ttery%20staple%2042 zzz', needles, { start: true })).toBe('*** zzz');
    expect(redactWindow('0battery+staple%2042 zzz', needles, { start: true })).toBe('*** zzz');
    expect(redactWindow('GET /login?pw=correct%20horse%2', needles, { end: true })).toBe('GET /login?pw=***');
    expect(redactWindow('zzz plain text', needles, { start: true, end: true })).toBe('zzz plain text');
  });
  it('a window cut out of a longer text hides the part of a secret the cut left at either edge', () => {
    expect(redactWindow('word-Secret-9876 then more', needles, { start: true })).toBe('*** then more');
    expect(redactWindow('some text pa"ss\tword-Se', needles, { end: true })).toBe('some text ***');
    expect(redactWindow('ret-9876 then', needles, {})).toBe('ret-9876 then');
    expect(redactWindow('ret-9876 then', needles, { start: true })).toBe('*** then');
    expect(redactWindow('plain text', needles, { start: true, end: true })).toBe('plain text');
  });
});

describe('command-line targets', () => {
  it('splits a command line like a shell, without running one', () => {
    const secrets = new Set<string>();
    expect(splitCommandLine(`node "my server.js" --key \${TOKEN} '\${LITERAL}' *.json # comment`, { env: { TOKEN: 'tok-abcdef-123' } }, secrets)).toEqual([
      'node',
      'my server.js',
      '--key',
      'tok-abcdef-123',
      '${LITERAL}',
      '*.json',
    ]);
    expect([...secrets]).toEqual(['tok-abcdef-123']);
    expect(() => splitCommandLine('a && b', { env: {} }, new Set())).toThrow(/"&&" is not supported/);
    expect(() => splitCommandLine('   ', { env: {} }, new Set())).toThrow(/needs a command/);
    expect(() => splitCommandLine("node 'abc", { env: {} }, new Set())).toThrow("--stdio has a single quote (') that is never closed; close it, or escape it with a backslash");
    expect(() => splitCommandLine('node "a\\"b', { env: {} }, new Set())).toThrow(/double quote \("\) that is never closed/);
    expect(splitCommandLine(`node "it's" 'a"b' a\\'b # it's`, { env: {} }, new Set())).toEqual(['node', "it's", 'a"b', "a'b"]);
  });
  it('a # inside a word is part of it: only a # at the start of a word starts a comment, as in a POSIX shell', () => {
    const split = (line: string) => splitCommandLine(line, { env: { C: 'c-value-1' } }, new Set());
    expect(split('node argv.mjs --channel=#general --color=#fff last')).toEqual(['node', 'argv.mjs', '--channel=#general', '--color=#fff', 'last']);
    expect(split(`node a"b"#c 'd'#e a\\ #f g\\#h #comment it's`)).toEqual(['node', 'ab#c', 'd#e', 'a #f', 'g#h']);
    expect(split('node ${C}#x ${MISSING:-#dflt} "#q" \\#lit #')).toEqual(['node', 'c-value-1#x', '#dflt', '#q', '#lit']);
    expect(split('node x\t#comment')).toEqual(['node', 'x']);
    expect(() => split("node a#it's")).toThrow(/single quote \(\'\) that is never closed/);
  });
  it('a backslash-newline is a line continuation, removed as a POSIX shell does (no empty word; a # after it joins the word)', () => {
    const split = (line: string) => splitCommandLine(line, { env: {} }, new Set());
    expect(split('node s.js \\\n--timeout 60')).toEqual(['node', 's.js', '--timeout', '60']);
    expect(split('node s.js \\\r\n--x')).toEqual(['node', 's.js', '--x']);
    expect(split('prog a\\\n#b "c\\\nd" \'e\\\nf\'')).toEqual(['prog', 'a#b', 'cd', 'e\\\nf']);
    expect(split('prog --x \\\n# comment')).toEqual(['prog', '--x']);
    expect(split('prog a\\\\\n#c')).toEqual(['prog', 'a\\']);
  });
  it('a malformed --header or --env never repeats its value', () => {
    expect(() => parseHeader('Authorization Bearer sk-live-123')).toThrow('--header expects "Name: value" with a header name of letters, digits and -; got no ":" (the value is not shown)');
    const r = targetsFromFlags({ stdio: ['node s.js'], env: ['1BAD=sk-live-123'] }, {}, '/');
    expect(r.errors).toEqual([{ target: 'node s.js', message: 'node s.js: --env expects NAME=value; got the name "1BAD" (the value is not shown)' }]);
  });
  it('--url: a query value is a secret, a password is refused without being shown, headers apply to every URL', () => {
    const r = targetsFromFlags({ url: ['https://me:pa55word-xyz@example.com/mcp', 'http://127.0.0.1:1/x?key=qk-0123456'], header: ['X-Key: ${K}'] }, { K: 'key-value-123' }, '/');
    // fetch cannot send user:password@ from a URL: said with the whole user-info hidden.
    expect(r.errors.map((e) => e.message)).toEqual([
      'https://***@example.com/mcp: https://***@example.com/mcp holds a user name or password (user:password@), which HTTP clients do not send from a URL: give them as a header instead, e.g. "Authorization: Basic <base64 of user:password>"',
    ]);
    expect(r.targets.map((t) => t.display)).toEqual(['http://127.0.0.1:1/x?key=***']);
    expect(r.targets[0]!.secrets).toEqual(expect.arrayContaining(['key-value-123', 'qk-0123456']));
    expect(r.targets[0]!.http).toEqual({ url: 'http://127.0.0.1:1/x?key=qk-0123456', headers: { 'X-Key': 'key-value-123' }, transport: 'auto' });
  });
});

describe('client config shapes', () => {
  const opts = { file: '/p/.cursor/mcp.json', cwd: '/p', env: { HOME: '/home/u', T: 'tok-abcdef-123' } };
  it('mcpServers: stdio, url / serverUrl / httpUrl with type, disabled, broken entries', () => {
    const r = targetsFromServerEntries(
      {
        a: { command: 'npx', args: ['-y', 'srv', '${workspaceFolder}'], env: { K: '${T}' }, cwd: 'sub' },
        b: { url: 'https://x.example/mcp', headers: { Authorization: 'Bearer ${T}' } },
        c: { type: 'sse', url: 'https://x.example/sse' },
        d: { serverUrl: 'https://x.example/w' },
        e: { httpUrl: 'https://x.example/g' },
        f: { command: 'x', disabled: true },
        g: { args: [] },
        h: 'nope',
        i: { type: 'ws', url: 'wss://x' },
        j: { url: null, serverUrl: null },
        k: { type: 'stdio', url: 'https://x.example/mcp' },
      },
      { ...opts, pointerBase: '/mcpServers' },
    );
    expect(r.targets.map((t) => [t.name, t.stdio ? 'stdio' : t.http!.transport])).toEqual([
      ['a', 'stdio'],
      ['b', 'auto'],
      ['c', 'sse'],
      ['d', 'auto'],
      ['e', 'http'],
    ]);
    expect(r.targets[0]!.stdio).toEqual({ command: 'npx', args: ['-y', 'srv', '/p'], env: { K: 'tok-abcdef-123' }, cwd: '/p/sub' });
    expect(r.targets[0]!.config).toMatchObject({ file: '/p/.cursor/mcp.json', display: '.cursor/mcp.json', pointer: '/mcpServers/a' });
    expect(r.targets[1]!.secrets).toContain('tok-abcdef-123');
    expect(r.notes).toEqual(['skipped "f" (.cursor/mcp.json): it is disabled']);
    expect(r.errors.map((e) => e.message)).toEqual([
      '.cursor/mcp.json: server "g": has neither "command" nor a URL ("url", "serverUrl" or "httpUrl"), so there is nothing to start or reach',
      '.cursor/mcp.json: server "h": the entry must be an object',
      '.cursor/mcp.json: server "i": transport type "ws" is not supported (expected stdio, http or sse)',
      // A null URL is no URL (this used to end the run with an internal error).
      '.cursor/mcp.json: server "j": has neither "command" nor a URL ("url", "serverUrl" or "httpUrl"), so there is nothing to start or reach',
      // A URL with "type": "stdio": the URL is not used, and stdio needs a command.
      '.cursor/mcp.json: server "k": has no "command", and its "type" is stdio: a stdio server needs a program to start (its "url" is only used with another "type")',
    ]);
  });

  it('recognises VS Code (servers, inputs; settings.json "mcp"), Claude Code projects, with positions', () => {
    const text = `{\n  // comment\n  "mcp": {\n    "servers": {\n      "s": { "command": "node", "env": { "A": "\${input:tok}" } },\n    },\n  },\n}\n`;
    const r = targetsFromConfigText(text, { ...opts, file: '/p/.vscode/settings.json', inputs: new Map([['tok', 'v-123456789']]) });
    expect(r.errors).toEqual([]);
    expect(r.targets[0]).toMatchObject({ name: 's', stdio: { env: { A: 'v-123456789' }, cwd: '/p' }, config: { pointer: '/mcp/servers/s' } });
    const missing = targetsFromConfigText(text, { ...opts, file: '/p/.vscode/settings.json' });
    expect(missing.errors[0]).toMatchObject({ line: 5, column: 7, file: '.vscode/settings.json' });

    const claude = targetsFromConfigText(json({ mcpServers: { u: { command: 'a' } }, projects: { '/p': { mcpServers: { l: { command: 'b' } } }, '/q': { mcpServers: { z: { command: 'c' } } } } }), {
      ...opts,
      file: '/home/u/.claude.json',
    });
    expect(claude.targets.map((t) => [t.name, t.config!.pointer])).toEqual([
      ['u', '/mcpServers/u'],
      ['l', '/projects/~1p/mcpServers/l'],
    ]);
  });

  it("opencode's V2 config (mcp.servers) by the file's name or the entries' shape, and its timeouts", () => {
    const servers = {
      ev: { type: 'local', command: ['node', 's.js'], cwd: 'sub', environment: { K: '{env:T}' }, timeout: { startup: 5000, request: 2000 } },
      web: { type: 'remote', url: 'https://mcp.example.com/mcp', timeout: { startup: 1000 } },
      off: { type: 'local', command: ['x'], disabled: true },
    };
    for (const file of ['/p/opencode.json', '/p/opencode.jsonc', '/p/other.json']) {
      const r = targetsFromConfigText(json({ mcp: { servers } }), { ...opts, file });
      expect(r.errors, file).toEqual([]);
      expect(r.targets.map((t) => [t.name, t.config!.pointer, t.timeoutMs]), file).toEqual([
        ['ev', '/mcp/servers/ev', 7000],
        // A part left out counts as --timeout's default (30 s).
        ['web', '/mcp/servers/web', 31_000],
      ]);
      expect(r.targets[0]!.stdio).toEqual({ command: 'node', args: ['s.js'], env: { K: 'tok-abcdef-123' }, cwd: '/p/sub' });
      expect(r.notes).toEqual([`skipped "off" (${file.slice(3)}): it is disabled`]);
    }
    // A variable that is not set is named with the field that holds it.
    const unset = targetsFromConfigText(json({ mcp: { a: { type: 'local', command: ['a'], environment: { K: '{env:NOPE}' } } } }), { ...opts, file: '/p/opencode.json' });
    expect(unset.errors.map((e) => e.message)).toEqual(['opencode.json:3:5: server "a": environment variable NOPE is not set (referenced as {env:NOPE} in environment.K)']);
    // An opencode.json whose servers VS Code could have written is still opencode's.
    const named = targetsFromConfigText(json({ mcp: { servers: { s: { command: ['node', 'x.js'] } } } }), { ...opts, file: '/p/opencode.json' });
    expect(named.targets[0]!.stdio).toMatchObject({ command: 'node', args: ['x.js'] });
    // VS Code's "mcp" in settings.json stays VS Code's.
    const vscode = targetsFromConfigText(json({ mcp: { servers: { s: { type: 'stdio', command: 'node', args: ['x.js'] } } } }), { ...opts, file: '/p/.vscode/settings.json' });
    expect(vscode.errors).toEqual([]);
    expect(vscode.targets[0]!.stdio).toMatchObject({ command: 'node', args: ['x.js'] });
  });

  it("honours opencode's timeout (V1: milliseconds) and no other client's", () => {
    const v1 = targetsFromConfigText(json({ mcp: { a: { type: 'local', command: ['a'], timeout: 2500 }, b: { type: 'local', command: ['b'] } } }), { ...opts, file: '/p/opencode.json' });
    expect(v1.targets.map((t) => t.timeoutMs)).toEqual([2500, undefined]);
    // Longer than a day is a day: a timer past 2^31 - 1 ms would fire at once.
    const long = targetsFromConfigText(
      json({ mcp: { servers: { a: { type: 'local', command: ['a'], timeout: 3e9 }, b: { type: 'local', command: ['b'], timeout: { startup: 2e9, request: 2e9 } } } } }),
      { ...opts, file: '/p/opencode.json' },
    );
    expect(long.targets.map((t) => t.timeoutMs)).toEqual([86_400_000, 86_400_000]);
    const bad = targetsFromConfigText(
      json({ mcp: { a: { type: 'local', command: ['a'], timeout: '5s' }, b: { type: 'local', command: ['b'], timeout: -1 }, c: { type: 'remote', url: 'https://x.example/mcp', timeout: { startup: 1.5 } } } }),
      { ...opts, file: '/p/opencode.json' },
    );
    expect(bad.targets).toEqual([]);
    expect(bad.errors.map((e) => e.message.replace(/^[^ ]+ /, ''))).toEqual([
      'server "a": "timeout" must be a number of milliseconds, or {"startup", "request"} in milliseconds',
      'server "b": "timeout" must be a positive whole number of milliseconds',
      'server "c": "timeout.startup" must be a positive whole number of milliseconds',
    ]);
    // Claude Code's and Gemini CLI's "timeout" bound tool calls (and Cline's counts seconds): not a deadline for listing tools.
    const others = targetsFromConfigText(json({ mcpServers: { a: { command: 'a', timeout: 600000 } } }), { ...opts, file: '/p/.gemini/settings.json' });
    expect(others.targets[0]!.timeoutMs).toBeUndefined();
  });

  it('the workspace folder of a config file', () => {
    expect(workspaceFolderOf('/p/.vscode/mcp.json', '/cwd', '/home/u')).toBe('/p');
    expect(workspaceFolderOf('/p/.mcp.json', '/cwd', '/home/u')).toBe('/p');
    expect(workspaceFolderOf('/home/u/.cursor/mcp.json', '/cwd', '/home/u')).toBe('/cwd');
    expect(workspaceFolderOf('/home/u/.config/Code/User/mcp.json', '/cwd', '/home/u')).toBe('/cwd');
  });

  it('positions in JSON with comments and trailing commas', () => {
    const loc = createLocator('{\n  // c\n  "a": { "b": [1, 2,], },\n}');
    expect(loc.locateOne('/a/b/1')).toMatchObject({ pointer: '/a/b/1', line: 3, column: 19 });
    expect(loc.locateOne('/a/x')).toMatchObject({ pointer: '/a', line: 3, column: 3 });
  });
});

describe('--discover locations', () => {
  it('checks the known user and project files of each client and finds the ones that exist', () => {
    const home = tempDir({ '.cursor/mcp.json': '{}', '.gemini/settings.json': '{}', '.config/zed/settings.json': '{}' });
    const project = tempDir({ '.vscode/mcp.json': '{}', '.vscode/settings.json': '{}', '.mcp.json': '{}' });
    const ctx = { cwd: project, env: { HOME: home }, platform: 'linux' as const };
    const clients = new Set(knownConfigLocations(ctx).map((c) => c.client));
    expect(clients).toEqual(new Set(['Claude Desktop', 'Claude Code', 'Cursor', 'VS Code', 'Gemini CLI', 'Windsurf', 'opencode', 'Zed']));
    expect(discoverConfigs(ctx).map((c) => [c.client, c.scope, c.path])).toEqual([
      ['Claude Code', 'project', join(project, '.mcp.json')],
      ['Cursor', 'user', join(home, '.cursor/mcp.json')],
      ['VS Code', 'project', join(project, '.vscode/mcp.json')],
      ['VS Code', 'project', join(project, '.vscode/settings.json')],
      ['Gemini CLI', 'user', join(home, '.gemini/settings.json')],
      ['Zed', 'user', join(home, '.config/zed/settings.json')],
    ]);
    const mac = knownConfigLocations({ cwd: project, env: { HOME: '/Users/u' }, platform: 'darwin' });
    expect(mac.find((c) => c.client === 'Claude Desktop')!.path).toBe('/Users/u/Library/Application Support/Claude/claude_desktop_config.json');
    expect(mac.filter((c) => c.client === 'VS Code' && c.scope === 'user').map((c) => c.path)).toEqual([
      '/Users/u/Library/Application Support/Code/User/mcp.json',
      '/Users/u/Library/Application Support/Code/User/settings.json',
    ]);
  });
});

describe('URLs', () => {
  it('credential headers are Authorization, Proxy-Authorization, Cookie and names ending in key (not the key of a request or a cache entry) or with api-key, apikey, token, secret, auth, password or session, in any case', () => {
    const yes = ['Authorization', 'proxy-authorization', 'Cookie', 'X-Api-Key', 'x-api_key', 'X-APIKEY', 'X-Auth-Token', 'Private-Token', 'X-Client-Secret', 'X-Goog-Api-Key', 'Ocp-Apim-Subscription-Key', 'X-Access-Key', 'X-Password', 'X-Session'];
    const no = ['X-Tenant', 'X-Request-Id', 'Accept', 'Content-Type', 'User-Agent', 'MCP-Protocol-Version', 'X-Org', 'Set-Cookie-Policy', 'Idempotency-Key', 'X-Idempotency-Key', 'Sec-WebSocket-Key', 'X-Cache-Key'];
    expect([...yes.filter((h) => !isCredentialHeader(h)), ...no.filter(isCredentialHeader)]).toEqual([]);
  });

  it('path segments: keys are hidden and secrets, random-looking runs hidden only, identifiers of words and versions neither', () => {
    // [segment, is a key (a secret, masked by the Action), hidden where the URL is shown]
    const table: [string, boolean, boolean][] = [
      // Product names, identifiers, versions, ids: readable, and never secrets.
      ...[
        'mcp', 'sse', 'v1', 'api', 'my-server-2024', 'listAllToolsForWorkspace', 'OAuth2AuthorizationServer',
        'GitHubMCPServerV2', 'getUserByIDAndOrgID', 'WiFi6EAccessPointsV2', 'i18nL10nA11yToolsV3', 'MCPv1MCPv2MCPv3MCPv4',
        'MCPv1MCPv2MCPv3MCPv4MCPv5MCPv6', 'sk-learn-tutorial-server', 'npm_package_name_is_long', 'ghp_tokens_and_permissions',
        'xoxb-slack-bot-integration', 'AKIAAuthenticationDocs', 'sk-K8sClusterManagerV1Beta2',
        'npm_Python3DataScienceToolkit', 'PostgreSQL16ReadReplicaV3', 'Neo4jGraphDatabaseServer2', 'K8sClusterManagerV1Beta2',
        'AWSLambdaFunctionsV20240101', 'S3BucketBrowserServerV2', 'Python3DataScienceToolkit', 'getOrganizationMembersV2',
        'OpenAIGPT4oMiniAssistantV2', 'Claude35SonnetMCPBridgeV1', 'Win10x64BuildAgentPool2', 'E2ETestRunnerServerV12',
        'UTF8Base64Encoder2024', 'H264VideoTranscoderV2Pro', 'IPv4IPv6DualStackRouter2', 'getV2UsersByOrgIdAndTeamId',
        'sk-learn-2024-tutorial-v2', 'sk_live_2024_release_notes', 'npm_package_version_1_2_3', 'sk-mcp-server-2024-11-05',
        'google-drive-mcp-server-v2', '@modelcontextprotocol', '2024-06-18', '1234567890123456789', '507f1f77bcf86cd799439011',
        '${MCP_KEY}', '{env:MCP_KEY}',
      ].map((s): [string, boolean, boolean] => [s, false, false]),
      // Real key shapes: secrets, and hidden.
      ...[
        'sk-ak-9Xq2vL7pR4tK8mN3wB6yZ1cF5hJ0', 'sk-proj-Ab3dEf9hIjK2mNoP4rStU6wXyZ8', 'sk-ant-api03-Zx8Vb2Nm4Qw6Er7Ty9Ui1Op3As5Df-gH',
        'ghp_16C7e42F292c6912E7710c838347Ae178B4a', 'github_pat_11ABCDEFG0aBcDeFgHiJkL_mN0pQ1rS2tU3vW4xY5zA6bC7dE8fG9hI0jK1lM2nO3pQ4rS5',
        'glpat-x8K2mP9qR4tV7wZ1bN3c', 'xoxb-123456789012-1234567890123-AbCdEf1GhIjKl2MnOpQr3StU', 'AKIA2OGYBAH6QAHQ3F5M',
        'AIzaSyD3f8G7hJ2kL9mN4pQ6rS1tU5vW0xY8zA2', 'npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8', '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',
        '123e4567-e89b-12d3-a456-426614174000', '5f4dcc3b5aa765d61d8327deb882cf99', 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
        'sk-ak-9Xq2vL7pR4tK8mN3wB6yZ1cF5hJ0'.replace(/-/g, '%2D'),
        // Random tails with no digit, long upper-case runs or separators: still keys after a known prefix.
        'AKIAIOSFODNN7EXAMPLE', 'ghp_WOK9Hi9BoAioTliLYOwVFWCKKJOZHeQZYNKC', 'sk-ak-emrXcwdwzFABI7Glcj09mhw3', 'AKIAIJHCHNQ4ZWDUURRJ',
        'glpat-xYzAbCdEfGhIjKlMnOpQ', 'sk-proj-aB_cD-eFgHiJkLmNoPqRsTuV', 'sk-ak-ZapPathSecret999',
        // Lower-case random tails (consonant runs, pieces too long for words), with and without digits.
        'sk-l8hbxah3z7pxcul8hpem9t4zp7humpab', 'sk_test_yr2LXqlzykGvPzbSkKxywymq', 'sk-qwhzkrtpmvxbnlcdfgjsyuioaeqwrtzx',
      ].map((s): [string, boolean, boolean] => [s, true, true]),
      // Random-looking without a known prefix: hidden where shown, but not confidently a key.
      ['Xk9fP2mQ7rT4vB8nW3yZ6cD1', false, true],
      ['s-Hq3Lz8Wm2Rv6Tp9Kx4Nb7Jc5', false, true],
    ];
    expect(table.filter(([s, key, hidden]) => isKeySegment(s) !== key || isSecretSegment(s) !== hidden).map(([s]) => s)).toEqual([]);
  });

  it('are shown without their password and query values; a variable reference is shown as written', () => {
    expect(displayUrl('https://user:pw@mcp.example.com/mcp?api_key=k-123&v=${API_VERSION}&o={env:ORG}&empty=&flag#frag')).toBe(
      'https://***@mcp.example.com/mcp?api_key=***&v=${API_VERSION}&o={env:ORG}&empty=&***#frag',
    );
    expect(displayUrl('http://127.0.0.1:3000/mcp')).toBe('http://127.0.0.1:3000/mcp');
  });

  it('hide the whole user-info (a token as the user name, a password holding an @) and a bare query part', () => {
    expect(displayUrl('http://ghp_secrettoken123@127.0.0.1:7301/ok')).toBe('http://***@127.0.0.1:7301/ok');
    expect(displayUrl('https://ghp_tokenAsUser999@mcp.example.com/mcp')).toBe('https://***@mcp.example.com/mcp');
    expect(displayUrl('http://user:pa@ss@host/')).toBe('http://***@host/');
    expect(displayUrl('http://user:pa@ss@host')).toBe('http://***@host');
    expect(displayUrl('http://tok-123456@host\\x@y/')).toBe('http://***@host\\x@y/');
    expect(displayUrl('http://127.0.0.1:7301/s500?sk-bareQuerySecret99')).toBe('http://127.0.0.1:7301/s500?***');
    expect(displayUrl('http://h/m?sk-bare&k=v&&${FLAG}#frag@x?y=z')).toBe('http://h/m?***&k=***&&${FLAG}#frag@x?y=z');
    // References are no secrets.
    expect(displayUrl('https://${USER}:${PASS}@h.example/')).toBe('https://${USER}:${PASS}@h.example/');
    expect(displayUrl('https://${USER}:pw@h.example/')).toBe('https://***@h.example/');
  });

  it('hold their query values and bare query parts as secrets, as written and decoded', () => {
    expect(querySecrets(new URL('https://h.example/m?key=a%2Fb&n=1&e='))).toEqual(['a%2Fb', '1', 'a/b', '1']);
    expect(querySecrets(new URL('https://h.example/m?sk-bare%2BSecret99'))).toEqual(['sk-bare%2BSecret99', 'sk-bare+Secret99']);
  });
});

describe('snapshots and progress', () => {
  it('snapshot text has sorted keys at every level; file names are safe and unique', () => {
    expect(snapshotText({ tools: [{ name: 'a', annotations: { z: 1, a: 2 } }], serverInfo: { version: '1', name: 'n' } })).toBe(
      '{\n  "serverInfo": {\n    "name": "n",\n    "version": "1"\n  },\n  "tools": [\n    {\n      "annotations": {\n        "a": 2,\n        "z": 1\n      },\n      "name": "a"\n    }\n  ]\n}\n',
    );
    const taken = new Set<string>();
    expect(['my server', 'My Server', '../../etc', ''].map((n) => snapshotFileName(n, taken))).toEqual(['my-server.json', 'My-Server-2.json', 'etc.json', 'server.json']);
    // Config file names of this tool, of MCP clients and of other tools are never taken.
    // (tsconfig.build-2.json would be another tsconfig.*.json: the dots become dashes.)
    expect(['mcp-annotate.config', '.mcp-annotaterc', 'Package', 'tsconfig.build', 'mcp', 'opencode'].map((n) => snapshotFileName(n, new Set()))).toEqual([
      'mcp-annotate.config-2.json',
      'mcp-annotaterc.json',
      'Package-2.json',
      'tsconfig-build.json',
      'mcp-2.json',
      'opencode-2.json',
    ]);
  });

  it('a snapshot that did not get its first name says which and why, for the note that announces it', () => {
    const taken = new Set(['report.json']);
    expect(pickSnapshotFile('s', taken)).toEqual({ file: 's.json' });
    expect(pickSnapshotFile('S', taken)).toEqual({ file: 'S-2.json', clash: { file: 'S.json', why: 'taken' } });
    expect(pickSnapshotFile('report', taken)).toEqual({ file: 'report-2.json', clash: { file: 'report.json', why: 'taken' } });
    expect(pickSnapshotFile('mcp', taken)).toEqual({ file: 'mcp-2.json', clash: { file: 'mcp.json', why: 'reserved' } });
    expect(pickSnapshotFile('mine', taken, (f) => f !== 'mine.json')).toEqual({ file: 'mine-2.json', clash: { file: 'mine.json', why: 'kept' } });
    expect(savedNote('server "a"', 'snaps/a.json')).toBe('server "a": its snapshot is saved as snaps/a.json');
    expect(savedNote('server "a"', 'snaps/a-2.json', { path: 'snaps/a.json', why: 'taken', ownRun: true })).toBe(
      'server "a": its snapshot is saved as snaps/a-2.json, not snaps/a.json (the snapshot of another server of this run)',
    );
    expect(savedNote('server "a"', 'snaps/a-2.json', { path: 'snaps/a.json', why: 'taken', ownRun: false })).toBe(
      'server "a": its snapshot is saved as snaps/a-2.json, not snaps/a.json (a file this run reads or one of its -o reports)',
    );
  });

  it('snapshot text is JSON.stringify(…, null, 2) of the value with sorted keys, for any JSON, and any depth', () => {
    const sorted = (v: unknown) =>
      JSON.stringify(v, (_k, x) => (x !== null && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x), 2) + '\n';
    assertProperty(
      fc.property(fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'a', 'b')), fc.jsonValue()), (value) => {
        const parsed = JSON.parse(JSON.stringify(value)) as Record<string, unknown>; // as a server's result arrives: own "__proto__" keys
        expect(snapshotText(parsed)).toBe(sorted(parsed));
      }),
      { numRuns: 300 },
    );
    // A "__proto__" key is kept as data.
    expect(snapshotText(JSON.parse('{"tools": [{"__proto__": {"x": 1}, "name": "t"}]}'))).toBe('{\n  "tools": [\n    {\n      "__proto__": {\n        "x": 1\n      },\n      "name": "t"\n    }\n  ]\n}\n');
    // 100,000 levels, where JSON.stringify overflows the stack: one line (indented, it would be 10 GB).
    const depth = 100_000;
    const deep = JSON.parse(`{"tools": [${'['.repeat(depth)}1${']'.repeat(depth)}], "b": {"a": 1}}`);
    expect(snapshotText(deep)).toBe(`{"b":{"a":1},"tools":[${'['.repeat(depth)}1${']'.repeat(depth)}]}\n`);
    // Up to MAX_INDENTED_DEPTH levels, indented.
    const nested = JSON.parse(`{"tools": ${'['.repeat(MAX_INDENTED_DEPTH - 1)}${']'.repeat(MAX_INDENTED_DEPTH - 1)}}`);
    expect(snapshotText(nested)).toBe(`${JSON.stringify(nested, null, 2)}\n`);
  });

  it('snapshot text keeps numbers JSON.stringify writes as null or 0: ±Infinity (a server\'s 1e400) and -0 read back as they were', () => {
    const value = JSON.parse('{"tools": [{"name": "t", "inputSchema": {"maximum": 1e400, "minimum": -1e999, "default": -0.0, "multipleOf": 0}, "annotations": {"readOnlyHint": 1e400}}]}');
    const text = snapshotText(value);
    expect(text).toContain('"maximum": 1e400');
    expect(text).toContain('"minimum": -1e400');
    expect(text).toContain('"default": -0');
    expect(text).toContain('"readOnlyHint": 1e400');
    const back = JSON.parse(text);
    expect(back.tools[0].inputSchema.maximum).toBe(Infinity);
    expect(back.tools[0].inputSchema.minimum).toBe(-Infinity);
    expect(Object.is(back.tools[0].inputSchema.default, -0)).toBe(true);
    expect(Object.is(back.tools[0].inputSchema.multipleOf, 0)).toBe(true);
    expect(snapshotText(back)).toBe(text);
  });

  it('progress is drawn only on a terminal', () => {
    const out: string[] = [];
    const stream = { isTTY: true, columns: 60, write: (s: string) => out.push(s) } as unknown as NodeJS.WriteStream;
    const p = createProgress(stream, 2);
    p.start('github');
    p.start('files');
    p.finish('github');
    p.end();
    expect(out).toEqual([
      '\r\x1b[2Kmcp-annotate: 0/2 servers done · running: github',
      '\r\x1b[2Kmcp-annotate: 0/2 servers done · running: github, files',
      '\r\x1b[2Kmcp-annotate: 1/2 servers done · running: files',
      '\r\x1b[2K',
    ]);
    // A terminal that reports 0 columns (an unsized pseudo-terminal) is drawn 80 wide, not as "…".
    const unsized: string[] = [];
    createProgress({ isTTY: true, columns: 0, write: (s: string) => unsized.push(s) } as unknown as NodeJS.WriteStream, 1).start('github');
    expect(unsized).toEqual(['\r\x1b[2Kmcp-annotate: 0/1 servers done · running: github']);
    const quiet: string[] = [];
    const pipe = createProgress({ isTTY: false, write: (s: string) => quiet.push(s) } as unknown as NodeJS.WriteStream, 2);
    pipe.start('x');
    pipe.end();
    expect(quiet).toEqual([]);
  });
});

describe('snapshot files', () => {
  it('a symbolic link is never written through, whatever it points to (a file of the run, a file outside, nothing)', () => {
    const dir = tempDir({ 'dump.json': json({ tools: [], capabilities: {}, serverInfo: { name: 'x' } }), 'plain.json': json({ tools: [], capabilities: {}, serverInfo: { name: 'y' } }) });
    symlinkSync(join(dir, 'dump.json'), join(dir, 'link.json'));
    symlinkSync(join(dir, 'nowhere', 'file.json'), join(dir, 'dangling.json'));
    expect(snapshotMayReplace(join(dir, 'link.json'))).toBe(false);
    expect(snapshotMayReplace(join(dir, 'dangling.json'))).toBe(false);
    // A snapshot itself, or no file at all, may be written.
    expect(snapshotMayReplace(join(dir, 'plain.json'))).toBe(true);
    expect(snapshotMayReplace(join(dir, 'absent.json'))).toBe(true);
  });
});

describe('repeated names in a live listing (raw.ts)', () => {
  /** A page noted from `text`, its message at `at` there. */
  const page = (text: string, at = '') => {
    const message = JSON.parse(text) as unknown;
    const m = (at ? (message as unknown[])[Number(at.slice(1))] : message) as { result: { tools: unknown[] } };
    return { raw: { text, at }, result: m.result };
  };
  const shown = (keys: ReturnType<typeof liveRepeatedKeys>) => keys.map((r) => `${r.kind} ${r.scope}|${r.object}|${r.key}|${r.count}|${r.same}${r.values ? `|${r.values.join(',')}` : ''}${r.page ? `|page ${r.page}` : ''}`);

  it('moves each repeat to the snapshot: tools numbered across pages, the first page\'s kept members at its root', () => {
    const first = page('{"jsonrpc":"2.0","id":1,"result":{"_meta":{},"_meta":{},"serverInfo":1,"serverInfo":2,"nextCursor":"n","nextCursor":"n","tools":[{"name":"a"},{"name":"b","name":"b"}]}}');
    // A batch: the message is its second entry.
    const second = page('[{"jsonrpc":"2.0","id":0,"result":{}},{"jsonrpc":"2.0","id":2,"result":{"x":1,"x":1,"tools":[{"name":"c","annotations":{"t":[{"k":1,"k":2}]}}]}}]', '/1');
    expect(shown(liveRepeatedKeys([first, second], []))).toEqual([
      'envelope ||_meta|2|true|{},{}|page 1',
      'tool /tools/1|/tools/1|name|2|true|"b","b"',
      'tool /tools/2|/tools/2/annotations/t/0|k|2|false|1,2',
    ]);
  });

  it('names the page only in a listing of several, and skips a page whose text was not noted', () => {
    const only = page('{"id":1,"result":{"tools":[],"tools":[]}}');
    expect(shown(liveRepeatedKeys([only], []))).toEqual(['envelope ||tools|2|true|[],[]']);
    const unnoted = { raw: undefined, result: { tools: [{}, {}] } };
    const later = page('{"id":3,"result":{"tools":[{"n":1,"n":1}]}}');
    expect(shown(liveRepeatedKeys([unnoted, later], []))).toEqual(['tool /tools/2|/tools/2|n|2|true|1,1']);
  });

  it('hides the secrets in names, pointers and values as the snapshot does, never in array indexes', () => {
    const secret = 'k3y-0f-the-user';
    const text = `{"id":1,"result":{"tools":[{"_meta":{"${secret}":[{"0":1,"0":"${secret}"}]}}]}}`;
    const keys = liveRepeatedKeys([page(text)], secretNeedles([secret]));
    expect(shown(keys)).toEqual(['tool /tools/0|/tools/0/_meta/***/0|0|2|false|1,"***"']);
    // The snapshot, hidden by redactJson, has the object at that pointer.
    const hidden = redactJson(JSON.parse(text).result, secretNeedles([secret])) as { tools: { _meta: Record<string, unknown[]> }[] };
    expect(Object.keys(hidden.tools[0]!._meta)).toEqual(['***']);
  });
});

describe('the stdio transport', () => {
  it('hears a server that exits as exited, also when this process was busy past the grace after its stdout ended', async () => {
    const { GroupStdioTransport } = await import('../../src/sources/live/stdio.js');
    const failures: string[] = [];
    const transport = new GroupStdioTransport(
      { command: process.execPath, args: ['-e', 'setTimeout(() => process.exit(3), 100)'], env: { ...process.env } as Record<string, string>, cwd: process.cwd() },
      { maxBytes: 1 << 20, isMessage: () => true, fail: (err) => failures.push(err.message) },
    );
    const closed = new Promise<void>((done) => (transport.onclose = () => done()));
    await transport.start();
    // As a loaded machine does: this process gets no time for longer than the grace, right after
    // the server's stdout ends (the transport's own listener has set its timer by then). The
    // exit is heard when the loop polls for I/O, after the timer: it must still count.
    (transport as unknown as { child: import('node:child_process').ChildProcess }).child.stdout!.once('end', () => {
      const until = Date.now() + 300;
      while (Date.now() < until);
    });
    await closed;
    await new Promise((done) => setTimeout(done, 250));
    expect(failures).toEqual([]);
    expect(transport.exit?.code).toBe(3);
  });
});
