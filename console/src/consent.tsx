// The OAuth consent page (/oauth/authorize sends the browser here with the request in the URL's
// fragment): a hosted assistant asks to connect to one mind; the person signs in, picks the mind,
// may make it read only, and allows or denies. The browser then goes back to the assistant.
import type { MindSummary } from '@mindservice/sdk/browser';
import { useEffect, useState } from 'preact/hooks';
import {
  anonymousClient,
  clearSession,
  clientFor,
  describeError,
  isSessionEnded,
  loadSession,
  type Session,
  saveSession,
} from './session.js';
import { Field, Select, Status, useCall } from './ui.js';

interface Request {
  client_name: string;
  redirect_uri: string;
  read_only_asked: boolean;
}

/** The consent endpoints answer the service's error object; its message and details say what is wrong. */
async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(path, init);
  const body = (await res.json().catch(() => ({}))) as T & { message?: string; details?: Array<{ path: string; message: string }> };
  if (!res.ok) {
    const details = body.details?.length ? ` (${body.details.map((d) => `${d.path}: ${d.message}`).join('; ')})` : '';
    throw Object.assign(new Error(`${body.message ?? `HTTP ${res.status}`}${details}`), { status: res.status });
  }
  return body;
}

export function Consent({ query }: { query: string }) {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  const [request, setRequest] = useState<Request>();
  const [minds, setMinds] = useState<MindSummary[]>();
  const [mindId, setMindId] = useState('');
  const [readOnly, setReadOnly] = useState(false);
  const check = useCall();
  const decision = useCall();

  useEffect(() => void check.run(async () => setRequest(await call<Request>(`/oauth/consent?${query}`))), [query]);
  // A session that ended (its JWT expired) goes back to the sign-in form rather than to an error.
  const endSession = (err: unknown) => {
    if (!isSessionEnded(err) && (err as { status?: number }).status !== 401) return false;
    clearSession();
    setSession(undefined);
    return true;
  };
  useEffect(() => {
    if (!session) return;
    clientFor(session)
      .minds.list()
      .then(({ data }) => {
        setMinds(data);
        setMindId((id) => id || data[0]?.id || '');
      })
      .catch((err: unknown) => endSession(err) || decision.setError(describeError(err)));
  }, [session]);

  const decide = async (answer: 'allow' | 'deny') => {
    const done = await decision.run(async () => {
      const params = Object.fromEntries(new URLSearchParams(query));
      const body = { ...params, decision: answer, mind_id: mindId || undefined, read_only: readOnly || request?.read_only_asked === true };
      try {
        return await call<{ redirect_to: string }>('/oauth/consent', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${session!.jwt}` },
          body: JSON.stringify(body),
        });
      } catch (err) {
        if (endSession(err)) return undefined;
        throw err;
      }
    });
    if (done) window.location.assign(done.redirect_to);
  };

  return (
    <main class="signin">
      <h1>Connect to a mind</h1>
      <Status busy={check.busy} error={check.error} label="Reading the request…" />
      {request && (
        <div class="card">
          <p>
            <strong>{request.client_name}</strong> asks to use one of your minds through MCP: to read it
            {request.read_only_asked ? '' : ' and, unless you make it read only, to change it'}. Afterwards your browser goes back to{' '}
            <code>{new URL(request.redirect_uri).host}</code>. You can revoke the access in the mind's Keys tab.
          </p>
          {!session && <ConsentSignIn onSignedIn={setSession} />}
          {session && minds && minds.length === 0 && <p>You have no mind yet: create one in the console first.</p>}
          {session && minds && minds.length > 0 && (
            <form onSubmit={(e) => e.preventDefault()} aria-label="Consent">
              <p class="muted">Signed in as {session.email}.</p>
              <Select label="Mind" value={mindId} options={minds.map((m) => [m.id, m.name])} onChange={setMindId} />
              <label class="check">
                <input
                  type="checkbox"
                  checked={readOnly || request.read_only_asked}
                  disabled={request.read_only_asked}
                  onChange={(e) => setReadOnly(e.currentTarget.checked)}
                />{' '}
                Read only
              </label>
              <div class="actions">
                <button type="button" class="primary" disabled={decision.busy} onClick={() => void decide('allow')}>
                  Allow
                </button>
                <button type="button" disabled={decision.busy} onClick={() => void decide('deny')}>
                  Deny
                </button>
              </div>
            </form>
          )}
          <Status busy={decision.busy} error={decision.error} label="Working…" />
        </div>
      )}
    </main>
  );
}

function ConsentSignIn({ onSignedIn }: { onSignedIn(session: Session): void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const answer = await anonymousClient().accounts.login({ email, password });
      const session = { jwt: answer.jwt, email: answer.user.email };
      saveSession(session);
      onSignedIn(session);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} aria-label="Sign in">
      <Field label="Email" type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      <Field
        label="Password"
        type="password"
        autocomplete="current-password"
        required
        value={password}
        onInput={(e) => setPassword(e.currentTarget.value)}
      />
      <button type="submit" class="primary" disabled={busy}>
        Sign in
      </button>
      <Status busy={busy} error={error} label="Signing in…" />
    </form>
  );
}
