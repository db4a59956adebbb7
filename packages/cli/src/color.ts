/**
 * Colour only where it helps: on a terminal, unless `NO_COLOR` is set (any value); `FORCE_COLOR`
 * turns it on anywhere (except `FORCE_COLOR=0` / `false`). `NO_COLOR` wins when both are set.
 */
export function colorOn(stream: { isTTY?: boolean }, env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR !== undefined) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  return stream.isTTY === true && env.TERM !== "dumb";
}

export interface Paint {
  red: (text: string) => string;
  dim: (text: string) => string;
  bold: (text: string) => string;
}

const style = (on: boolean, open: string, close: string) => (text: string) =>
  on ? `\x1b[${open}m${text}\x1b[${close}m` : text;

export function paint(on: boolean): Paint {
  return { red: style(on, "31", "39"), dim: style(on, "2", "22"), bold: style(on, "1", "22") };
}
