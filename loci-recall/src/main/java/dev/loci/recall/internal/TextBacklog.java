package dev.loci.recall.internal;

import dev.loci.Namespace;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The nodes whose Lucene text document may lag the graph: the recall layer's apply, which runs with
 * the engine's exclusive access, only notes which node changed, and the document is written later
 * with shared access (by the writer before its command returns, or by the next text search, see
 * {@code RecallLayer.settle}), so that readers are not held off while Lucene analyses and indexes.
 *
 * <p>Design. What is noted is a node, not a change: draining writes each noted node's document from
 * the graph as it is then (its head version's text, or no document once removed), so a drain is
 * idempotent and can never put an older version over a newer one, whatever order noting and
 * draining interleave in. The graph does not change during a drain (changes need exclusive access,
 * drains run with shared access or on the engine's combiner thread while it decides). One drain
 * runs at a time and holds the lock until its documents are written: a caller whose drain finds the
 * backlog empty because another thread took it waits until those documents are written, so when
 * {@link #drain} returns every node noted before the call is indexed (read-your-writes).
 *
 * <p>Thread-safe.
 */
final class TextBacklog {
  /** A node of a namespace. */
  private record Key(Namespace ns, String id) {}

  private final Object lock = new Object();
  private Set<Key> nodes = new LinkedHashSet<>(); // guarded by lock

  /** Notes that node {@code id}'s text document must be brought in step with the graph. */
  void note(Namespace ns, String id) {
    synchronized (lock) {
      nodes.add(new Key(ns, id));
    }
  }

  /**
   * Passes every noted node to {@code index} (which writes its document as the graph holds it now)
   * and forgets them; returns once every node noted before the call is indexed, by this call or by
   * another one running meanwhile.
   */
  void drain(BiConsumer<Namespace, String> index) {
    synchronized (lock) { // a drain in progress holds it until its documents are written
      if (nodes.isEmpty()) {
        return;
      }
      Set<Key> taken = nodes;
      nodes = new LinkedHashSet<>();
      taken.forEach(k -> index.accept(k.ns(), k.id()));
    }
  }

  /** Forgets every noted node (the graph is being rebuilt, and the indexes reconciled after). */
  void clear() {
    synchronized (lock) {
      nodes = new LinkedHashSet<>();
    }
  }
}
