/**
 * The local embedder's waiting work, in two lanes: questions (a recall waits: a question's vector, a
 * re-ranking) are always taken before background work (the worker's batches), and within the
 * question lane the minds take turns, so one mind's many recalls do not queue up ahead of another's.
 * Background work comes in small slices, so a question waits for at most one slice.
 */
export type Lane = 'question' | 'background';

export class JobQueue<T> {
  /** Per mind, its questions in order; the Map's order is the turn order. */
  private readonly questions = new Map<string, T[]>();
  private readonly background: T[] = [];

  get size(): number {
    let n = this.background.length;
    for (const jobs of this.questions.values()) n += jobs.length;
    return n;
  }

  push(job: T, lane: Lane, mindId = ''): void {
    if (lane === 'background') {
      this.background.push(job);
      return;
    }
    const jobs = this.questions.get(mindId);
    if (jobs) jobs.push(job);
    else this.questions.set(mindId, [job]);
  }

  /** The next job: the first question of the mind whose turn it is (that mind then goes last), else background work. */
  shift(): T | undefined {
    for (const [mindId, jobs] of this.questions) {
      const job = jobs.shift();
      this.questions.delete(mindId);
      if (jobs.length > 0) this.questions.set(mindId, jobs);
      if (job !== undefined) return job;
    }
    return this.background.shift();
  }

  /** Takes a job out (its caller gave up on it): it is never computed. */
  remove(job: T): boolean {
    const at = this.background.indexOf(job);
    if (at >= 0) {
      this.background.splice(at, 1);
      return true;
    }
    for (const [mindId, jobs] of this.questions) {
      const i = jobs.indexOf(job);
      if (i < 0) continue;
      jobs.splice(i, 1);
      if (jobs.length === 0) this.questions.delete(mindId);
      return true;
    }
    return false;
  }

  /** Empties the queue, answering every job taken out. */
  drain(): T[] {
    const all = [...[...this.questions.values()].flat(), ...this.background];
    this.questions.clear();
    this.background.length = 0;
    return all;
  }
}
