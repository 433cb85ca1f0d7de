package dev.loci.recall.spi;

import dev.loci.recall.ScoreWeights;

/**
 * A domain's conventions for turning files into a memory graph: how a file splits into nodes
 * (ingestion conventions), which types they get (node typing), which edges join them (edge typing),
 * and how nodes and edges are weighted (weight heuristics), plus the default weights of the {@code
 * weighted_graph} formula for the domain.
 *
 * <p>Implementations are stateless and thread-safe, and deterministic: the same document gives the
 * same graph, which is what makes re-ingesting an unchanged file a no-op. A pack found through
 * {@link java.util.ServiceLoader} (a {@code META-INF/services/dev.loci.recall.spi.DomainPack}
 * entry) needs a public no-argument constructor.
 */
public interface DomainPack {
  /** The name users select it by, for example {@code markdown:contract}. */
  String name();

  /** The {@code weighted_graph} weights for graphs this pack made. */
  ScoreWeights weights();

  /**
   * Reads one document. Problems with parts of it are reported in {@link Ingestion#skipped()}; only
   * a document the pack cannot read at all throws.
   *
   * @throws dev.loci.InvalidRequestException naming {@code path} if the document is unreadable
   */
  Ingestion read(SourceDocument document);
}
