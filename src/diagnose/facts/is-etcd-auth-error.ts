/**
 * etcd refused the request for want of credentials: the member answered (it is up), but nothing was
 * read, so nothing is proven about its health or the leader (etcd-io/etcd#13692: `endpoint health` on a
 * cluster with auth enabled prints health=false "etcdserver: user name is empty" on every healthy member).
 */
export function isEtcdAuthError(error: string | undefined): boolean {
  return /user name is empty|permission denied|invalid auth token|authentication failed|user name not found|invalid user ID|auth: revision in header is old/i.test(
    error ?? '',
  );
}
