package dev.loci.bench;

import dev.loci.recall.CachingEmbeddingProvider;
import dev.loci.recall.spi.EmbeddingProvider;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An embedding provider that remembers every query vector for the life of a benchmark run, so a
 * question asked in many modes, with many knobs and of the dense peer, goes through the model once;
 * over a {@link CachingEmbeddingProvider} it also keeps query vectors on disk beside the document
 * cache ({@code <model>.queries.bin}), so a rerun embeds no question again. Documents pass straight
 * through (the persistent cache beneath handles them). Close it to fsync the query cache.
 * Thread-safe.
 */
final class QueryMemo implements EmbeddingProvider, AutoCloseable {
  private final EmbeddingProvider delegate;
  private final Optional<CachingEmbeddingProvider> disk;
  private final Map<String, float[]> queries = new ConcurrentHashMap<>();

  private QueryMemo(EmbeddingProvider delegate, Optional<CachingEmbeddingProvider> disk) {
    this.delegate = delegate;
    this.disk = disk;
  }

  /** {@code delegate} with its queries remembered (itself if it already is a memo). */
  static EmbeddingProvider of(EmbeddingProvider delegate) {
    return delegate instanceof QueryMemo ? delegate : new QueryMemo(delegate, Optional.empty());
  }

  /**
   * {@code delegate} with its queries remembered, and kept on disk when it is a cache: the query
   * vectors of its model go to a cache file of their own, where each text stands for its query.
   */
  static QueryMemo persistent(EmbeddingProvider delegate) {
    if (delegate instanceof CachingEmbeddingProvider c) {
      String name = c.file().getFileName().toString().replaceFirst("\\.bin$", "") + ".queries.bin";
      return new QueryMemo(
          delegate,
          Optional.of(
              CachingEmbeddingProvider.open(
                  new AsQueries(c.delegate()), c.file().resolveSibling(name))));
    }
    return new QueryMemo(delegate, Optional.empty());
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
    return queries
        .computeIfAbsent(
            text,
            t ->
                disk.map(d -> d.embedDocuments(List.of(t)).get(0))
                    .orElseGet(() -> delegate.embedQuery(t)))
        .clone();
  }

  @Override
  public void close() {
    disk.ifPresent(CachingEmbeddingProvider::close);
  }

  /** A provider whose documents are queries: what the query cache stores under each text. */
  private record AsQueries(EmbeddingProvider model) implements EmbeddingProvider {
    @Override
    public boolean local() {
      return model.local();
    }

    @Override
    public String modelId() {
      return model.modelId();
    }

    @Override
    public int dimension() {
      return model.dimension();
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
      return texts.stream().map(model::embedQuery).toList();
    }

    @Override
    public float[] embedQuery(String text) {
      return model.embedQuery(text);
    }
  }
}
