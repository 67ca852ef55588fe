import { describe, expect, it } from '@jest/globals';
import {
  alarmsFromEndpoints,
  parseAlarmList,
  parseEndpointHealth,
  parseEndpointStatus,
  parseEtcdctlJson,
  parseMemberList,
} from '../../../src/cluster/dump/parse-etcdctl-json.js';

// Verbatim from etcd's etcdctl/README.md (realdata/etcd/real_etcdctl_json_outputs.txt, block 1).
const README_MEMBER_LIST =
  '{"header":{"cluster_id":17237436991929493444,"member_id":9372538179322589801,"raft_term":2},"members":[{"ID":9372538179322589801,"name":"infra1","peerURLs":["http://127.0.0.1:12380"],"clientURLs":["http://127.0.0.1:2379"]},{"ID":10501334649042878790,"name":"infra2","peerURLs":["http://127.0.0.1:22380"],"clientURLs":["http://127.0.0.1:22379"]},{"ID":18249187646912138824,"name":"infra3","peerURLs":["http://127.0.0.1:32380"],"clientURLs":["http://127.0.0.1:32379"]}]}';

describe('parseEtcdctlJson', () => {
  it('keeps uint64 ids exact where JSON.parse rounds them', () => {
    const text = '{"a":3319814642761637952,"b":18249187646912138824,"small":42,"neg":-7,"f":1.5e3}';
    expect(String((JSON.parse(text) as { a: number }).a)).toBe('3319814642761638000');
    expect(parseEtcdctlJson(text)).toStrictEqual({ a: '3319814642761637952', b: '18249187646912138824', small: 42, neg: -7, f: 1500 });
  });

  it('never touches digits inside strings, including escaped quotes', () => {
    const text = '{"s":"id 18249187646912138824 \\" 3319814642761637952","n":18249187646912138824}';
    expect(parseEtcdctlJson(text)).toStrictEqual({ s: 'id 18249187646912138824 " 3319814642761637952', n: '18249187646912138824' });
  });

  it('rejects text that is not JSON', () => {
    expect(() => parseEtcdctlJson('Error: context deadline exceeded')).toThrow(SyntaxError);
  });
});

describe('parseMemberList', () => {
  it('reads the etcd README output with exact decimal ids and isLearner false when omitted', () => {
    const members = parseMemberList(README_MEMBER_LIST);
    expect(members.map((m) => m.id)).toStrictEqual(['9372538179322589801', '10501334649042878790', '18249187646912138824']);
    expect(members[2]).toStrictEqual({
      id: '18249187646912138824',
      name: 'infra3',
      peerURLs: ['http://127.0.0.1:32380'],
      clientURLs: ['http://127.0.0.1:32379'],
      isLearner: false,
    });
  });

  it('reads an unstarted learner: no name, no client URLs', () => {
    const [m] = parseMemberList('{"header":{},"members":[{"ID":3319814642761637952,"peerURLs":["https://10.0.0.24:2380"],"isLearner":true}]}');
    expect(m).toStrictEqual({ id: '3319814642761637952', name: '', peerURLs: ['https://10.0.0.24:2380'], clientURLs: [], isLearner: true });
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
    expect(parseAlarmList('{"header":{},"alarms":[{"memberID":18249187646912138824,"alarm":1},{"memberID":7,"alarm":2}]}')).toStrictEqual([
      { memberId: '18249187646912138824', alarm: 'NOSPACE' },
      { memberId: '7', alarm: 'CORRUPT' },
    ]);
    expect(parseAlarmList('{}')).toStrictEqual([]);
  });
});
