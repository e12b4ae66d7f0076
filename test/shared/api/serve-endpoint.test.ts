// serve.json's schema as a table: what a server writes parses as it is, and a file that lacks a
// field, names another host, or whose port is not its url's is no endpoint (at the field's path).
import { describe, expect, it } from 'vitest';
import { ServeEndpoint } from '../../../shared/api/serve-endpoint.ts';

const good = { url: 'http://127.0.0.1:43117', port: 43117, token: 'Xy_-0123456789abcdefghijklmnopqrstuvwxyzABC', pid: 4242, workspace: '/home/ana/flows' };

describe('ServeEndpoint', () => {
  it.each([good, { ...good, url: 'http://127.0.0.1:1', port: 1 }, { ...good, url: 'http://127.0.0.1:65535', port: 65535 }, { ...good, token: 't' }])('takes %j', (body) => {
    expect(ServeEndpoint.parse(body)).toEqual(body);
  });

  it('reads a file a later weft wrote with more fields, taking the fields it knows', () => {
    expect(ServeEndpoint.parse({ ...good, addedLater: true })).toEqual(good);
  });

  it.each<[unknown, (string | number)[]]>([
    [{ ...good, url: 'http://localhost:43117' }, ['url']],
    [{ ...good, url: 'http://10.0.0.7:43117' }, ['url']],
    [{ ...good, url: 'https://127.0.0.1:43117' }, ['url']],
    [{ ...good, url: 'http://127.0.0.1:43117/' }, ['url']],
    [{ ...good, port: 43118 }, ['port']],
    [{ ...good, port: 0 }, ['port']],
    [{ ...good, port: '43117' }, ['port']],
    [{ ...good, token: '' }, ['token']],
    [{ ...good, pid: 0 }, ['pid']],
    [{ ...good, pid: 1.5 }, ['pid']],
    [{ ...good, pid: '4242' }, ['pid']],
    [{ url: good.url, port: good.port, token: good.token, pid: good.pid }, ['workspace']],
    [{ url: good.url, port: good.port, pid: good.pid, workspace: good.workspace }, ['token']],
  ])('refuses %j at its path', (body, path) => {
    expect(ServeEndpoint.safeParse(body).error?.issues[0]?.path).toEqual(path);
  });
});
