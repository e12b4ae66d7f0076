// Reads the one line `weft serve` prints when it listens (engine/cli/commands/serve-command.ts):
//   Weft Studio: http://127.0.0.1:PORT/#token=TOKEN
// The token must be the one the supervisor gave it: anything else is not our engine.

export interface EngineEndpoint {
  url: string;
  port: number;
}

const LINE = /^Weft Studio: (http:\/\/127\.0\.0\.1:(\d{1,5}))\/#token=([A-Za-z0-9_-]+)\s*$/;

export function parseEndpointLine(line: string, token: string): EngineEndpoint | undefined {
  const match = LINE.exec(line);
  if (match === null || match[1] === undefined || match[2] === undefined || match[3] !== token) return undefined;
  return { url: match[1], port: Number(match[2]) };
}
