// Computers: online state and last seen, an install code with the command to run, and each computer's
// panel (computer-panel.tsx). Computers answer to the account's JWT too, so this tab needs no Mind Key.
import type { Computer, InstallCode } from '@mindservice/sdk/browser';
import { useEffect, useState } from 'preact/hooks';
import { CopyButton, Field, Section, Status, useApp, useCall, useMind, when } from '../ui.js';
import { ComputerPanel } from './computer-panel.js';

export function ComputersTab() {
  const { client } = useApp();
  const { mindId } = useMind();
  const [computers, setComputers] = useState<Computer[]>();
  const [open, setOpen] = useState<string>();
  const list = useCall();
  const load = () => void list.run(async () => setComputers((await client.computers.list()).data.filter((c) => c.mind_id === mindId)));
  useEffect(load, []);
  return (
    <>
      <InstallCodeCard />
      <Section
        title="Computers"
        actions={
          <button type="button" onClick={load}>
            Refresh computers
          </button>
        }
      >
        <Status busy={list.busy} error={list.error} label="Loading the computers…" />
        {computers?.length === 0 && <p>No computer yet: make an install code above and run the command on the computer.</p>}
        <ul class="items">
          {computers?.map((computer) => (
            <li key={computer.id} class="item" aria-label={`Computer ${computer.computer_name}`}>
              <div class="item-head">
                <strong>{computer.computer_name}</strong>
                <span class={computer.online ? 'tag ok' : 'tag warn'}>{computer.online ? 'online' : 'offline'}</span>
                {computer.status === 'disabled' && <span class="tag warn">disabled</span>}
                <span class="muted small">
                  {computer.platform} {computer.platform_release} · last seen {when(computer.last_seen_at)}
                  {computer.screen && ` · screen ${computer.screen.width}×${computer.screen.height}`}
                </span>
                <button
                  type="button"
                  onClick={() => setOpen(open === computer.id ? undefined : computer.id)}
                  aria-expanded={open === computer.id}
                >
                  {open === computer.id ? `Close ${computer.computer_name}` : `Open ${computer.computer_name}`}
                </button>
              </div>
              {open === computer.id && <ComputerPanel computer={computer} />}
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}

function InstallCodeCard() {
  const { client } = useApp();
  const { mindId } = useMind();
  const [name, setName] = useState('');
  const [code, setCode] = useState<InstallCode>();
  const { busy, error, run } = useCall();
  const submit = async (e: Event) => {
    e.preventDefault();
    const made = await run(() =>
      client.computers.createInstallCode({ mind_id: mindId, ...(name.trim() ? { computer_name: name.trim() } : {}) }),
    );
    if (made) setCode(made);
  };
  const command =
    code && `screen-remote-agent register --server ${window.location.origin} --install-code ${code.install_code}\nscreen-remote-agent run`;
  return (
    <Section title="Add a computer">
      <form class="row" onSubmit={submit}>
        <Field label="Computer name (optional)" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <button type="submit" class="primary" disabled={busy}>
          New install code
        </button>
      </form>
      <Status busy={busy} error={error} label="Making a code…" />
      {code && command && (
        <div class="install">
          <p>
            Install code <code data-testid="install-code">{code.install_code}</code>, single use, valid until {when(code.expires_at)}. On
            the computer (Linux with X11, after <code>npm install -g ./agent</code> from a clone), run:
          </p>
          <pre>
            <code data-testid="install-command">{command}</code>
          </pre>
          <CopyButton text={command} label="Copy the command" />
        </div>
      )}
    </Section>
  );
}
