/**
 * A store whose entries hold while an epoch does (for example a change token that every rollback
 * replaces): asked under another epoch, it hands out a new, empty store made by `create`.
 */
export function epochScoped<S>(create: () => S): (epoch: string) => S {
  let current: { epoch: string; store: S } | undefined;
  return (epoch) => {
    if (current?.epoch !== epoch) current = { epoch, store: create() };
    return current.store;
  };
}
