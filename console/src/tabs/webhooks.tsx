// Webhooks: each with its last call and failures, create, enable / disable, test, and its delivery log
// (every attempt's status code and time) with Redeliver.
import type { Delivery, Webhook, WebhookTestResult } from '@mindservice/sdk/browser';
import { useEffect, useState } from 'preact/hooks';
import { Field, Section, Status, useCall, useMind, when } from '../ui.js';

export function WebhooksTab() {
  const { client } = useMind();
  const [hooks, setHooks] = useState<Webhook[]>();
  const list = useCall();
  const load = () => void list.run(async () => setHooks((await client.webhooks.list()).data));
  useEffect(load, []);
  return (
    <>
      <NewWebhook onCreated={load} />
      <Section
        title="Webhooks"
        actions={
          <button type="button" onClick={load}>
            Refresh webhooks
          </button>
        }
      >
        <Status busy={list.busy} error={list.error} label="Loading the webhooks…" />
        {hooks?.length === 0 && <p>No webhook yet.</p>}
        <ul class="items">
          {hooks?.map((hook) => (
            <WebhookItem key={hook.id} hook={hook} onChanged={load} />
          ))}
        </ul>
      </Section>
    </>
  );
}

function NewWebhook({ onCreated }: { onCreated(): void }) {
  const { client } = useMind();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState('*');
  const [secret, setSecret] = useState('');
  const { busy, error, run } = useCall();
  const submit = async (e: Event) => {
    e.preventDefault();
    if (await run(() => client.webhooks.create({ url, events, secret }))) {
      setUrl('');
      setSecret('');
      onCreated();
    }
  };
  return (
    <Section title="New webhook">
      <form class="row" onSubmit={submit}>
        <Field
          label="URL"
          type="url"
          required
          value={url}
          onInput={(e) => setUrl(e.currentTarget.value)}
          placeholder="https://example.com/hooks/mind"
        />
        <Field
          label="Events"
          required
          value={events}
          onInput={(e) => setEvents(e.currentTarget.value)}
          hint="e.g. task.*,memory.created or *"
        />
        <Field
          label="Secret"
          type="password"
          autocomplete="new-password"
          required
          minLength={8}
          value={secret}
          onInput={(e) => setSecret(e.currentTarget.value)}
          hint="8 characters or more; signs every delivery"
        />
        <button type="submit" class="primary" disabled={busy}>
          Create webhook
        </button>
      </form>
      <Status busy={busy} error={error} label="Creating the webhook…" />
    </Section>
  );
}

function WebhookItem({ hook, onChanged }: { hook: Webhook; onChanged(): void }) {
  const { client } = useMind();
  const [log, setLog] = useState<Delivery[]>();
  const [tested, setTested] = useState<WebhookTestResult>();
  const { busy, error, run } = useCall();

  // The webhook's last call changes with its deliveries: the list is read again with the log.
  const loadLog = () =>
    run(async () => {
      setLog((await client.webhooks.deliveries(hook.id, { limit: 50 })).data);
      onChanged();
    });
  const toggle = async () => {
    if (await run(() => (hook.enabled ? client.webhooks.disable(hook.id) : client.webhooks.enable(hook.id)))) onChanged();
  };
  const test = async () => {
    const result = await run(() => client.webhooks.test(hook.id));
    if (result) {
      setTested(result);
      onChanged();
    }
  };
  const redeliver = async (delivery: Delivery) => {
    if (await run(() => client.webhooks.redeliver(hook.id, delivery.id))) await loadLog();
  };
  const failures = log?.filter((d) => d.status === 'failed').length;

  return (
    <li class="item" aria-label={`Webhook ${hook.url}`}>
      <div class="item-head">
        <strong class="break">{hook.url}</strong>
        <span class={hook.enabled ? 'tag ok' : 'tag warn'}>{hook.enabled ? 'enabled' : 'disabled'}</span>
      </div>
      <div class="muted small">
        events: {hook.events} · last call {when(hook.last_call)}
        {hook.last_status !== null && ` · last status ${hook.last_status}`}
        {hook.last_error && <span class="error-text"> · last error: {hook.last_error}</span>}
        {failures !== undefined && ` · ${failures} failed of the last ${log!.length} deliveries`}
      </div>
      <div class="row">
        {/* Each webhook's buttons name it: a screen reader's list of buttons tells them apart. */}
        <button type="button" onClick={toggle} disabled={busy} aria-label={`${hook.enabled ? 'Disable' : 'Enable'} ${hook.url}`}>
          {hook.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" onClick={test} disabled={busy} aria-label={`Send a test event to ${hook.url}`}>
          Send a test event
        </button>
        <button
          type="button"
          onClick={() => (log ? setLog(undefined) : loadLog())}
          aria-expanded={log !== undefined}
          aria-label={`${log ? 'Hide the delivery log of' : 'Delivery log of'} ${hook.url}`}
        >
          {log ? 'Hide the delivery log' : 'Delivery log'}
        </button>
        {log && (
          <button type="button" onClick={loadLog} disabled={busy} aria-label={`Refresh the delivery log of ${hook.url}`}>
            Refresh the log
          </button>
        )}
      </div>
      {tested && (
        <p role="status" class={tested.delivered ? 'ok-text' : 'error-text'}>
          Test: {tested.delivered ? 'delivered' : 'not delivered'}, status {tested.status ?? 'none'}, {tested.duration_ms} ms
          {tested.error && ` (${tested.error})`}
        </p>
      )}
      <Status busy={busy} error={error} />
      {log && (
        <table class="list deliveries" aria-label={`Deliveries of ${hook.url}`}>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts (status code, time)</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {log.length === 0 && (
              <tr>
                <td colSpan={5}>No delivery yet.</td>
              </tr>
            )}
            {log.map((d) => (
              <tr key={d.id}>
                <td data-label="Event">{d.event}</td>
                <td data-label="Status">
                  <span class={d.status === 'succeeded' ? 'tag ok' : d.status === 'failed' ? 'tag warn' : 'tag'}>{d.status}</span>
                  {d.next_attempt_at && <div class="muted small">next try {when(d.next_attempt_at)}</div>}
                </td>
                <td data-label="Attempts">
                  {d.attempts.map((a) => (
                    <div key={a.attempt} class="attempt">
                      #{a.attempt}: {a.status_code ?? 'no answer'} in {a.duration_ms} ms{a.error && ` (${a.error})`}
                    </div>
                  ))}
                </td>
                <td data-label="Created">{when(d.created_at)}</td>
                <td class="actions">
                  <button
                    type="button"
                    onClick={() => redeliver(d)}
                    disabled={busy}
                    aria-label={`Redeliver ${d.event} of ${when(d.created_at)}`}
                  >
                    Redeliver
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </li>
  );
}
