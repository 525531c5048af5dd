import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GroupQueue, type GroupQueueOptions, groupQueueTotals, postOrOneByOne } from './group-queue.ts';

/**
 * The queue of group commit (group-queue.ts) driven by a fake `post` the test settles itself, on
 * fake timers (the window is a setTimeout). Each test pushes items, lets the window pass and
 * settles groups in the order it chooses, and checks what was posted: which items went together,
 * how many groups were in flight at once, which scopes they held and in which order each scope's
 * items went out. Nothing here depends on how long anything takes.
 */

const WINDOW_MS = 1;

type Item = { id: string; scopes: string[] };

const item = (id: string, ...scopes: string[]): Item => ({ id, scopes });

type Posted = { group: Item[]; settle: (outcome: 'resolve' | 'reject') => void; settled: boolean };

/**
 * A queue whose `post` records each group and returns a promise the test settles. Every post checks
 * at once, while it happens, what must never happen: too many groups in flight, a scope shared with
 * a group in flight, a scope twice in a group (with `oncePerGroup`), a group over `maxGroup`.
 */
function harness(options: Partial<Omit<GroupQueueOptions<Item>, 'post' | 'scopes'>> = {}) {
  const settings = {
    name: 'test',
    windowMs: WINDOW_MS,
    maxGroup: 100,
    maxInFlight: 1,
    oncePerGroup: false,
    ...options,
  };
  const posted: Posted[] = [];
  const violations: string[] = [];
  let mostInFlight = 0;
  const inFlight = () => posted.filter((p) => !p.settled);
  const queue = new GroupQueue<Item>({
    ...settings,
    scopes: (it) => it.scopes,
    post: (group) => {
      const others = inFlight();
      if (others.length + 1 > settings.maxInFlight) {
        violations.push(`${others.length + 1} groups in flight (max ${settings.maxInFlight})`);
      }
      const held = new Set(others.flatMap((p) => p.group.flatMap((it) => it.scopes)));
      for (const it of group) {
        for (const scope of it.scopes) {
          if (held.has(scope)) violations.push(`scope ${scope} of ${it.id} is in a group in flight`);
        }
      }
      if (settings.oncePerGroup) {
        const scopes = group.flatMap((it) => [...new Set(it.scopes)]);
        if (new Set(scopes).size !== scopes.length) {
          violations.push(`a scope twice in group ${group.map((it) => it.id).join(',')}`);
        }
      }
      if (group.length === 0) violations.push('an empty group was posted');
      if (group.length > settings.maxGroup)
        violations.push(`a group of ${group.length} > ${settings.maxGroup}`);
      return new Promise<void>((resolve, reject) => {
        const entry: Posted = {
          group,
          settled: false,
          settle: (outcome) => {
            entry.settled = true;
            if (outcome === 'resolve') resolve();
            else reject(new Error(`post of ${group.map((it) => it.id).join(',')} failed`));
          },
        };
        posted.push(entry);
        mostInFlight = Math.max(mostInFlight, inFlight().length);
      });
    },
  });
  return {
    queue,
    push: (...items: Item[]) => {
      for (const it of items) queue.push(it);
    },
    /** The groups posted so far, as item ids. */
    groups: () => posted.map((p) => p.group.map((it) => it.id)),
    inFlight,
    violations,
    mostInFlight: () => mostInFlight,
    /** Settles the `n`th group posted (0 = the first) and lets the queue react. */
    settle: async (n: number, outcome: 'resolve' | 'reject' = 'resolve') => {
      const entry = posted[n];
      if (!entry || entry.settled) throw new Error(`group ${n} is not in flight`);
      entry.settle(outcome);
      await tick();
    },
    /** Settles the `n`th group posted and runs the promise callbacks ready, but no timer. */
    release: async (n: number) => {
      posted[n]!.settle('resolve');
      for (let i = 0; i < 10; i++) await Promise.resolve();
    },
    /** Settles the `k`th group still in flight (in posting order) and lets the queue react. */
    settleInFlight: async (k: number, outcome: 'resolve' | 'reject' = 'resolve') => {
      const entry = inFlight()[k];
      if (!entry) throw new Error(`no group ${k} in flight`);
      entry.settle(outcome);
      await tick();
    },
  };
}

/** Lets the window's timer fire and every promise callback that is ready run. */
async function tick(): Promise<void> {
  await vi.advanceTimersByTimeAsync(WINDOW_MS);
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('GroupQueue', () => {
  it('with readBeforeNext, posts the next group once a turn of the event loop brings nothing more', async () => {
    for (const readBeforeNext of [true, false]) {
      const h = harness({ maxInFlight: 1, readBeforeNext });
      h.push(item('a', 'A'));
      await tick();
      h.push(item('b', 'B'));
      await h.release(0);
      // Requests read in the turns after the group: c, then d, then nothing.
      h.push(item('c', 'C'));
      await vi.advanceTimersToNextTimerAsync();
      h.push(item('d', 'D'));
      await vi.advanceTimersToNextTimerAsync();
      await vi.advanceTimersToNextTimerAsync();
      expect(h.groups()).toEqual(readBeforeNext ? [['a'], ['b', 'c', 'd']] : [['a'], ['b']]);
      expect(h.violations).toEqual([]);
    }
  });

  it('with readBeforeNext, stops reading at its bound while items keep arriving', async () => {
    vi.useRealTimers();
    const h = harness({ maxInFlight: 1, maxGroup: 200_000, readBeforeNext: true });
    h.push(item('first', 'F'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await h.release(0);
    // An item every turn of the event loop, for as long as it takes the next group to go out.
    let n = 0;
    while (h.groups().length < 2 && n < 400_000) {
      h.push(item(`i${n}`, `S${n}`));
      n += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(h.groups()).toHaveLength(2);
    // It went out while they still arrived, neither at the first turn nor at a full group.
    expect(h.groups()[1]!.length).toBeGreaterThan(1);
    expect(h.groups()[1]!.length).toBeLessThan(200_000);
    expect(h.violations).toEqual([]);
  });

  it('posts items pushed together within the window as one group', async () => {
    const h = harness();
    h.push(item('a', 'A'), item('b', 'B'), item('c', 'C'));
    expect(h.groups()).toEqual([]);
    await tick();
    expect(h.groups()).toEqual([['a', 'b', 'c']]);
    expect(h.violations).toEqual([]);
  });

  it('gathers the items that arrive while a group is in flight into the next group', async () => {
    const h = harness({ maxInFlight: 1 });
    h.push(item('a', 'A'));
    await tick();
    h.push(item('b', 'B'));
    await tick();
    h.push(item('c', 'C'), item('d', 'D'));
    await tick();
    // The first group is still being posted: the others wait for it, however long.
    expect(h.groups()).toEqual([['a']]);
    await h.settle(0);
    expect(h.groups()).toEqual([['a'], ['b', 'c', 'd']]);
    h.push(item('e', 'E'));
    await tick();
    await h.settle(1);
    expect(h.groups()).toEqual([['a'], ['b', 'c', 'd'], ['e']]);
    expect(h.violations).toEqual([]);
  });

  it('posts at most maxInFlight groups at once and starts a waiting one when one settles', async () => {
    const h = harness({ maxInFlight: 2 });
    h.push(item('a', 'A'));
    await tick();
    h.push(item('b', 'B'));
    await tick();
    h.push(item('c', 'C'));
    await tick();
    h.push(item('d', 'D'));
    await tick();
    expect(h.groups()).toEqual([['a'], ['b']]);
    expect(h.inFlight()).toHaveLength(2);
    // The second group settles first: its place goes to everything that waited.
    await h.settle(1);
    expect(h.groups()).toEqual([['a'], ['b'], ['c', 'd']]);
    expect(h.inFlight()).toHaveLength(2);
    await h.settle(0);
    await h.settle(2);
    expect(h.inFlight()).toHaveLength(0);
    expect(h.mostInFlight()).toBe(2);
    expect(h.violations).toEqual([]);
  });

  it('never posts two groups with a scope in common at once: an item of a busy scope waits', async () => {
    const h = harness({ maxInFlight: 2 });
    h.push(item('a1', 'A', 'K1'));
    await tick();
    // a2 shares A with the group in flight, k shares K1: only b may go alongside it.
    h.push(item('a2', 'A'), item('b1', 'B'), item('k', 'K1'));
    await tick();
    expect(h.groups()).toEqual([['a1'], ['b1']]);
    await h.settle(0);
    expect(h.groups()).toEqual([['a1'], ['b1'], ['a2', 'k']]);
    expect(h.violations).toEqual([]);
  });

  it('with oncePerGroup, puts a scope at most once in a group and keeps its items in arrival order', async () => {
    const h = harness({ oncePerGroup: true, maxInFlight: 1 });
    h.push(
      item('a1', 'A'),
      item('a2', 'A'),
      item('b1', 'B'),
      item('a3', 'A'),
      item('b2', 'B'),
      item('c1', 'C'),
    );
    await tick();
    expect(h.groups()).toEqual([['a1', 'b1', 'c1']]);
    await h.settle(0);
    expect(h.groups()).toEqual([
      ['a1', 'b1', 'c1'],
      ['a2', 'b2'],
    ]);
    await h.settle(1);
    expect(h.groups()).toEqual([['a1', 'b1', 'c1'], ['a2', 'b2'], ['a3']]);
    expect(h.violations).toEqual([]);
  });

  it('with oncePerGroup, never lets a later item of a scope overtake one held back by a group in flight', async () => {
    const h = harness({ oncePerGroup: true, maxInFlight: 2 });
    h.push(item('a1', 'A'));
    await tick();
    // a2 waits for a1; a3 must wait for a2 although the next group has room and a free slot.
    h.push(item('a2', 'A'), item('b1', 'B'), item('a3', 'A'));
    await tick();
    expect(h.groups()).toEqual([['a1'], ['b1']]);
    await h.settle(1);
    h.push(item('a4', 'A'));
    await tick();
    expect(h.groups()).toEqual([['a1'], ['b1']]);
    await h.settle(0);
    expect(h.groups()).toEqual([['a1'], ['b1'], ['a2']]);
    await h.settle(2);
    expect(h.groups()).toEqual([['a1'], ['b1'], ['a2'], ['a3']]);
    await h.settle(3);
    expect(h.groups()).toEqual([['a1'], ['b1'], ['a2'], ['a3'], ['a4']]);
    expect(h.violations).toEqual([]);
  });

  it('without oncePerGroup, posts items of one scope together in one group, in arrival order', async () => {
    const h = harness({ oncePerGroup: false });
    h.push(item('a1', 'A', 'K1'), item('a2', 'A', 'K2'), item('b1', 'B', 'K3'), item('a3', 'A', 'K4'));
    await tick();
    expect(h.groups()).toEqual([['a1', 'a2', 'b1', 'a3']]);
    expect(h.violations).toEqual([]);
  });

  it('caps a group at maxGroup and posts the rest in the next groups, in arrival order', async () => {
    const h = harness({ maxGroup: 3, maxInFlight: 1 });
    h.push(item('a', 'A'), item('b', 'B'), item('c', 'C'), item('d', 'D'), item('e', 'E'));
    await tick();
    expect(h.groups()).toEqual([['a', 'b', 'c']]);
    h.push(item('f', 'F'), item('g', 'G'));
    await h.settle(0);
    expect(h.groups()).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
    ]);
    await h.settle(1);
    expect(h.groups()).toEqual([['a', 'b', 'c'], ['d', 'e', 'f'], ['g']]);
    expect(h.violations).toEqual([]);
  });

  it('counts groups, items and the largest group in stats', async () => {
    const h = harness({ maxGroup: 4, maxInFlight: 1 });
    expect(h.queue.stats).toEqual({ groups: 0, items: 0, largestGroup: 0, deferred: 0, rolledBack: 0 });
    h.push(item('a', 'A'), item('b', 'B'));
    await tick();
    h.push(item('c', 'C'), item('d', 'D'), item('e', 'E'));
    await h.settle(0);
    h.push(item('f', 'F'));
    await h.settle(1);
    await h.settle(2);
    expect(h.groups()).toEqual([['a', 'b'], ['c', 'd', 'e'], ['f']]);
    expect(h.queue.stats).toEqual({ groups: 3, items: 6, largestGroup: 3, deferred: 0, rolledBack: 0 });
  });

  it("adds every queue's counts of a name to the process's totals, with what its posts report", async () => {
    const name = `totals-${Math.random()}`;
    const first = harness({ name, maxGroup: 4, maxInFlight: 1 });
    const second = harness({ name, maxGroup: 4, maxInFlight: 1 });
    first.push(item('a', 'A'), item('b', 'B'));
    second.push(item('c', 'C'), item('d', 'D'), item('e', 'E'));
    await tick();
    await first.settle(0);
    await second.settle(0);
    first.queue.countDeferred(1);
    second.queue.countRolledBack();
    expect(first.queue.stats).toEqual({ groups: 1, items: 2, largestGroup: 2, deferred: 1, rolledBack: 0 });
    expect(second.queue.stats).toEqual({ groups: 1, items: 3, largestGroup: 3, deferred: 0, rolledBack: 1 });
    expect(groupQueueTotals().get(name)).toEqual({
      groups: 2,
      items: 5,
      largestGroup: 3,
      deferred: 1,
      rolledBack: 1,
    });
  });

  it('goes on after a post rejects: its scopes are freed and later items are posted', async () => {
    const h = harness({ maxInFlight: 1, oncePerGroup: true });
    h.push(item('a1', 'A'), item('b1', 'B'));
    await tick();
    h.push(item('a2', 'A'), item('c1', 'C'));
    await tick();
    await h.settle(0, 'reject');
    expect(h.groups()).toEqual([
      ['a1', 'b1'],
      ['a2', 'c1'],
    ]);
    await h.settle(1, 'reject');
    h.push(item('a3', 'A'));
    await tick();
    expect(h.groups()).toEqual([['a1', 'b1'], ['a2', 'c1'], ['a3']]);
    await h.settle(2);
    expect(h.inFlight()).toHaveLength(0);
    expect(h.queue.stats).toEqual({ groups: 3, items: 5, largestGroup: 2, deferred: 0, rolledBack: 0 });
    expect(h.violations).toEqual([]);
  });

  describe('on random histories of pushes, windows and groups settling in any order', () => {
    type Step =
      | { do: 'push'; scopes: number[] }
      | { do: 'wait' }
      | { do: 'settle'; pick: number; outcome: 'resolve' | 'reject' };

    const stepArb: fc.Arbitrary<Step> = fc.oneof(
      {
        weight: 5,
        arbitrary: fc
          .array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 2 })
          .map((scopes) => ({ do: 'push' as const, scopes })),
      },
      { weight: 2, arbitrary: fc.constant({ do: 'wait' as const }) },
      {
        weight: 3,
        arbitrary: fc.record({
          do: fc.constant('settle' as const),
          pick: fc.nat(),
          outcome: fc.constantFrom('resolve' as const, 'resolve' as const, 'reject' as const),
        }),
      },
    );

    it.each([
      { oncePerGroup: true, maxInFlight: 2, maxGroup: 3 },
      { oncePerGroup: false, maxInFlight: 2, maxGroup: 3 },
      { oncePerGroup: true, maxInFlight: 1, maxGroup: 100 },
      { oncePerGroup: false, maxInFlight: 3, maxGroup: 2 },
    ])('posts every item once, within the limits, each scope in arrival order (%o)', async (options) => {
      await fc.assert(
        fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 60 }), async (steps) => {
          const h = harness(options);
          const pushed: Item[] = [];
          for (const step of steps) {
            if (step.do === 'push') {
              const it = item(`i${pushed.length}`, ...new Set(step.scopes.map((s) => `s${s}`)));
              pushed.push(it);
              h.push(it);
            } else if (step.do === 'wait') {
              await tick();
            } else {
              const open = h.inFlight().length;
              if (open > 0) await h.settleInFlight(step.pick % open, step.outcome);
            }
          }
          // Drain: settle what is in flight, oldest first, until everything was posted.
          for (let rounds = 0; rounds <= pushed.length + 1; rounds++) {
            await tick();
            if (h.inFlight().length === 0) break;
            while (h.inFlight().length > 0) await h.settleInFlight(0);
          }
          expect(h.inFlight()).toHaveLength(0);
          expect(h.violations).toEqual([]);
          expect(h.mostInFlight()).toBeLessThanOrEqual(options.maxInFlight);

          // Every item posted exactly once, and each scope's items in the order they were pushed.
          const order = h.groups().flat();
          expect([...order].sort()).toEqual(pushed.map((it) => it.id).sort());
          const scopes = new Set(pushed.flatMap((it) => it.scopes));
          for (const scope of scopes) {
            const arrived = pushed.filter((it) => it.scopes.includes(scope)).map((it) => it.id);
            const ids = new Set(arrived);
            expect(
              order.filter((id) => ids.has(id)),
              `order of scope ${scope}`,
            ).toEqual(arrived);
          }

          const sizes = h.groups().map((g) => g.length);
          expect(h.queue.stats).toEqual({
            groups: sizes.length,
            items: pushed.length,
            largestGroup: Math.max(0, ...sizes),
            deferred: 0,
            rolledBack: 0,
          });
        }),
        { numRuns: 150 },
      );
    });
  });
});

describe('postOrOneByOne', () => {
  type TItem = { id: number; resolve: (r: string) => void; reject: (e: unknown) => void };
  const itemsOf = (ids: number[], answers: string[]) =>
    ids.map(
      (id): TItem => ({
        id,
        resolve: (r) => answers.push(`${id}:${r}`),
        reject: (e) => answers.push(`${id}:!${String(e)}`),
      }),
    );

  it("places every item one by one, in order, when the group's transaction decides it goes alone", async () => {
    const counts = { rolledBack: 0, deferred: 0 };
    const queue = {
      countRolledBack: () => counts.rolledBack++,
      countDeferred: (n: number) => (counts.deferred += n),
    };
    const answers: string[] = [];
    await postOrOneByOne<object, string, TItem>(
      queue,
      itemsOf([1, 2, 3], answers),
      async () => ({ alone: 'site_accounts_missing' }),
      async (item) => `alone${item.id}`,
    );
    expect(answers).toEqual(['1:alone1', '2:alone2', '3:alone3']);
    expect(counts).toEqual({ rolledBack: 1, deferred: 0 });
  });

  it('answers the outcomes a group decided and places only the deferred ones one by one', async () => {
    const counts = { rolledBack: 0, deferred: 0 };
    const queue = {
      countRolledBack: () => counts.rolledBack++,
      countDeferred: (n: number) => (counts.deferred += n),
    };
    const answers: string[] = [];
    await postOrOneByOne<object, string, TItem>(
      queue,
      itemsOf([1, 2, 3], answers),
      async () => [{ result: 'g1' }, { defer: true }, { error: 'refused' }],
      async (item) => `alone${item.id}`,
    );
    expect(answers).toEqual(['1:g1', '3:!refused', '2:alone2']);
    expect(counts).toEqual({ rolledBack: 0, deferred: 1 });
  });
});
