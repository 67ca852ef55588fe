import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';

/** A KubeConfig pointing at a fake API server (token auth, plain HTTP on loopback). */
export function createTestKubeConfig(url: string, name = 'fake'): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name, server: url, skipTLSVerify: true }],
    users: [{ name: `${name}-user`, token: 'test-token' }],
    contexts: [{ name, cluster: name, user: `${name}-user` }],
    currentContext: name,
  });
  return kc;
}

/** The same, written as a kubeconfig file (for code that takes a path, like the config file does). */
export async function writeTestKubeConfig(url: string, name = 'fake'): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fake-kubeconfig-'));
  const file = path.join(dir, 'kubeconfig');
  await writeFile(file, createTestKubeConfig(url, name).exportConfig());
  return file;
}
