package dev.loci.recall.internal;

import dev.loci.recall.MemoryNode;

/** The nodes of a namespace, by id, in the order first put (see {@link ChainTable}). */
final class NodeTable extends ChainTable<MemoryNode, NodeChain> {
  @Override
  int hashOf(NodeChain c) {
    return c.value().id().hashCode();
  }

  /** The chain of node {@code id}, or null. */
  NodeChain get(String id) {
    int h = id.hashCode();
    for (int s = firstSlot(h); !empty(s); s = nextSlot(s)) {
      NodeChain c = inSlot(s, h);
      if (c != null && c.value().id().equals(id)) {
        return c;
      }
    }
    return null;
  }

  /** Whether the namespace ever held node {@code id}. */
  boolean containsKey(String id) {
    return get(id) != null;
  }
}
