import { createHostLimiter } from './host-limiter.js';

interface Gate {
  promise: Promise<void>;
  open(): void;
}

function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createHostLimiter', () => {
  it.each([
    { max: 1, tasks: 3, runningAtFirst: 1 },
    { max: 2, tasks: 5, runningAtFirst: 2 },
    { max: 4, tasks: 3, runningAtFirst: 3 },
  ])('runs at most $max of $tasks tasks for one host, in arrival order', async ({ max, tasks, runningAtFirst }) => {
    const limiter = createHostLimiter(max);
    const gates = Array.from({ length: tasks }, gate);
    const started: number[] = [];
    let peak = 0;
    const runs = gates.map((g, i) =>
      limiter.run('a.example', async () => {
        started.push(i);
        peak = Math.max(peak, limiter.active('a.example'));
        await g.promise;
        return i;
      }),
    );
    await settle();
    expect(started).toHaveLength(runningAtFirst);
    for (const g of gates) {
      g.open();
      await settle();
    }
    expect(await Promise.all(runs)).toEqual(gates.map((_, i) => i));
    expect(started).toEqual(gates.map((_, i) => i));
    expect(peak).toBe(Math.min(max, tasks));
    expect(limiter.active('a.example')).toBe(0);
  });

  it('limits each host separately', async () => {
    const limiter = createHostLimiter(1);
    const held = gate();
    const first = limiter.run('a.example', () => held.promise);
    await expect(limiter.run('b.example', async () => 'b')).resolves.toBe('b');
    expect(limiter.active('a.example')).toBe(1);
    held.open();
    await first;
  });

  it('frees the slot when a task throws', async () => {
    const limiter = createHostLimiter(1);
    await expect(limiter.run('a.example', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(limiter.active('a.example')).toBe(0);
    await expect(limiter.run('a.example', async () => 'next')).resolves.toBe('next');
  });

  it.each([0, -1, 1.5, NaN])('rejects maxPerHost %p', (max) => {
    expect(() => createHostLimiter(max)).toThrow(RangeError);
  });
});
