import { useState, type SubmitEvent } from 'react';

import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { FormError } from '@/components/ui/form-error';
import { Select } from '@/components/ui/select';
import { fieldErrorsOf } from '@/lib/api-client';

import { useConnectMailbox } from '../api/connect-mailbox';
import type { MailboxAuth, MailboxConnected, MailboxTls } from '../api/types';

/** The providers whose IMAP endpoints are filled in for the user. */
export const PRESETS = {
  gmail: { label: 'Gmail / Google Workspace', host: 'imap.gmail.com', port: 993, tls: 'implicit' },
  microsoft: { label: 'Microsoft 365 / Outlook', host: 'outlook.office365.com', port: 993, tls: 'implicit' },
  other: { label: 'Other IMAP server', host: '', port: 993, tls: 'implicit' },
} as const satisfies Record<string, { label: string; host: string; port: number; tls: MailboxTls }>;

type Preset = keyof typeof PRESETS;

const TLS_OPTIONS: [MailboxTls, string][] = [
  ['implicit', 'SSL/TLS (port 993)'],
  ['starttls', 'STARTTLS (port 143)'],
  ['none', 'None (this server only)'],
];

const AUTH_OPTIONS: [MailboxAuth, string][] = [
  ['password', 'App password'],
  ['xoauth2', 'Google account (the grant from Meetings)'],
];

type Errors = Partial<Record<'host' | 'port' | 'tls' | 'auth' | 'username' | 'password' | 'folder', string>>;

function check(host: string, port: string, username: string, password: string, auth: MailboxAuth): Errors {
  const errors: Errors = {};
  if (!host) errors.host = 'Server is required';
  else if (!/^[A-Za-z0-9.\-[\]:]+$/.test(host)) errors.host = 'Server must be a host name such as imap.example.com';
  const n = Number(port);
  if (!Number.isInteger(n) || n < 1 || n > 65535) errors.port = 'Port must be a whole number from 1 to 65535';
  if (!username) errors.username = 'User name is required';
  if (auth === 'password' && !password) errors.password = 'App password is required';
  return errors;
}

/**
 * Connects a mailbox over IMAP: a provider preset fills in the server; the user gives the login and
 * an app password (or signs in with their Google grant). The server tests the connection at once.
 */
export function ConnectMailboxDialog({ onClose, onConnected }: { onClose: () => void; onConnected: (r: MailboxConnected) => void }) {
  const [preset, setPreset] = useState<Preset>('gmail');
  const [host, setHost] = useState<string>(PRESETS.gmail.host);
  const [port, setPort] = useState('993');
  const [tls, setTls] = useState<MailboxTls>('implicit');
  const [auth, setAuth] = useState<MailboxAuth>('password');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [folder, setFolder] = useState('INBOX');
  const [errors, setErrors] = useState<Errors>({});
  const connect = useConnectMailbox({ onSuccess: onConnected });
  const server = fieldErrorsOf(connect.error);
  const shown = (key: keyof Errors) => errors[key] ?? server[key];

  const choosePreset = (value: string) => {
    const p = value as Preset;
    setPreset(p);
    setHost(PRESETS[p].host);
    setPort(String(PRESETS[p].port));
    setTls(PRESETS[p].tls);
    if (p !== 'gmail') setAuth('password');
  };
  const chooseTls = (value: string) => {
    const t = value as MailboxTls;
    setTls(t);
    setPort(t === 'implicit' ? '993' : '143');
  };

  const submit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const found = check(host.trim(), port.trim(), username.trim(), password, auth);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    // The Google grant signs in by itself; an app password goes with `password`.
    const login =
      auth === 'xoauth2' ? { auth, username: username.trim() } : { auth, username: username.trim(), password };
    connect.mutate({
      host: host.trim(),
      port: Number(port),
      tls,
      ...login,
      folder: folder.trim() || 'INBOX',
    });
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Connect a mailbox"
      description="Replies that land in this mailbox stop sequences and fire reply rules. The password is stored encrypted and never shown again."
      size="lg"
    >
      <form noValidate aria-label="Connect a mailbox" className="space-y-4" onSubmit={submit}>
        <Field label="Provider">
          <Select value={preset} onValueChange={choosePreset} options={Object.entries(PRESETS).map(([k, p]) => [k, p.label] as const)} />
        </Field>
        <div className="grid gap-4 sm:grid-cols-3">
          <Field label="IMAP server" error={shown('host')} className="sm:col-span-2">
            <input
              className={inputClass}
              autoComplete="off"
              placeholder="imap.example.com"
              aria-required="true"
              value={host}
              onChange={(e) => setHost(e.target.value)}
            />
          </Field>
          <Field label="Port" error={shown('port')}>
            <input className={inputClass} inputMode="numeric" value={port} onChange={(e) => setPort(e.target.value)} />
          </Field>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Security" error={shown('tls')}>
            <Select value={tls} onValueChange={chooseTls} options={TLS_OPTIONS} />
          </Field>
          {preset === 'gmail' ? (
            <Field label="Sign in with" error={shown('auth')}>
              <Select value={auth} onValueChange={(v) => setAuth(v as MailboxAuth)} options={AUTH_OPTIONS} />
            </Field>
          ) : null}
        </div>
        <Field label="User name" error={shown('username')} hint="Usually the full email address.">
          <input
            className={inputClass}
            type="email"
            autoComplete="off"
            aria-required="true"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </Field>
        {auth === 'password' ? (
          <Field
            label="App password"
            error={shown('password')}
            hint="Create one in your account's security settings (Google and Microsoft refuse the normal password over IMAP)."
          >
            <input
              className={inputClass}
              type="password"
              autoComplete="new-password"
              aria-required="true"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </Field>
        ) : null}
        <Field label="Folder" error={shown('folder')} hint="Where replies arrive; usually INBOX.">
          <input className={inputClass} value={folder} onChange={(e) => setFolder(e.target.value)} />
        </Field>
        <FormError error={connect.error} />
        <FormActions onCancel={onClose} pending={connect.isPending} label="Connect" pendingLabel="Connecting…" />
      </form>
    </Dialog>
  );
}
