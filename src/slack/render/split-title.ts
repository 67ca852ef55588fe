/**
 * A finding title as a headline and the rest (pure): "Webhook X refuses pods (221 refusals): service
 * kyverno/kyverno-svc has no ready endpoints" is headed "Webhook X refuses pods (221 refusals)", the rest
 * reads as its why. The head ends at the first " — " aside, else at the last ": " when both sides are
 * long enough to stand alone ("Node n1: CNI not initialized" stays whole: "Node n1" says nothing).
 */
export function splitTitle(title: string): { head: string; rest?: string } {
  const dash = title.indexOf(' — ');
  if (dash >= 30) return { head: title.slice(0, dash), rest: title.slice(dash + 3) };
  const colon = title.lastIndexOf(': ');
  // "KubeadmControlPlane ns/name: 3 machine replacements…" stays whole: a kind and a name alone say nothing.
  if (colon >= 40 && title.length - colon - 2 >= 30 && !/^[A-Z][A-Za-z]+ [\w./-]+$/.test(title.slice(0, colon)))
    return { head: title.slice(0, colon), rest: title.slice(colon + 2) };
  return { head: title };
}
