// A loopback SMTP server for the browser journeys: it accepts every message the server sends and
// keeps it (envelope, headers, body), so a test can read what went out and answer it.
//
//   node e2e/smtp-sink.mjs PORT LOG   serves until killed, appending one JSON line per message to LOG
//                                     (scripts/e2e.sh starts it before the server; tests read LOG)
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { argv } from 'node:process';
import { fileURLToPath } from 'node:url';

/** Headers of a raw message, unfolded, names lower-cased. */
function parseHeaders(raw) {
  const head = raw.split(/\r?\n\r?\n/, 1)[0].replace(/\r?\n[ \t]+/g, ' ');
  const headers = {};
  for (const line of head.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return headers;
}

/** Starts the sink on 127.0.0.1:`port`; `messages` fills as mail arrives, `onMessage` sees each. */
export function startSmtpSink(port, onMessage = () => {}) {
  const messages = [];
  const server = createServer((socket) => {
    let buffer = '';
    let data = null;
    let envelope = { from: '', to: [] };
    const reply = (line) => socket.write(`${line}\r\n`);
    reply('220 sink.test ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (data !== null) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          data += buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          const raw = data.replace(/^\.\./gm, '.');
          const message = { ...envelope, raw, headers: parseHeaders(raw) };
          messages.push(message);
          onMessage(message);
          data = null;
          envelope = { from: '', to: [] };
          reply('250 2.0.0 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') reply('250-sink.test\r\n250-8BITMIME\r\n250 SMTPUTF8');
        else if (verb === 'HELO') reply('250 sink.test');
        else if (verb === 'MAIL') {
          envelope.from = line.replace(/^MAIL FROM:\s*/i, '');
          reply('250 2.1.0 ok');
        } else if (verb === 'RCPT') {
          envelope.to.push(line.replace(/^RCPT TO:\s*<?([^>\s]*)>?.*$/i, '$1'));
          reply('250 2.1.5 ok');
        } else if (verb === 'DATA') {
          data = '';
          reply('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
          return;
        } else reply('250 ok'); // RSET, NOOP
      }
    });
    socket.on('error', () => socket.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve({ messages, close: () => new Promise((done) => server.close(done)) }));
  });
}

/** The messages a sink started from the command line has logged so far. */
export function readSinkLog(path) {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

if (argv[1] === fileURLToPath(import.meta.url)) {
  const [port, log] = argv.slice(2);
  await startSmtpSink(Number(port), (m) => appendFileSync(log, `${JSON.stringify(m)}\n`));
}
