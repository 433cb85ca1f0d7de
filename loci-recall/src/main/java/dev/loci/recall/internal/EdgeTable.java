package dev.loci.recall.internal;

import dev.loci.recall.MemoryEdge;

/**
 * The edges of a namespace, by from, type and to, in the order first put (see {@link ChainTable}).
 */
final class EdgeTable extends ChainTable<MemoryEdge, EdgeChain> {
  @Override
  int hashOf(EdgeChain c) {
    return hash(c.from(), c.type(), c.to());
  }

  private static int hash(String from, String type, String to) {
    return (from.hashCode() * 31 + type.hashCode()) * 31 + to.hashCode();
  }

  /** The chain of the edge {@code from -type-> to}, or null. */
  EdgeChain get(String from, String type, String to) {
    int h = hash(from, type, to);
    for (int s = firstSlot(h); !empty(s); s = nextSlot(s)) {
      EdgeChain c = inSlot(s, h);
      if (c != null && c.from().equals(from) && c.to().equals(to) && c.type().equals(type)) {
        return c;
      }
    }
    return null;
  }

  /** The chain of edge {@code k}, or null. */
  EdgeChain get(MemoryEdge.Key k) {
    return get(k.from(), k.edgeType(), k.to());
  }

  /** Whether the namespace ever held edge {@code k}. */
  boolean containsKey(MemoryEdge.Key k) {
    return get(k) != null;
  }
}
