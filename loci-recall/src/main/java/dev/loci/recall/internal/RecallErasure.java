package dev.loci.recall.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.recall.MemoryNode;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.SubjectMention;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
}
