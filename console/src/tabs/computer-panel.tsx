// One computer: its screen (on demand, or refreshed on an interval the person turns on), clicks on the
// image sent as clicks at the matching screen coordinates and followed by the new screen once done, text
// to type, keys, and the command history.
import type { Command, Computer } from '@mindservice/sdk/browser';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Field, Select, Status, useApp, useCall, useInterval, when } from '../ui.js';

/** How long a click waits for a second one (a double click) before it is sent alone. */
const DOUBLE_CLICK_WAIT_MS = 400;
/** How long the console waits for a click to be done before it gives up on the new screen (the lease is 30 s). */
const CLICK_DONE_WAIT_MS = 60_000;
const FINISHED = new Set(['done', 'failed', 'expired', 'cancelled']);

/** Where a pointer event on the shown image lands on the computer's screen, in the screen's pixels. */

export function screenPoint(e: MouseEvent, img: HTMLImageElement, screen: { width: number; height: number }) {
  // The picture is the content box: the image's border (clientLeft/Top) is not part of the screen.
  const rect = img.getBoundingClientRect();
  const fx = (e.clientX - rect.left - img.clientLeft) / img.clientWidth;
  const fy = (e.clientY - rect.top - img.clientTop) / img.clientHeight;
  const clamp = (v: number, max: number) => Math.min(max - 1, Math.max(0, Math.round(v)));
  return { x: clamp(fx * screen.width, screen.width), y: clamp(fy * screen.height, screen.height) };
}

export function ComputerPanel({ computer }: { computer: Computer }) {
  const { client } = useApp();
  const [image, setImage] = useState<{ url: string; width: number; height: number; at: Date }>();
  const [auto, setAuto] = useState(false);
  const [history, setHistory] = useState<Command[]>();
  const [sent, setSent] = useState<string>();
  const [text, setText] = useState('');
  const [keys, setKeys] = useState('');
  const pendingClick = useRef<number | undefined>(undefined);
  const shot = useCall();
  const send = useCall();
  const hist = useCall();
  const follow = useCall();
  const mounted = useRef(true);

  const loadHistory = () => void hist.run(async () => setHistory((await client.computers.listCommands(computer.id, { limit: 20 })).data));
  const screenshot = () =>
    void shot
      .run(async () => {
        const png = await client.computers.screenshot(computer.id);
        const url = URL.createObjectURL(new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }));
        const size = await new Promise<{ width: number; height: number }>((resolve, reject) => {
          const probe = new Image();
          probe.onload = () => resolve({ width: probe.naturalWidth, height: probe.naturalHeight });
          probe.onerror = () => reject(new Error('The screenshot is not an image the browser can show.'));
          probe.src = url;
        });
        setImage((old) => {
          if (old) URL.revokeObjectURL(old.url);
          return { url, ...size, at: new Date() };
        });
        loadHistory();
        return true;
      })
      .then((taken) => {
        // A computer that fails or went away is not asked again every few seconds.
        if (!taken) setAuto(false);
      });
  useEffect(() => {
    loadHistory();
    return () => {
      mounted.current = false;
      window.clearTimeout(pendingClick.current);
      setImage((old) => {
        if (old) URL.revokeObjectURL(old.url);
        return undefined;
      });
    };
  }, []);
  // Not while the page is hidden: nobody is looking.
  useInterval(() => document.hidden || screenshot(), 5000, auto && !shot.busy);

  /** Queues the command; answers it when it was queued. */
  const queue = async (label: string, command: Parameters<typeof client.computers.queue>[1]) => {
    const queued = await send.run(() => client.computers.queue(computer.id, command));
    if (queued) {
      setSent(`${label}: queued`);
      loadHistory();
    }
    return queued;
  };
  /** A click changes the screen: once the agent has done it, the screen is taken again. */
  const clickThenShow = async (label: string, payload: ClickPayload) => {
    const queued = await queue(label, { type: 'click', payload });
    if (!queued) return;
    const finished = await follow.run(async () => {
      const deadline = Date.now() + CLICK_DONE_WAIT_MS;
      for (;;) {
        const command = await client.computers.getCommand(computer.id, queued.command_id);
        if (FINISHED.has(command.status) || !mounted.current) return command;
        if (Date.now() > deadline) throw new Error(`${label}: still ${command.status} after a minute; is the agent running?`);
        await new Promise((resolve) => window.setTimeout(resolve, 250));
      }
    });
    if (!finished || !mounted.current) return;
    setSent(`${label}: ${finished.status}`);
    if (finished.status === 'done') screenshot();
    else loadHistory();
  };
  /** The screen the commands' coordinates are in: as the agent reported it, else the image's own size. */
  const screen = () => computer.screen ?? { width: image!.width, height: image!.height };
  const pointOf = (e: MouseEvent) => screenPoint(e, e.currentTarget as HTMLImageElement, screen());
  const clickAt = ({ x, y }: { x: number; y: number }, button: 'left' | 'right', double: boolean) => {
    const what = `${double ? 'Double click' : button === 'right' ? 'Right click' : 'Click'} at ${x}, ${y}`;
    void clickThenShow(what, { x, y, ...(button === 'right' ? { button } : {}), ...(double ? { double: true } : {}) });
  };
  // A double click begins with two clicks: a click waits a moment so that a double click sends one
  // command. The point is taken at the click (the image may move before the wait ends). A double
  // click slower than the wait has sent its first click already: its second goes as one more click.
  const onClick = (e: MouseEvent) => {
    if (e.detail > 1) return;
    const point = pointOf(e);
    window.clearTimeout(pendingClick.current);
    pendingClick.current = window.setTimeout(() => {
      pendingClick.current = undefined;
      clickAt(point, 'left', false);
    }, DOUBLE_CLICK_WAIT_MS);
  };
  const onDoubleClick = (e: MouseEvent) => {
    const point = pointOf(e);
    const waiting = pendingClick.current !== undefined;
    window.clearTimeout(pendingClick.current);
    pendingClick.current = undefined;
    clickAt(point, 'left', waiting);
  };
  const onContextMenu = (e: MouseEvent) => {
    e.preventDefault();
    clickAt(pointOf(e), 'right', false);
  };

  return (
    <div class="computer">
      <div class="row">
        <button type="button" class="primary" onClick={screenshot} disabled={shot.busy}>
          Take a screenshot
        </button>
        <label class="check">
          <input type="checkbox" checked={auto} onChange={(e) => setAuto(e.currentTarget.checked)} /> Refresh the screen every 5 seconds
        </label>
      </div>
      <Status busy={shot.busy} error={shot.error} label="Waiting for the computer's screenshot…" />
      {image && (
        <figure class="screen">
          {/* biome-ignore lint/a11y/useKeyWithClickEvents: the form below does with the keyboard what a click on the image does */}
          <img
            src={image.url}
            width={image.width}
            height={image.height}
            alt={`The screen of ${computer.computer_name}: click to click there, double-click to double-click, right-click to right-click`}
            onClick={onClick}
            onDblClick={onDoubleClick}
            onContextMenu={onContextMenu}
          />
          <figcaption class="muted small">
            {image.width}×{image.height} image, taken {image.at.toLocaleTimeString()}
          </figcaption>
        </figure>
      )}
      <ClickForm onClick={(what, payload) => void clickThenShow(what, payload)} busy={send.busy} />
      <Status busy={follow.busy} error={follow.error} label="Waiting for the click to be done, then for the new screen…" />
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (text) void queue(`Type ${JSON.stringify(text)}`, { type: 'type', payload: { text } }).then((ok) => ok && setText(''));
        }}
      >
        <Field label="Text to type" value={text} onInput={(e) => setText(e.currentTarget.value)} />
        <button type="submit" disabled={send.busy}>
          Type it
        </button>
      </form>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          const combo = keys
            .split('+')
            .map((k) => k.trim())
            .filter(Boolean);
          if (combo.length)
            void queue(`Keys ${combo.join('+')}`, { type: 'key', payload: { keys: combo } }).then((ok) => ok && setKeys(''));
        }}
      >
        <Field label="Keys" value={keys} onInput={(e) => setKeys(e.currentTarget.value)} hint="e.g. Return, ctrl+c, alt+Tab" />
        <button type="submit" disabled={send.busy}>
          Press keys
        </button>
      </form>
      <Status busy={send.busy} error={send.error} label="Queueing…" />
      {sent && (
        <p role="status" class="ok-text">
          {sent}
        </p>
      )}
      <h3>
        Command history{' '}
        <button type="button" onClick={loadHistory}>
          Refresh history
        </button>
      </h3>
      <Status busy={hist.busy} error={hist.error} label="Loading the history…" />
      <table class="list" aria-label={`Commands of ${computer.computer_name}`}>
        <thead>
          <tr>
            <th scope="col">Command</th>
            <th scope="col">Status</th>
            <th scope="col">Queued</th>
            <th scope="col">Finished</th>
          </tr>
        </thead>
        <tbody>
          {history?.map((c) => (
            <tr key={c.command_id}>
              <td data-label="Command">
                {c.type} <span class="muted small">{summary(c.payload)}</span>
              </td>
              <td data-label="Status">
                {c.status}
                {c.error && <span class="error-text"> ({c.error})</span>}
              </td>
              <td data-label="Queued">{when(c.created_at)}</td>
              <td data-label="Finished">{when(c.completed_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type ClickPayload = { x: number; y: number; button?: 'right'; double?: true };

/** A click at coordinates typed in: what a click on the image does, from the keyboard. */
function ClickForm({ onClick, busy }: { onClick(what: string, payload: ClickPayload): void; busy: boolean }) {
  const [x, setX] = useState('');
  const [y, setY] = useState('');
  const [kind, setKind] = useState('click');
  return (
    <form
      class="row"
      onSubmit={(e) => {
        e.preventDefault();
        const at = { x: Number(x), y: Number(y) };
        const extra = kind === 'right' ? { button: 'right' as const } : kind === 'double' ? { double: true as const } : {};
        onClick(`${kind === 'right' ? 'Right click' : kind === 'double' ? 'Double click' : 'Click'} at ${at.x}, ${at.y}`, {
          ...at,
          ...extra,
        });
      }}
    >
      <Field label="X" type="number" min={0} step={1} required value={x} onInput={(e) => setX(e.currentTarget.value)} />
      <Field label="Y" type="number" min={0} step={1} required value={y} onInput={(e) => setY(e.currentTarget.value)} />
      <Select
        label="Click kind"
        value={kind}
        options={[
          ['click', 'Click'],
          ['double', 'Double click'],
          ['right', 'Right click'],
        ]}
        onChange={setKind}
      />
      <button type="submit" disabled={busy}>
        Click there
      </button>
    </form>
  );
}

const summary = (payload: unknown) => {
  const text = JSON.stringify(payload ?? {});
  return text === '{}' ? '' : text.length > 80 ? `${text.slice(0, 77)}…` : text;
};
