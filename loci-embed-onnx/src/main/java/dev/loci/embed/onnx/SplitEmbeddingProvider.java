package dev.loci.embed.onnx;

import dev.loci.recall.spi.EmbeddingProvider;
import java.util.List;
import java.util.Objects;

/**
 * An embedding provider that embeds documents with one model and queries with another, for two
 * versions of one model whose vectors live in the same space (bge-small-en-v1.5 quantized for the
 * many stored texts, full precision for the few queries), so the cosine between a query and a
 * document means what it would with either model alone.
 *
 * <p>Its {@link #modelId()} is its own, never either model's: the recall projection and the caches
 * keep vectors under the id, and a cache of queries under the quantized model's id would hold
 * vectors this provider does not make. Local when both models are. Thread-safe when both models
 * are.
 */
public final class SplitEmbeddingProvider implements EmbeddingProvider {
  private final String modelId;
  private final EmbeddingProvider documents;
  private final EmbeddingProvider queries;

  private SplitEmbeddingProvider(
      String modelId, EmbeddingProvider documents, EmbeddingProvider queries) {
    this.modelId = modelId;
    this.documents = documents;
    this.queries = queries;
  }

  /**
   * A provider called {@code modelId} that embeds documents with {@code documents} and queries with
   * {@code queries}.
   *
   * @throws IllegalArgumentException if the two models' dimensions differ, or {@code modelId} is
   *     blank or the id of either model
   */
  public static SplitEmbeddingProvider of(
      String modelId, EmbeddingProvider documents, EmbeddingProvider queries) {
    Objects.requireNonNull(modelId, "modelId");
    Objects.requireNonNull(documents, "documents");
    Objects.requireNonNull(queries, "queries");
    if (documents.dimension() != queries.dimension()) {
      throw new IllegalArgumentException(
          "documents and queries must have one dimension, found "
              + documents.dimension()
              + " and "
              + queries.dimension());
    }
    if (modelId.isBlank()
        || modelId.equals(documents.modelId())
        || modelId.equals(queries.modelId())) {
      throw new IllegalArgumentException(
          "modelId must name the pair, not be blank or either model's id, found '" + modelId + "'");
    }
    return new SplitEmbeddingProvider(modelId, documents, queries);
  }

  /** The model documents are embedded with. */
  public EmbeddingProvider documents() {
    return documents;
  }

  /** The model queries are embedded with. */
  public EmbeddingProvider queries() {
    return queries;
  }

  @Override
  public boolean local() {
    return documents.local() && queries.local();
  }

  @Override
  public String modelId() {
    return modelId;
  }

  @Override
  public int dimension() {
    return documents.dimension();
  }

  /** Embeds documents with the documents' model. */
  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    return documents.embedDocuments(texts);
  }

  /** Embeds a query with the queries' model (its query prefix included). */
  @Override
  public float[] embedQuery(String text) {
    return queries.embedQuery(text);
  }

  @Override
  public String toString() {
    return modelId + " (documents " + documents + ", queries " + queries + ")";
  }
}
