package dev.loci.recall.internal;

import dev.loci.recall.MemoryEdge;

/**
 * The edges of a namespace, by from, type and to, in the order first put (see {@link ChainTable}).
 */
final class EdgeTable extends ChainTable<MemoryEdge, Chain<MemoryEdge>> {
  @Override
  int hashOf(MemoryEdge value) {
    return hash(value.from(), value.edgeType(), value.to());
  }

  private static int hash(String from, String type, String to) {
    return (from.hashCode() * 31 + type.hashCode()) * 31 + to.hashCode();
  }

  /** The chain of the edge {@code from -type-> to}, or null. */
  Chain<MemoryEdge> get(String from, String type, String to) {
    int h = hash(from, type, to);
    for (int s = firstSlot(h); !empty(s); s = nextSlot(s)) {
      Chain<MemoryEdge> c = inSlot(s, h);
      if (c != null) {
        MemoryEdge e = c.value();
        if (e.from().equals(from) && e.to().equals(to) && e.edgeType().equals(type)) {
          return c;
        }
      }
    }
    return null;
  }

  /** The chain of edge {@code k}, or null. */
  Chain<MemoryEdge> get(MemoryEdge.Key k) {
    return get(k.from(), k.edgeType(), k.to());
  }

  /** Whether the namespace ever held edge {@code k}. */
  boolean containsKey(MemoryEdge.Key k) {
    return get(k) != null;
  }
}
