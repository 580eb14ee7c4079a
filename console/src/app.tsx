// The console: the sign-in form, or the signed-in person's minds and one mind's tabs.
import { useMemo, useState } from 'preact/hooks';
import { Consent } from './consent.js';
import { MindPage } from './mind.js';
import { MindsPage } from './minds.js';
import { useRoute } from './route.js';
import { clearSession, clientFor, heldConsoleKeys, loadSession, type Session, saveSession } from './session.js';
import { SignIn } from './signin.js';
import { AppContext, type AppState } from './ui.js';

export function App() {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  const [notice, setNotice] = useState<string>();
  const route = useRoute();

  const app = useMemo<AppState | undefined>(
    () =>
      session && {
        session,
        client: clientFor(session),
        signOut(message?: string) {
          clearSession();
          setNotice(message);
          setSession(undefined);
        },
      },
    [session],
  );

  if (route.page === 'authorize') return <Consent query={route.query} />;
  if (!app) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(s) => {
          saveSession(s);
          setNotice(undefined);
          setSession(s);
        }}
      />
    );
  }
  return (
    <AppContext.Provider value={app}>
      <header class="top">
        <a class="brand" href="#/minds">
          Mind Service console
        </a>
        <span class="who">{app.session.email}</span>
        <button
          type="button"
          onClick={() => {
            // The console's keys end with the session rather than at their expiry; a failure leaves them to expire.
            for (const [mindId, key] of heldConsoleKeys()) void app.client.minds.keys.revoke(mindId, key.id).catch(() => undefined);
            app.signOut('You signed out.');
          }}
        >
          Sign out
        </button>
      </header>
      <main>{route.page === 'mind' ? <MindPage key={route.mindId} mindId={route.mindId} tab={route.tab} /> : <MindsPage />}</main>
    </AppContext.Provider>
  );
}
