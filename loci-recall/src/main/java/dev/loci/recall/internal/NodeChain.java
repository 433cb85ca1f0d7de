package dev.loci.recall.internal;

import dev.loci.recall.MemoryNode;
import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * A node's versions and the live edges touching it, as the positions of their chains in the
 * namespace's {@link EdgeTable}: a short array while they are few (most nodes have a handful; a map
 * entry, a set or a key object per edge cost more than the node's own record when a large graph is
 * restored), an open-addressing set of positions once they are many (a hub), so that adding and
 * removing stay cheap either way. Order is not kept.
 *
 * <p>Not thread-safe: changed with the engine's exclusive access, read with its shared access.
 */
final class NodeChain extends Chain<MemoryNode> {
  private static final int ARRAY_MAX = 16;
  private static final int[] NONE = new int[0];

  // up to ARRAY_MAX positions in [0, linkCount); past that, a table of position + 1 (0 empty)
  private MemoryNode value;
  private int[] links = NONE;
  private int linkCount;

  NodeChain(int ordinal) {
    super(ordinal);
  }

  @Override
  MemoryNode value() {
    return value;
  }

  @Override
  void hold(MemoryNode v) {
    value = v;
  }

  private boolean hashed() {
    return links.length > ARRAY_MAX;
  }

  /** Adds the edge at {@code edge} if it is not there. */
  void link(int edge) {
    if (hashed()) {
      if (insert(links, edge)) {
        if (++linkCount * 2 > links.length) {
          int[] old = links;
          links = new int[old.length * 2];
          for (int p : old) {
            if (p != 0) {
              insert(links, p - 1);
            }
          }
        }
      }
      return;
    }
    for (int i = 0; i < linkCount; i++) {
      if (links[i] == edge) {
        return;
      }
    }
    if (linkCount == ARRAY_MAX) {
      int[] table = new int[ARRAY_MAX * 4];
      for (int i = 0; i < linkCount; i++) {
        insert(table, links[i]);
      }
      insert(table, edge);
      links = table;
      linkCount++;
      return;
    }
    if (linkCount == links.length) {
      links = Arrays.copyOf(links, Math.min(ARRAY_MAX, Math.max(2, linkCount * 2)));
    }
    links[linkCount++] = edge;
  }

  /** Removes the edge at {@code edge} if it is there. */
  void unlink(int edge) {
    if (!hashed()) {
      for (int i = 0; i < linkCount; i++) {
        if (links[i] == edge) {
          links[i] = links[--linkCount];
          return;
        }
      }
      return;
    }
    int mask = links.length - 1;
    int s = slot(edge, mask);
    while (links[s] != edge + 1) {
      if (links[s] == 0) {
        return;
      }
      s = (s + 1) & mask;
    }
    // backward-shift deletion: move later entries of the run into the hole they may occupy
    int hole = s;
    for (int j = (hole + 1) & mask; links[j] != 0; j = (j + 1) & mask) {
      int home = slot(links[j] - 1, mask);
      if (((j - home) & mask) >= ((j - hole) & mask)) {
        links[hole] = links[j];
        hole = j;
      }
    }
    links[hole] = 0;
    linkCount--;
  }

  /** How many live edges touch the node. */
  int linkCount() {
    return linkCount;
  }

  /** Runs {@code action} on the position of every live edge touching the node. */
  void forEachLink(IntConsumer action) {
    if (!hashed()) {
      for (int i = 0; i < linkCount; i++) {
        action.accept(links[i]);
      }
      return;
    }
    for (int p : links) {
      if (p != 0) {
        action.accept(p - 1);
      }
    }
  }

  private static int slot(int edge, int mask) {
    int h = edge * 0x9E3779B9;
    return (h ^ (h >>> 16)) & mask;
  }

  /** Puts {@code edge} into {@code table}; false if it was there. */
  private static boolean insert(int[] table, int edge) {
    int mask = table.length - 1;
    int s = slot(edge, mask);
    while (table[s] != 0) {
      if (table[s] == edge + 1) {
        return false;
      }
      s = (s + 1) & mask;
    }
    table[s] = edge + 1;
    return true;
  }
}
