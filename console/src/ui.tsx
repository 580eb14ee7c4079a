// Small pieces every screen uses: the app's context, a call with progress and errors in words, labelled fields.
import type { MindClient } from '@mindservice/sdk/browser';
import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { describeError, isMindKeyRefused, isSessionEnded, type Session } from './session.js';

export interface AppState {
  session: Session;
  /** The person's client (JWT only). */
  client: MindClient;
  /** Back to the sign-in form, with a message. */
  signOut(message?: string): void;
}
export const AppContext = createContext<AppState | undefined>(undefined);

export interface MindState {
  mindId: string;
  mindName: string;
  /** JWT and the mind's console key. */
  client: MindClient;
  /** The console key in use, which the Keys tab marks. */
  consoleKeyId: string | undefined;
  /** The service refused the console key: a new one is made (or, refused again at once, the message shown). */
  keyRefused(message: string): void;
}
export const MindContext = createContext<MindState | undefined>(undefined);

export function useApp(): AppState {
  const app = useContext(AppContext);
  if (!app) throw new Error('useApp outside the signed-in console');
  return app;
}

export function useMind(): MindState {
  const mind = useContext(MindContext);
  if (!mind) throw new Error('useMind outside a mind');
  return mind;
}

/**
 * `run(fn)` calls the API with progress (`busy`) and the error's message in words (`error`); a refused
 * JWT signs out with a message, a refused console key is replaced.
 */
export function useCall() {
  const app = useContext(AppContext);
  const mind = useContext(MindContext);
  const [busy, setBusy] = useState(0);
  const [error, setError] = useState<string | undefined>();
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const run = useCallback(
    async <T,>(fn: () => Promise<T>): Promise<T | undefined> => {
      setBusy((n) => n + 1);
      setError(undefined);
      try {
        return await fn();
      } catch (err) {
        if (isSessionEnded(err) && app)
          app.signOut('Your session has ended (signed in too long ago, or the account is gone): sign in again.');
        else if (isMindKeyRefused(err) && mind) mind.keyRefused(`The mind's key was refused: ${describeError(err)}`);
        else if (mounted.current) setError(describeError(err));
        return undefined;
      } finally {
        if (mounted.current) setBusy((n) => n - 1);
      }
    },
    [app, mind],
  );
  return { busy: busy > 0, error, setError, run };
}

/** Progress and the error of a call, announced to screen readers. */
export function Status({ busy, error, label = 'Working…' }: { busy: boolean; error?: string | undefined; label?: string }) {
  return (
    <div class="status">
      {busy && (
        <p role="status" class="busy">
          <span class="spinner" aria-hidden="true" /> {label}
        </p>
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </div>
  );
}

type InputProps = InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string; type?: string };

/** An input with its visible label (its accessible name) and a hint that describes it. */
export function Field({ label, hint, ...input }: InputProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint && <small id={`${id}-hint`}>{hint}</small>}
    </div>
  );
}

export function Select({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: Array<[value: string, text: string]>;
  onChange(value: string): void;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Section({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <section class="card" aria-label={title}>
      <header class="card-head">
        <h2>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}

/** A copy button: the text to the clipboard, and a word that it was copied. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState<string>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('Copied.');
    } catch {
      setCopied('Copying is not allowed here: select the text and copy it.');
    }
  };
  return (
    <span class="copy">
      <button type="button" onClick={copy}>
        {label}
      </button>
      <span role="status">{copied}</span>
    </span>
  );
}

/** A date as the person's browser writes them; ISO strings and Unix seconds alike. */
export function when(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString();
}

/** Runs `fn` every `ms` while `on`. */
export function useInterval(fn: () => void, ms: number, on: boolean) {
  const saved = useRef(fn);
  saved.current = fn;
  useEffect(() => {
    if (!on) return undefined;
    const timer = setInterval(() => saved.current(), ms);
    return () => clearInterval(timer);
  }, [ms, on]);
}

/**
 * A confirmation of a destructive action on one item: it takes the focus ("Keep it", the safe answer,
 * holds `keep`) and gives it back to the button that opened it when it closes.
 */
export function useConfirmation<T>() {
  const [confirming, setConfirming] = useState<T>();
  const opener = useRef<HTMLElement | null>(null);
  const keep = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (confirming) keep.current?.focus();
  }, [confirming]);
  return {
    confirming,
    keep,
    ask: (item: T, from: HTMLElement) => {
      opener.current = from;
      setConfirming(item);
    },
    /** Closes it; `refocus` false when the item is gone (its button with it). */
    close: (refocus = true) => {
      setConfirming(undefined);
      if (refocus) opener.current?.focus();
    },
  };
}

/** The confirmation's panel: the question, the destructive button, and "Keep it" (which holds the focus). */
export function Confirmation(props: {
  question: string;
  children: ComponentChildren;
  confirm: string;
  onConfirm(): void;
  busy: boolean;
  keep: { current: HTMLButtonElement | null };
  onKeep(): void;
}) {
  return (
    <div class="confirm" role="alertdialog" aria-label={props.question} onKeyDown={(e) => e.key === 'Escape' && props.onKeep()}>
      <p>{props.children}</p>
      <button type="button" class="danger" onClick={props.onConfirm} disabled={props.busy}>
        {props.confirm}
      </button>
      <button type="button" ref={props.keep} onClick={props.onKeep}>
        Keep it
      </button>
    </div>
  );
}
