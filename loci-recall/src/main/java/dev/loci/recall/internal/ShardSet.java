package dev.loci.recall.internal;

import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.apache.lucene.analysis.Analyzer;

/**
 * One {@link IndexShard} per namespace, under {@code root/<namespace>} (or in memory), and the
 * recovery rule that brings a shard in step with the live nodes of its namespace.
 *
 * <p>Thread-safe for lookups, changes and {@link #commit} (which the recall layer also runs with
 * the engine's shared access); {@link #close} runs with its exclusive access.
 */
final class ShardSet {
  /** What recovery did with one shard. */
  enum Outcome {
    /** The shard reflected the applied sequence and was used as it was. */
    REUSED,
    /** The shard was behind: only the documents of changed nodes were rewritten. */
    CAUGHT_UP,
    /** The shard was missing, unreadable or ahead of the journal: every document was rewritten. */
    REBUILT
  }

  private final Optional<Path> root;
  private final String format;
  private final Analyzer analyzer;
  private final IndexShard.Tuning tuning;
  private final Map<Namespace, IndexShard> shards = new ConcurrentHashMap<>();
  private volatile boolean closed;

  ShardSet(Optional<Path> root, String format, Analyzer analyzer, IndexShard.Tuning tuning) {
    this.root = root;
    this.format = format;
    this.analyzer = analyzer;
    this.tuning = tuning;
  }

  /**
   * The shard of {@code ns}, opened (or created) on first use.
   *
   * @throws IllegalStateException after {@link #close}: a shard opened then would never be closed
   */
  IndexShard shard(Namespace ns) {
    if (closed) {
      throw new IllegalStateException(
          "the indexes " + root.map(r -> "under " + r).orElse("in memory") + " are closed");
    }
    return shards.computeIfAbsent(
        ns, n -> IndexShard.open(root.map(r -> r.resolve(n.value())), format, analyzer, tuning));
  }

  /** Runs {@code action} on every open shard. */
  void forEachOpen(java.util.function.Consumer<IndexShard> action) {
    shards.values().forEach(action);
  }

  /** The shard of {@code ns} if it is open. */
  Optional<IndexShard> find(Namespace ns) {
    return Optional.ofNullable(shards.get(ns));
  }

  /** The live nodes of a namespace as the graph holds them, read in place. */
  interface LiveNodes {
    /** None. */
    LiveNodes NONE =
        new LiveNodes() {
          @Override
          public void forEach(BiConsumer<String, Integer> action) {}

          @Override
          public Integer version(String id) {
            return null;
          }
        };

    /** Runs {@code action} on the id and head version of every live node. */
    void forEach(BiConsumer<String, Integer> action);

    /** The head version of node {@code id} if it is live, else null. */
    Integer version(String id);
  }

  /**
   * Brings the shard of {@code ns} in step with {@code live} at {@code seq}: reused when its commit
   * recorded {@code seq} and it holds one document per live node, or when it recorded less but no
   * document differs (writes of other layers or namespaces); caught up (documents of stale versions
   * and gone nodes removed) when it recorded less and some differ; emptied when it is new, was
   * unreadable or recorded more. Every live node without a document of its version is then passed
   * to {@code missing}.
   *
   * @param liveCount how many nodes {@code live} holds
   * @param live the live nodes, read in place (a map of every node of a large namespace cost more
   *     than the rest of the check)
   * @param complete whether a shard in step holds every live node (text), or only those computed so
   *     far (vectors), which decides whether a missing document means the shard was behind
   */
  Outcome reconcile(
      Namespace ns,
      long seq,
      int liveCount,
      LiveNodes live,
      boolean complete,
      BiConsumer<String, Integer> missing) {
    IndexShard shard = shard(ns);
    long recorded = shard.recordedSeq();
    if (recorded >= 0 && recorded == seq && shard.size() == liveCount) {
      return Outcome.REUSED;
    }
    if (recorded < 0 || recorded > seq) {
      shard.removeAll();
      live.forEach(missing);
      return Outcome.REBUILT;
    }
    boolean[] changed = {false};
    Map<String, Integer> have = shard.versions();
    for (Map.Entry<String, Integer> d : have.entrySet()) {
      if (!d.getValue().equals(live.version(d.getKey()))) {
        shard.remove(d.getKey());
        changed[0] = true;
      }
    }
    if (changed[0] && complete) {
      // text: BM25 statistics count deleted documents until they are merged away; a caught-up
      // index must score as a rebuilt one does (vectors have no such statistics, and merging
      // their segments rebuilds HNSW graphs, so they keep their deletes)
      shard.expungeDeletes();
    }
    live.forEach(
        (id, v) -> {
          if (!v.equals(have.get(id))) {
            missing.accept(id, v);
            changed[0] |= complete;
          }
        });
    return changed[0] ? Outcome.CAUGHT_UP : Outcome.REUSED;
  }

  /** Whether a storage failure closed the writer of some shard. */
  boolean anyBroken() {
    for (IndexShard s : shards.values()) {
      if (s.broken()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Reopens the shards a storage failure closed, from their last commits; returns the namespaces
   * reopened, which the caller then {@link #reconcile}s. A shard that cannot be reopened yet stays
   * broken.
   */
  Set<Namespace> reopenBroken() {
    Set<Namespace> out = new HashSet<>();
    shards.forEach(
        (ns, s) -> {
          if (s.broken() && s.reopen(analyzer, tuning)) {
            out.add(ns);
          }
        });
    return out;
  }

  /** Closes and deletes the shards of namespaces not in {@code keep}, open or only on disk. */
  void retainOnly(Set<Namespace> keep) {
    Set<Namespace> all = new HashSet<>(shards.keySet());
    all.addAll(onDisk());
    for (Namespace ns : all) {
      if (!keep.contains(ns)) {
        IndexShard s = shards.remove(ns);
        if (s != null) {
          s.delete();
        } else {
          IndexShard.deleteTree(root.orElseThrow().resolve(ns.value()));
        }
      }
    }
  }

  private Set<Namespace> onDisk() {
    Set<Namespace> out = new HashSet<>();
    if (root.isEmpty() || !Files.isDirectory(root.get())) {
      return out;
    }
    try (Stream<Path> dirs = Files.list(root.get())) {
      dirs.forEach(
          d -> {
            try {
              out.add(Namespace.of(d.getFileName().toString()));
            } catch (InvalidRequestException e) {
              // not a shard of ours
            }
          });
    } catch (IOException e) {
      throw new StorageException("cannot list " + root.get() + ": " + e.getMessage(), e);
    }
    return out;
  }

  /** Commits the shards that changed ({@code all}: every shard) recording {@code seq}. */
  void commit(long seq, boolean all) {
    for (IndexShard s : shards.values()) {
      if (all ? s.recordedSeq() != seq || s.dirty() : s.dirty()) {
        s.commit(seq);
      }
    }
  }

  /** Closes every shard without committing. */
  void close() {
    closed = true;
    RuntimeException failed = null;
    for (IndexShard s : shards.values()) {
      try {
        s.close();
      } catch (RuntimeException e) {
        if (failed == null) {
          failed = e;
        } else {
          failed.addSuppressed(e);
        }
      }
    }
    shards.clear();
    if (failed != null) {
      throw failed;
    }
  }
}
