import { describe, expect, it } from '@jest/globals';
import {
  alarmsFromEndpoints,
  parseAlarmList,
  parseEndpointHealth,
  parseEndpointStatus,
  parseEtcdctlJson,
  parseMemberList,
} from '../../../src/cluster/parse/parse-etcdctl-json.js';

// Verbatim from etcd's etcdctl/README.md (realdata/etcd/real_etcdctl_json_outputs.txt, block 1).
const README_MEMBER_LIST =
  '{"header":{"cluster_id":17237436991929493444,"member_id":9372538179322589801,"raft_term":2},"members":[{"ID":9372538179322589801,"name":"infra1","peerURLs":["http://127.0.0.1:12380"],"clientURLs":["http://127.0.0.1:2379"]},{"ID":10501334649042878790,"name":"infra2","peerURLs":["http://127.0.0.1:22380"],"clientURLs":["http://127.0.0.1:22379"]},{"ID":18249187646912138824,"name":"infra3","peerURLs":["http://127.0.0.1:32380"],"clientURLs":["http://127.0.0.1:32379"]}]}';

describe('parseEtcdctlJson', () => {
  it('keeps uint64 ids exact where JSON.parse rounds them', () => {
    const text = '{"a":3319814642761637952,"b":18249187646912138824,"small":42,"neg":-7,"f":1.5e3}';
    expect(String((JSON.parse(text) as { a: number }).a)).toBe('3319814642761638000');
    expect(parseEtcdctlJson(text)).toStrictEqual({
      a: '3319814642761637952',
      b: '18249187646912138824',
      small: 42,
      neg: -7,
      f: 1500,
    });
  });

  it('never touches digits inside strings, including escaped quotes', () => {
    const text = '{"s":"id 18249187646912138824 \\" 3319814642761637952","n":18249187646912138824}';
    expect(parseEtcdctlJson(text)).toStrictEqual({
      s: 'id 18249187646912138824 " 3319814642761637952',
      n: '18249187646912138824',
    });
  });

  it('rejects text that is not JSON', () => {
    expect(() => parseEtcdctlJson('Error: context deadline exceeded')).toThrow(SyntaxError);
  });
});

describe('parseMemberList', () => {
  it('reads the etcd README output with exact decimal ids and isLearner false when omitted', () => {
    const members = parseMemberList(README_MEMBER_LIST);
    expect(members.map((m) => m.id)).toStrictEqual([
      '9372538179322589801',
      '10501334649042878790',
      '18249187646912138824',
    ]);
    expect(members[2]).toStrictEqual({
      id: '18249187646912138824',
      name: 'infra3',
      peerURLs: ['http://127.0.0.1:32380'],
      clientURLs: ['http://127.0.0.1:32379'],
      isLearner: false,
    });
  });

  it('reads an unstarted learner: no name, no client URLs', () => {
    const [m] = parseMemberList(
      '{"header":{},"members":[{"ID":3319814642761637952,"peerURLs":["https://10.0.0.24:2380"],"isLearner":true}]}',
    );
    expect(m).toStrictEqual({
      id: '3319814642761637952',
      name: '',
      peerURLs: ['https://10.0.0.24:2380'],
      clientURLs: [],
      isLearner: true,
    });
  });
});

describe('parseEndpointStatus', () => {
  it('reads etcd 3.0 output (realdata block 4): leader exact, no raftAppliedIndex', () => {
    const text =
      '[{"Endpoint":"127.0.0.1:2379","Status":{"header":{"cluster_id":17237436991929493444,"member_id":9372538179322589801,"revision":2,"raft_term":2},"version":"3.0.0","dbSize":24576,"leader":18249187646912138824,"raftIndex":32623,"raftTerm":2}}]';
    expect(parseEndpointStatus(text)).toStrictEqual([
      {
        endpoint: '127.0.0.1:2379',
        memberId: '9372538179322589801',
        leader: '18249187646912138824',
        raftTerm: '2',
        raftIndex: '32623',
        version: '3.0.0',
        dbSize: 24576,
        isLearner: false,
        errors: [],
      },
    ]);
  });

  it('etcd 3.4 with no quorum: leader absent, "no leader" kept in errors', () => {
    const text =
      '[{"Endpoint":"https://10.0.0.23:2379","Status":{"header":{"member_id":18249187646912138824,"raft_term":7},"version":"3.4.23","dbSize":4194304,"raftIndex":70211,"raftTerm":7,"raftAppliedIndex":70211,"errors":["etcdserver: no leader"]}}]';
    const [ep] = parseEndpointStatus(text);
    expect(ep).not.toHaveProperty('leader');
    expect(ep).toMatchObject({ memberId: '18249187646912138824', errors: ['etcdserver: no leader'], isLearner: false });
  });

  it('turns "memberID:… alarm:NOSPACE " errors into alarms', () => {
    const eps = parseEndpointStatus(
      '[{"Endpoint":"127.0.0.1:2379","Status":{"header":{"member_id":15300616325842721311},"leader":15300616325842721311,"errors":["memberID:15300616325842721311 alarm:NOSPACE "]}},' +
        '{"Endpoint":"127.0.0.2:2379","Status":{"header":{"member_id":3319814642761637952},"errors":["memberID:15300616325842721311 alarm:NOSPACE "]}}]',
    );
    expect(alarmsFromEndpoints(eps)).toStrictEqual([{ memberId: '15300616325842721311', alarm: 'NOSPACE' }]);
  });

  it('reads empty output (every endpoint down) as no entries', () => {
    expect(parseEndpointStatus('\n')).toStrictEqual([]);
  });
});

describe('parseEndpointHealth', () => {
  it('reads healthy and unhealthy entries; took "" (no client) becomes absent', () => {
    const text =
      '[{"endpoint":"http://127.0.0.1:23999","health":true,"took":"5.014535ms"},{"endpoint":"http://127.0.0.1:23998","health":false,"took":"5.000672154s","error":"context deadline exceeded"},{"endpoint":"https://10.0.0.9:2379","health":false,"took":"","error":"open /etc/etcd/ca.crt: no such file or directory"}]';
    expect(parseEndpointHealth(text)).toStrictEqual([
      { endpoint: 'http://127.0.0.1:23999', health: true, took: '5.014535ms' },
      { endpoint: 'http://127.0.0.1:23998', health: false, took: '5.000672154s', error: 'context deadline exceeded' },
      { endpoint: 'https://10.0.0.9:2379', health: false, error: 'open /etc/etcd/ca.crt: no such file or directory' },
    ]);
  });
});

describe('parseAlarmList', () => {
  it('reads numeric alarm types and the empty answer "{}" etcd 3.4 prints', () => {
    expect(
      parseAlarmList('{"header":{},"alarms":[{"memberID":18249187646912138824,"alarm":1},{"memberID":7,"alarm":2}]}'),
    ).toStrictEqual([
      { memberId: '18249187646912138824', alarm: 'NOSPACE' },
      { memberId: '7', alarm: 'CORRUPT' },
    ]);
    expect(parseAlarmList('{}')).toStrictEqual([]);
  });
});

/**
 * etcdctl's table and simple outputs (parse-etcdctl-text.ts), lines quoted from public threads:
 * etcd-io/etcd#11537 (etcd 3.4.3, simple member list, status table) and openshift/origin#27496 (etcd 3.5.5,
 * one endpoint timed out, two rows at term 8).
 */
describe('etcdctl text outputs of member list and endpoint status', () => {
  const border =
    '+--------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+';
  const header =
    '|         ENDPOINT         |        ID        | VERSION | DB SIZE | IS LEADER | IS LEARNER | RAFT TERM | RAFT INDEX | RAFT APPLIED INDEX | ERRORS |';
  const row = (ep: string, id: string, leader: boolean, term: number, errors = '') =>
    `| ${ep} | ${id} |   3.5.5 |   84 MB |     ${leader} |      false |         ${term} |      67569 |              67569 | ${errors} |`;

  it('simple member list: hex ids to exact decimal, addresses split, learner column', () => {
    const members = parseMemberList(
      'f15c8d27ccf66395, started, etcd-001, https://172.16.2.3:2380, https://172.16.2.3:2379, false\n',
    );
    expect(members).toEqual([
      {
        id: BigInt('0xf15c8d27ccf66395').toString(),
        name: 'etcd-001',
        peerURLs: ['https://172.16.2.3:2380'],
        clientURLs: ['https://172.16.2.3:2379'],
        isLearner: false,
      },
    ]);
    expect(members[0]!.id).toBe('17391931063079953301');
  });

  it('member list table: an unstarted member has no name and no client URLs; several client URLs kept', () => {
    const text = [
      '+------------------+-----------+---------------+---------------------------+---------------------------------------------------+------------+',
      '|        ID        |  STATUS   |     NAME      |        PEER ADDRS         |       CLIENT ADDRS                                |  IS LEARNER |',
      '|  77437ec2a02c648 |   started | etcd-devudb01 | http://172.21.61.224:2380 | http://172.21.61.224:2379,http://10.0.0.1:2379    |      false |',
      '| add745bd637ed2e4 | unstarted |               | http://172.21.58.245:2380 |                                                   |       true |',
    ].join('\n');
    const [a, b] = parseMemberList(text);
    expect(a).toMatchObject({
      name: 'etcd-devudb01',
      clientURLs: ['http://172.21.61.224:2379', 'http://10.0.0.1:2379'],
      isLearner: false,
    });
    expect(b).toMatchObject({ id: BigInt('0xadd745bd637ed2e4').toString(), name: '', clientURLs: [], isLearner: true });
  });

  it('status table: the leader row names itself, rows at its term follow it, an endpoint left out stays absent', () => {
    const st = parseEndpointStatus(
      [
        border,
        header,
        border,
        row('https://10.0.151.23:2379', '7d59549bb5563cbc', false, 8),
        row('https://10.0.230.36:2379', 'a623bf12e6883a04', true, 8),
      ].join('\n'),
    );
    const leader = BigInt('0xa623bf12e6883a04').toString();
    expect(st.map((s) => [s.endpoint, s.memberId, s.leader, s.raftTerm, s.version, s.dbSize, s.errors])).toEqual([
      ['https://10.0.151.23:2379', BigInt('0x7d59549bb5563cbc').toString(), leader, '8', '3.5.5', 84_000_000, []],
      ['https://10.0.230.36:2379', leader, leader, '8', '3.5.5', 84_000_000, []],
    ]);
  });

  it('a row reporting "etcdserver: no leader" follows nobody; a row that does not show whom it follows is kept as an answer (leaderNotShown), not read as "no leader"', () => {
    const st = parseEndpointStatus([header, row('https://a:2379', '1', false, 9, 'etcdserver: no leader')].join('\n'));
    expect(st[0]).toMatchObject({ errors: ['etcdserver: no leader'] });
    expect(st[0]!.leader).toBeUndefined();
    // Not shown is not absent: rows that answered without naming whom they follow are kept, marked leaderNotShown.
    const followers = parseEndpointStatus(
      [header, row('https://a:2379', '1', false, 9), row('https://b:2379', '2', false, 9)].join('\n'),
    );
    expect(followers.map((x) => [x.endpoint, x.leader, x.leaderNotShown])).toEqual([
      ['https://a:2379', undefined, true],
      ['https://b:2379', undefined, true],
    ]);
    const otherTerm = parseEndpointStatus(
      [header, row('https://a:2379', '1', true, 9), row('https://b:2379', '2', false, 7)].join('\n'),
    );
    expect(otherTerm.map((x) => [x.leader, x.leaderNotShown])).toEqual([
      ['1', undefined],
      [undefined, true],
    ]);
  });

  it('simple status lines (3.4/3.5 layout); error text is still refused so it is read as stderr', () => {
    const st = parseEndpointStatus('https://127.0.0.1:2379, 8e9e05c52164694d, 3.5.0, 25 kB, true, false, 2, 4, 4, \n');
    expect(st[0]).toMatchObject({
      endpoint: 'https://127.0.0.1:2379',
      leader: BigInt('0x8e9e05c52164694d').toString(),
      dbSize: 25_000,
      raftAppliedIndex: '4',
      errors: [],
    });
    expect(() =>
      parseEndpointStatus('Failed to get the status of endpoint https://10.0.189.153:2379 (context deadline exceeded)'),
    ).toThrow(/not etcdctl output/);
  });

  // Layouts from etcdctl/ctlv3/command/printer.go of v3.3.27 and v3.6.0 (etcd-io/etcd, Apache-2.0); the
  // values are those of the 3.6 status table in etcd's own demo (localhost:2379 … 8211f1d0f64f3269).
  it('simple status lines of etcd 3.3 (7 fields, no learner, no errors): the leader and the members at its term', () => {
    const st = parseEndpointStatus(
      [
        'localhost:2379, 8211f1d0f64f3269, 3.3.27, 20 kB, true, 2, 10',
        'localhost:22379, 91bc3c398fb3c146, 3.3.27, 20 kB, false, 2, 10',
      ].join('\n'),
    );
    const leader = BigInt('0x8211f1d0f64f3269').toString();
    expect(
      st.map((s) => [s.endpoint, s.leader, s.raftTerm, s.raftIndex, s.version, s.dbSize, s.errors, s.isLearner]),
    ).toEqual([
      ['localhost:2379', leader, '2', '10', '3.3.27', 20_000, [], false],
      ['localhost:22379', leader, '2', '10', '3.3.27', 20_000, [], false],
    ]);
  });

  it('simple status lines of etcd 3.6 (16 fields): storage version and quota skipped, errors between the fixed columns', () => {
    const healthy =
      'localhost:2379, 8211f1d0f64f3269, 3.6.0, 3.6.0, 20 kB, 16 kB, 20%, 0 B, true, false, 2, 10, 10, , , false';
    const st = parseEndpointStatus(healthy);
    expect(st[0]).toMatchObject({
      endpoint: 'localhost:2379',
      version: '3.6.0',
      dbSize: 20_000,
      raftTerm: '2',
      raftIndex: '10',
      raftAppliedIndex: '10',
      errors: [],
      isLearner: false,
    });
    expect(st[0]!.leader).toBe(BigInt('0x8211f1d0f64f3269').toString());
    // Two errors joined with ", " by etcdctl, then the two downgrade columns.
    const alarmed =
      'localhost:22379, 91bc3c398fb3c146, 3.6.0, 3.6.0, 2.1 GB, 2.1 GB, 0%, 2.1 GB, false, false, 3, 10, 10, etcdserver: no leader, memberID:10501334649042878790 alarm:NOSPACE , , false';
    const [a] = parseEndpointStatus(alarmed);
    expect(a!.errors).toEqual(['etcdserver: no leader', 'memberID:10501334649042878790 alarm:NOSPACE']);
    expect(a!.leader).toBeUndefined();
    expect(a!.dbSize).toBe(2_100_000_000);
  });

  it('a simple line of none of the three layouts is refused by name, not read into the wrong columns', () => {
    expect(() =>
      parseEndpointStatus('localhost:2379, 8211f1d0f64f3269, 3.6.0, 20 kB, maybe, false, 2, 10, 10, '),
    ).toThrow(/endpoint status: not etcdctl output/);
    expect(() =>
      parseMemberList('8211f1d0f64f3269, started, infra1, http://127.0.0.1:12380, http://127.0.0.1:2379, false, extra'),
    ).toThrow(/member list: not etcdctl output/);
  });
});
