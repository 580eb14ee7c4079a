/**
 * The local embedder's waiting work, in two lanes: questions (a recall waits: a question's vector, a
 * re-ranking) are always taken before background work (the worker's batches). Within the question
 * lane the accounts take turns, and within an account its minds: an account with many minds gets the
 * share of an account with one, and one mind's many recalls do not queue up ahead of another's.
 * Every job is a slice of about the same text size (a large one is cut and queued again for each
 * slice), so a question waits for at most one slice of each account ahead of it.
 */
export type Lane = 'question' | 'background';

/** Whose question a job is: its account (user id) and mind; '' when unknown. */
export interface Asker {
  userId?: string;
  mindId?: string;
}

export class JobQueue<T> {
  /** Per account, per mind, its questions in order; each Map's order is the turn order. */
  private readonly questions = new Map<string, Map<string, T[]>>();
  private readonly background: T[] = [];

  get size(): number {
    let n = this.background.length;
    for (const minds of this.questions.values()) for (const jobs of minds.values()) n += jobs.length;
    return n;
  }

  push(job: T, lane: Lane, asker: Asker = {}): void {
    if (lane === 'background') {
      this.background.push(job);
      return;
    }
    const userId = asker.userId ?? '';
    const mindId = asker.mindId ?? '';
    const minds = this.questions.get(userId) ?? new Map<string, T[]>();
    this.questions.set(userId, minds); // an account already waiting keeps its place
    const jobs = minds.get(mindId);
    if (jobs) jobs.push(job);
    else minds.set(mindId, [job]);
  }

  /**
   * The next job: the first question of the mind whose turn it is in the account whose turn it is
   * (both then go last), else background work.
   */
  shift(): T | undefined {
    for (const [userId, minds] of this.questions) {
      this.questions.delete(userId);
      for (const [mindId, jobs] of minds) {
        minds.delete(mindId);
        const job = jobs.shift();
        if (jobs.length > 0) minds.set(mindId, jobs);
        if (job === undefined) continue;
        if (minds.size > 0) this.questions.set(userId, minds);
        return job;
      }
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
    for (const [userId, minds] of this.questions) {
      for (const [mindId, jobs] of minds) {
        const i = jobs.indexOf(job);
        if (i < 0) continue;
        jobs.splice(i, 1);
        if (jobs.length === 0) minds.delete(mindId);
        if (minds.size === 0) this.questions.delete(userId);
        return true;
      }
    }
    return false;
  }

  /** Empties the queue, answering every job taken out. */
  drain(): T[] {
    const all = [...this.questions.values()].flatMap((minds) => [...minds.values()].flat());
    all.push(...this.background);
    this.questions.clear();
    this.background.length = 0;
    return all;
  }
}
