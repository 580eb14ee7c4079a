// Tasks: the open ones in the API's order (or a status), create, change status and priority, complete.
import type { Task, TaskPriority, TaskStatus } from '@mindservice/sdk/browser';
import { useEffect, useState } from 'preact/hooks';
import { Field, Section, Select, Status, useCall, useMind, when } from '../ui.js';

const STATUSES: TaskStatus[] = ['pending', 'in_progress', 'done', 'cancelled'];
const PRIORITIES: TaskPriority[] = ['low', 'normal', 'high', 'critical'];
const pairs = (values: string[]) => values.map((v): [string, string] => [v, v.replace('_', ' ')]);

export function TasksTab() {
  const { client } = useMind();
  const [filter, setFilter] = useState('');
  const [tasks, setTasks] = useState<Task[]>();
  const list = useCall();

  const load = (status = filter) =>
    void list.run(async () => setTasks((await client.tasks.list(status ? { status: status as TaskStatus | 'all' } : {})).data));
  useEffect(() => load(), []);

  return (
    <>
      <NewTask onCreated={() => load()} />
      <Section
        title="Tasks"
        actions={
          <Select
            label="Show"
            value={filter}
            options={[['', 'Open (pending and in progress)'], ...pairs(STATUSES), ['all', 'All']]}
            onChange={(v) => {
              setFilter(v);
              load(v);
            }}
          />
        }
      >
        <Status busy={list.busy} error={list.error} label="Loading the tasks…" />
        {tasks?.length === 0 && <p>No task here.</p>}
        <ul class="items">
          {tasks?.map((task) => (
            <TaskItem key={task.id} task={task} onChanged={() => load()} />
          ))}
        </ul>
      </Section>
    </>
  );
}

function NewTask({ onCreated }: { onCreated(): void }) {
  const { client } = useMind();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [priority, setPriority] = useState('normal');
  const { busy, error, run } = useCall();
  const submit = async (e: Event) => {
    e.preventDefault();
    const task = await run(() =>
      client.tasks.create({ title, priority: priority as TaskPriority, ...(description ? { description } : {}) }),
    );
    if (task) {
      setTitle('');
      setDescription('');
      onCreated();
    }
  };
  return (
    <Section title="New task">
      <form class="row" onSubmit={submit}>
        <Field label="Title" required value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
        <Field label="Description (optional)" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        <Select label="Priority" value={priority} options={pairs(PRIORITIES)} onChange={setPriority} />
        <button type="submit" class="primary" disabled={busy}>
          Create task
        </button>
      </form>
      <Status busy={busy} error={error} label="Creating the task…" />
    </Section>
  );
}

function TaskItem({ task, onChanged }: { task: Task; onChanged(): void }) {
  const { client } = useMind();
  const { busy, error, run } = useCall();
  const change = async (fn: () => Promise<unknown>) => {
    if (await run(fn)) onChanged();
  };
  return (
    <li class="item" aria-label={`Task ${task.title}`}>
      <div class="item-head">
        <strong>{task.title}</strong>
        <span class={`tag prio-${task.priority}`}>{task.priority}</span>
        <span class="tag">{task.status.replace('_', ' ')}</span>
      </div>
      {task.description && <p class="content">{task.description}</p>}
      <div class="muted small">
        created {when(task.created_at)} · updated {when(task.updated_at)}
        {task.due_at && ` · due ${when(task.due_at)}`}
        {task.completed_at && ` · completed ${when(task.completed_at)}`}
      </div>
      <div class="row">
        <Select
          label={`Status of ${task.title}`}
          value={task.status}
          options={pairs(STATUSES)}
          onChange={(v) => change(() => client.tasks.update(task.id, { status: v as TaskStatus }))}
        />
        <Select
          label={`Priority of ${task.title}`}
          value={task.priority}
          options={pairs(PRIORITIES)}
          onChange={(v) => change(() => client.tasks.update(task.id, { priority: v as TaskPriority }))}
        />
        {task.status !== 'done' && (
          <button
            type="button"
            class="primary"
            disabled={busy}
            onClick={() => change(() => client.tasks.complete(task.id))}
            aria-label={`Complete ${task.title}`}
          >
            Complete
          </button>
        )}
      </div>
      <Status busy={busy} error={error} />
    </li>
  );
}
