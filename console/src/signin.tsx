// Sign in (POST /login) or create an account (POST /register): the JWT goes to sessionStorage.
import { useState } from 'preact/hooks';
import { anonymousClient, type Session } from './session.js';
import { Field, Status, useCall } from './ui.js';

export function SignIn({ notice, onSignedIn }: { notice?: string | undefined; onSignedIn(session: Session): void }) {
  const [mode, setMode] = useState<'signin' | 'register'>('signin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useCall();
  const registering = mode === 'register';

  const submit = async (e: Event) => {
    e.preventDefault();
    const client = anonymousClient();
    const answer = await run(() =>
      registering ? client.accounts.register({ email, password }) : client.accounts.login({ email, password }),
    );
    if (answer) onSignedIn({ jwt: answer.jwt, email: answer.user.email });
  };

  return (
    <main class="signin">
      <h1>Mind Service console</h1>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <form class="card" onSubmit={submit} aria-label={registering ? 'Create an account' : 'Sign in'}>
        <h2>{registering ? 'Create an account' : 'Sign in'}</h2>
        <Field label="Email" type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <Field
          label="Password"
          type="password"
          autocomplete={registering ? 'new-password' : 'current-password'}
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        <button type="submit" class="primary" disabled={busy}>
          {registering ? 'Create account' : 'Sign in'}
        </button>
        <Status busy={busy} error={error} label={registering ? 'Creating the account…' : 'Signing in…'} />
      </form>
      <p>
        {registering ? 'Have an account? ' : 'New here? '}
        <button type="button" class="link" onClick={() => setMode(registering ? 'signin' : 'register')}>
          {registering ? 'Sign in instead' : 'Create an account'}
        </button>
      </p>
    </main>
  );
}
