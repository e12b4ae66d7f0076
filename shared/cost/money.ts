// How an amount of money reads, in the CLI and the app alike: "$0.012", "$1.50", "0.40 EUR".
// Token prices make amounts of a few thousandths common, so small amounts keep four decimals.

const SYMBOLS: Readonly<Record<string, string>> = { USD: '$', EUR: '€', GBP: '£' };

/**
 * An amount in `currency` (USD when unknown): two decimals from 1 up, else up to four, with no
 * trailing zeros past the second; below 0.0001 (but not 0) it reads "<$0.0001".
 *
 * @example
 * formatMoney(0.012, 'USD') // "$0.012"
 * formatMoney(1.5, 'USD')   // "$1.50"
 * formatMoney(0.4, 'CHF')   // "0.40 CHF"
 */
export function formatMoney(amount: number, currency: string | null = 'USD'): string {
  const code = currency ?? 'USD';
  let digits: string;
  if (amount === 0) digits = '0';
  else if (amount < 0.0001) return `<${withCurrency('0.0001', code)}`;
  else if (amount >= 1) digits = amount.toFixed(2);
  else digits = amount.toFixed(4).replace(/(\.\d\d(?:\d*[1-9])?)0+$/, '$1');
  return withCurrency(digits, code);
}

function withCurrency(digits: string, code: string): string {
  const symbol = SYMBOLS[code];
  return symbol === undefined ? `${digits} ${code}` : `${symbol}${digits}`;
}
