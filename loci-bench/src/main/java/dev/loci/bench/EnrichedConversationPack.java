package dev.loci.bench;

import dev.loci.recall.DomainPacks;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.ScoreWeights;
import dev.loci.recall.spi.DomainPack;
import dev.loci.recall.spi.Ingestion;
import dev.loci.recall.spi.SourceDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The {@code conversation} pack with richer node text, for the LoCoMo benchmark: the pack reads the
 * file exactly as it always does (same ids, edges, attributes and skips), then each turn's indexed
 * text gets the session date ({@code [8 May, 2023]}) and the text of up to {@code window}
 * neighbouring turns of the same session on each side. With no date and a window of 0 it is the
 * pack unchanged. Immutable and thread-safe.
 *
 * @param dated whether the session date is added
 * @param window how many neighbouring turns on each side are added, 0 to 3
 */
record EnrichedConversationPack(boolean dated, int window) implements DomainPack {
  private static final DomainPack CONVERSATION = DomainPacks.named("conversation");

  /** Checks the window. */
  EnrichedConversationPack {
    if (window < 0 || window > 3) {
      throw new IllegalArgumentException("expected a window of 0 to 3 turns, found " + window);
    }
  }

  /**
   * A short name for reports: {@code raw}, {@code dated}, {@code window1}, {@code dated+window1}.
   */
  String label() {
    if (!dated && window == 0) {
      return "raw";
    }
    return (dated ? "dated" : "")
        + (dated && window > 0 ? "+" : "")
        + (window > 0 ? "window" + window : "");
  }

  @Override
  public String name() {
    return CONVERSATION.name();
  }

  @Override
  public ScoreWeights weights() {
    return CONVERSATION.weights();
  }

  @Override
  public Ingestion read(SourceDocument document) {
    Ingestion plain = CONVERSATION.read(document);
    if (!dated && window == 0) {
      return plain;
    }
    List<Ingestion.Graph> graphs = new ArrayList<>();
    for (Ingestion.Graph g : plain.graphs()) {
      List<MemoryNode> nodes = g.nodes();
      List<MemoryNode> enriched = new ArrayList<>(nodes.size());
      for (int i = 0; i < nodes.size(); i++) {
        enriched.add(enrich(nodes, i));
      }
      graphs.add(new Ingestion.Graph(g.childLabel(), enriched, g.edges()));
    }
    return new Ingestion(graphs, plain.skipped());
  }

  private MemoryNode enrich(List<MemoryNode> nodes, int i) {
    MemoryNode n = nodes.get(i);
    String session = session(n);
    StringBuilder text = new StringBuilder(n.content());
    if (dated) {
      n.attributes().entrySet().stream()
          .filter(e -> e.getKey().equals("session_time"))
          .findFirst()
          .ifPresent(e -> text.append(" [").append(e.getValue()).append(']'));
    }
    for (int d = 1; d <= window; d++) {
      appendIfSameSession(text, nodes, i - d, session);
      appendIfSameSession(text, nodes, i + d, session);
    }
    return new MemoryNode(
        n.id(),
        n.type(),
        text.toString(),
        n.attributes(),
        n.importance(),
        n.risk(),
        n.novelty(),
        n.confidence(),
        n.usageCount(),
        n.decayFactor(),
        n.sourceRef());
  }

  private static void appendIfSameSession(
      StringBuilder text, List<MemoryNode> nodes, int j, String session) {
    if (j >= 0 && j < nodes.size() && Objects.equals(session(nodes.get(j)), session)) {
      text.append(" | ").append(nodes.get(j).content());
    }
  }

  private static String session(MemoryNode n) {
    return n.attributes().getOrDefault("session", "");
  }
}
