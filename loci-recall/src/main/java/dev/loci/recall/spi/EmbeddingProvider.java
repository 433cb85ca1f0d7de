package dev.loci.recall.spi;

import java.util.List;

/**
 * Turns text into vectors for the {@code embedding}, {@code hybrid} and graph recall modes.
 *
 * <p>Implementations are deterministic (the same text and model give the same vector, so a rebuilt
 * index equals the old one), thread-safe, and return unit-length vectors of {@link #dimension()}
 * floats. Documents are embedded in batches of the caller's choosing; a model with a preferred
 * batch size splits larger batches itself. Vectors are cached by the recall projection under {@link
 * #modelId()}, so two providers with different vectors must have different ids.
 */
public interface EmbeddingProvider {
  /**
   * Whether the model runs on this machine, so that texts never leave it; true by default. A
   * provider that calls a remote service must say false: then recall asks {@link dev.loci.Egress}
   * before sending it the content of a namespace, and a local-only vertical (healthcare) refuses.
   */
  default boolean local() {
    return true;
  }

  /** Identifies the model and its version, for example {@code hashing-384-v1}. */
  String modelId();

  /** The length of every vector. */
  int dimension();

  /** Embeds documents (node contents), one unit vector per text, in order. */
  List<float[]> embedDocuments(List<String> texts);

  /**
   * Embeds a query. Models trained with query and passage prefixes differ here; by default it is
   * the same as a document.
   */
  default float[] embedQuery(String text) {
    return embedDocuments(List.of(text)).get(0);
  }
}
