import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KubeError } from '../../src/cluster/live/kube-error.js';
import { listAll } from '../../src/cluster/live/list-all.js';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { createTestKubeConfig } from '../support/fake-kube-api/create-test-kube-config.js';

// Answers the fake API server never gives: tiny chunks, items before the list's own fields, a page
// cut short. listAll stream-parses pages, so these are where it could go wrong.
const pods = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    metadata: { name: `p${from + i}`, annotations: { note: '},{"metadata":{"name":"fake"}}' } },
    status: { phase: 'Running' },
  }));
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    res.writeHead(200, { 'Content-Type': 'application/json' });
    if (u.pathname === '/api/v1/pods') {
      // Two pages, written 7 bytes at a time; page 2 lists items before apiVersion/kind.
      const body = u.searchParams.get('continue')
        ? JSON.stringify({ items: pods(3, 2), kind: 'PodList', apiVersion: 'v1', metadata: {} })
        : JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: { continue: 'page2' }, items: pods(0, 3) });
      let i = 0;
      const tick = () => (i < body.length ? (res.write(body.slice(i, (i += 7))), setImmediate(tick)) : res.end());
      return tick();
    }
    if (u.pathname === '/api/v1/nodes') {
      if (u.searchParams.get('continue'))
        return void res.end('{"kind":"NodeList","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"n2"}');
      return void res.end(
        JSON.stringify({
          kind: 'NodeList',
          apiVersion: 'v1',
          metadata: { continue: 'x' },
          items: [{ metadata: { name: 'n1' } }],
        }),
      );
    }
    res.end('<html>not an API server</html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('listAll (stream-parsed pages)', () => {
  it('hands over every item of every page exactly, whatever the chunking and field order', async () => {
    const got: { item: KubeObject; list: { apiVersion?: string; kind?: string } }[] = [];
    await listAll(createTestKubeConfig(url), '/api/v1/pods', {
      pageSize: 3,
      what: 'list pods',
      onItem: (item, list) => got.push({ item, list }),
    });
    expect(got.map((g) => g.item)).toEqual(pods(0, 5));
    expect(got.every((g) => g.list.apiVersion === 'v1' && g.list.kind === 'PodList')).toBe(true);
  });

  it('reports a page cut short or not JSON as E_KUBE_RESPONSE', async () => {
    const names: string[] = [];
    const cut = listAll(createTestKubeConfig(url), '/api/v1/nodes', {
      pageSize: 1,
      what: 'list nodes',
      onItem: (i) => void names.push(i.metadata.name),
    });
    await expect(cut).rejects.toMatchObject({
      code: 'E_KUBE_RESPONSE',
      message: 'cannot list nodes: the answer is not JSON',
    });
    expect(names).toEqual(['n1']);
    const html = listAll(createTestKubeConfig(url), '/api/v1/services', {
      pageSize: 1,
      what: 'list services',
      onItem: () => undefined,
    });
    await expect(html).rejects.toBeInstanceOf(KubeError);
  });

  it('lets an exception of onItem through unchanged', async () => {
    const boom = new RangeError('projection failed');
    await expect(
      listAll(createTestKubeConfig(url), '/api/v1/pods', {
        pageSize: 3,
        what: 'list pods',
        onItem: () => {
          throw boom;
        },
      }),
    ).rejects.toBe(boom);
  });
});
