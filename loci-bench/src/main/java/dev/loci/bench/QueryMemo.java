package dev.loci.bench;

import dev.loci.recall.spi.EmbeddingProvider;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An embedding provider that remembers every query vector for the life of a benchmark run, so a
 * question asked in many modes, with many knobs and of the dense peer, goes through the model once.
 * Documents pass straight through (the persistent cache beneath handles them). Thread-safe.
 */
final class QueryMemo implements EmbeddingProvider {
  private final EmbeddingProvider delegate;
  private final Map<String, float[]> queries = new ConcurrentHashMap<>();

  private QueryMemo(EmbeddingProvider delegate) {
    this.delegate = delegate;
  }

  /** {@code delegate} with its queries remembered (itself if it already is a memo). */
  static EmbeddingProvider of(EmbeddingProvider delegate) {
    return delegate instanceof QueryMemo ? delegate : new QueryMemo(delegate);
  }

  @Override
  public boolean local() {
    return delegate.local();
  }

  @Override
  public String modelId() {
    return delegate.modelId();
  }

  @Override
  public int dimension() {
    return delegate.dimension();
  }

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    return delegate.embedDocuments(texts);
  }

  @Override
  public float[] embedQuery(String text) {
    return queries.computeIfAbsent(text, delegate::embedQuery).clone();
  }
}
