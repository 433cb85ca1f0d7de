package dev.loci.recall.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.StorageException;
import dev.loci.recall.CachingEmbeddingProvider;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.spi.EmbeddingProvider;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.SubjectMention;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What erasure does to a memory-graph node: it keeps its id, type, weights, version chain and edges
 * (so paths through it and every other record's history survive), and loses its content (replaced
 * by {@value #ERASED_CONTENT}), its attributes, its source reference (a file name or section
 * heading can name the person) and its subjects. The journal scrub and the in-memory erase both use
 * {@link #erased}, so replay and a live erase agree. Edges carry no free text and are kept.
 */
final class RecallErasure {
  /** The content an erased node keeps. */
  static final String ERASED_CONTENT = "[erased]";

  /** The kind nodes have in a subject's manifest. */
  static final String KIND = "node";

  private RecallErasure() {}

  static SubjectMention mention(MemoryNode n, int version) {
    return new SubjectMention(KIND, n.id(), version, n.subjectIds(), Optional.empty());
  }

  static MemoryNode erased(MemoryNode n) {
    return new MemoryNode(
        n.id(),
        n.type(),
        ERASED_CONTENT,
        Map.of(),
        n.importance(),
        n.risk(),
        n.novelty(),
        n.confidence(),
        n.usageCount(),
        n.decayFactor(),
        Optional.empty(),
        List.of());
  }

  /**
   * {@code e} (a node put of batch {@code entry}) with its node erased when its key is in {@code
   * keys}; {@code e} itself otherwise, or when it is already erased.
   */
  static Event scrub(JournalEntry entry, Event e, MemoryNode node, Set<String> keys) {
    if (!keys.contains(SubjectMention.key(entry.namespace(), node.id()))) {
      return e;
    }
    MemoryNode erased = erased(node);
    if (erased.equals(node)) {
      return e;
    }
    ObjectNode out = e.data().deepCopy();
    out.set("node", RecallJson.tree(erased));
    return new Event(e.type(), out);
  }

  /**
   * Erases the vectors of {@code nodes} (every version of each erased node, as they were before
   * erasure) from every vector cache of the data directory: through {@code providers} for the
   * caches this process holds open, by file for the others. A version already erased means an
   * erasure completed after a crash, which can no longer tell which texts were embedded: then every
   * cache is emptied (its vectors are computed again on the next miss).
   */
  static void forgetVectors(
      Optional<Path> dataDir, Collection<EmbeddingProvider> providers, List<MemoryNode> nodes) {
    if (nodes.isEmpty()) {
      return;
    }
    boolean unknown = nodes.stream().anyMatch(n -> n.equals(erased(n)));
    Set<String> texts = new HashSet<>();
    nodes.forEach(n -> texts.add(n.content()));
    java.util.function.Consumer<CachingEmbeddingProvider> erase =
        c -> {
          if (unknown) {
            c.forgetAll();
          } else {
            c.forget(texts);
          }
        };
    Set<Path> held = new HashSet<>();
    for (EmbeddingProvider p : providers) {
      if (p instanceof CachingEmbeddingProvider c) {
        erase.accept(c);
        held.add(c.file().toAbsolutePath().normalize());
      }
    }
    Path dir = dataDir.map(CachingEmbeddingProvider::directory).orElse(null);
    if (dir == null || !Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(f -> f.toString().endsWith(".bin")).toList()) {
        if (!held.contains(f.toAbsolutePath().normalize())) {
          CachingEmbeddingProvider.erase(f, erase);
        }
      }
    } catch (IOException e) {
      throw new StorageException("cannot list the embedding caches in " + dir + ": " + e, e);
    }
  }
}
