/** `int / 10^decimals` as exact decimal text, without trailing zeros. */
export function formatUnits(amount: string, decimals: number): string {
  const value = BigInt(amount);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Spec 2.1 Quantity of `amount` base units: `float` is the number nearest to the exact `numeric`. */
export function quantity(amount: string, decimals: number) {
  const numeric = formatUnits(amount, decimals);
  return { int: amount, decimals, float: Number(numeric), numeric };
}
