package dev.loci.recall.internal;

import dev.loci.Namespace;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.spi.EmbeddingProvider;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The vector projection: node embeddings per model and namespace, computed on first use by the
 * provider a query names and dropped when the node changes, searched by an exact scan (cosine of
 * unit vectors). An HNSW index takes over from the scan later; the cache is the same.
 *
 * <p>Invalidation happens under the engine's exclusive lock, filling and searching under its shared
 * lock from any number of threads: two readers may compute the same vector, which is harmless
 * because providers are deterministic.
 */
final class VectorIndex {
  private static final int BATCH = 64;

  private final Map<String, Map<Namespace, Map<String, float[]>>> byModel =
      new ConcurrentHashMap<>();

  /** A cosine hit. */
  record Hit(String id, double score) {}

  /** Drops the vectors of node {@code id} in every model. */
  void invalidate(Namespace ns, String id) {
    for (Map<Namespace, Map<String, float[]>> model : byModel.values()) {
      Map<String, float[]> m = model.get(ns);
      if (m != null) {
        m.remove(id);
      }
    }
  }

  /** Forgets every vector. */
  void clear() {
    byModel.clear();
  }

  /**
   * The {@code k} nodes most similar to {@code query} with a positive cosine, best first, ties by
   * id. Vectors missing for {@code nodes} are computed first, in batches.
   */
  List<Hit> search(
      EmbeddingProvider provider,
      Namespace ns,
      Collection<MemoryNode> nodes,
      float[] query,
      int k) {
    Map<String, float[]> vectors =
        byModel
            .computeIfAbsent(provider.modelId(), m -> new ConcurrentHashMap<>())
            .computeIfAbsent(ns, n -> new ConcurrentHashMap<>());
    List<MemoryNode> missing = new ArrayList<>();
    for (MemoryNode n : nodes) {
      if (!vectors.containsKey(n.id())) {
        missing.add(n);
      }
    }
    for (int i = 0; i < missing.size(); i += BATCH) {
      List<MemoryNode> batch = missing.subList(i, Math.min(missing.size(), i + BATCH));
      List<float[]> out = provider.embedDocuments(batch.stream().map(MemoryNode::content).toList());
      if (out.size() != batch.size()) {
        throw new IllegalStateException(
            "embedding provider "
                + provider.modelId()
                + " returned "
                + out.size()
                + " vectors for "
                + batch.size()
                + " texts");
      }
      for (int j = 0; j < batch.size(); j++) {
        vectors.put(batch.get(j).id(), checked(provider, out.get(j)));
      }
    }
    List<Hit> hits = new ArrayList<>();
    for (MemoryNode n : nodes) {
      double cos = dot(query, vectors.get(n.id()));
      if (cos > 0) {
        hits.add(new Hit(n.id(), cos));
      }
    }
    hits.sort(Comparator.comparingDouble(Hit::score).reversed().thenComparing(Hit::id));
    return List.copyOf(hits.subList(0, Math.min(k, hits.size())));
  }

  static float[] checked(EmbeddingProvider provider, float[] v) {
    if (v.length != provider.dimension()) {
      throw new IllegalStateException(
          "embedding provider "
              + provider.modelId()
              + " returned a vector of "
              + v.length
              + " dimensions, expected "
              + provider.dimension());
    }
    return v;
  }

  static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }
}
