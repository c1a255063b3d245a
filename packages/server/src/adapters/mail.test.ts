import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { smtpMailer } from './mail.ts';
import { Outbox } from './outbox.ts';

/** A minimal SMTP server that accepts every message and keeps what it received. */
async function fakeSmtp(): Promise<{ server: Server; port: number; received: string[] }> {
  const received: string[] = [];
  const server = createServer((socket) => {
    let data = false;
    let message = '';
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      for (const line of chunk.toString('utf8').split('\r\n').slice(0, -1)) {
        if (data) {
          if (line === '.') {
            data = false;
            received.push(message);
            socket.write('250 queued\r\n');
          } else message += `${line}\n`;
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write('250 fake\r\n');
        else if (/^DATA/i.test(line)) {
          data = true;
          socket.write('354 go on\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0, received };
}

let servers: Server[] = [];
afterEach(() => {
  for (const s of servers) s.close();
  servers = [];
});

const mail = {
  to: 'a@example.com',
  kind: 'emailChange',
  subject: 'Your code',
  body: 'Code 123456',
  data: { code: '123456' },
};

describe('the SMTP mailer', () => {
  it('sends through SMTP and records the message in the outbox', async () => {
    const smtp = await fakeSmtp();
    servers.push(smtp.server);
    const outbox = new Outbox();
    await smtpMailer(`smtp://127.0.0.1:${smtp.port}`, outbox).send(mail, 42);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toContain('Subject: Your code');
    expect(smtp.received[0]).toContain('Code 123456');
    expect(outbox.list({ channel: 'email' })).toEqual([
      {
        id: 1,
        channel: 'email',
        to: 'a@example.com',
        kind: 'emailChange',
        subject: 'Your code',
        body: 'Code 123456',
        data: { code: '123456' },
        timestamp: 42,
      },
    ]);
  });

  it('fails when the server cannot be reached, and records nothing', async () => {
    const smtp = await fakeSmtp();
    const { port } = smtp;
    await new Promise((r) => smtp.server.close(r)); // a port nothing listens on any more
    const outbox = new Outbox();
    await expect(smtpMailer(`smtp://127.0.0.1:${port}`, outbox).send(mail, 42)).rejects.toThrow();
    expect(outbox.list()).toEqual([]);
  });
});
