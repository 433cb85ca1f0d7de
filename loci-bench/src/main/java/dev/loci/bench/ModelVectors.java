package dev.loci.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Model vectors for the recall benchmark's synthetic corpus, in place of its hashing vectors: node
 * {@code i} gets vector {@code i} of {@link HnswBenchmark#corpus} over the documents' real vectors
 * (the real ones, shuffled, then mixtures of them, seed 42), and query {@code j} vector {@code j}
 * (modulo their count) of the queries' file. The texts stay the synthetic ones, so {@code lexical}
 * is unchanged and the vectors do not match the texts; what changes is the distribution the HNSW
 * graph and the exact scan work on (a model's: clustered, a strong shared direction) instead of
 * word-overlap hashing vectors that are nearly orthogonal between unrelated texts.
 *
 * @param documents embedding cache files whose vectors make the corpus
 * @param queries the embedding cache file whose vectors are the queries
 */
public record ModelVectors(List<Path> documents, Path queries) {
  /** Checks the values and copies the list. */
  public ModelVectors {
    documents = List.copyOf(documents);
    Objects.requireNonNull(queries, "queries");
    if (documents.isEmpty()) {
      throw new IllegalArgumentException("vectors: at least one document cache file is needed");
    }
  }

  /** Gives {@code corpus}'s nodes and queries these vectors. */
  void apply(RecallBenchmark.Corpus corpus) {
    List<float[]> real = new ArrayList<>();
    documents.forEach(p -> real.addAll(HnswBenchmark.vectors(p)));
    List<float[]> asked = HnswBenchmark.vectors(queries);
    if (real.isEmpty() || asked.isEmpty()) {
      throw new IllegalArgumentException("vectors: the cache files hold no vectors");
    }
    int dimension = corpus.vectors[0].length;
    if (real.get(0).length != dimension || asked.get(0).length != dimension) {
      throw new IllegalArgumentException(
          "vectors: the cache files hold vectors of "
              + real.get(0).length
              + " and "
              + asked.get(0).length
              + " dimensions, the benchmark's provider "
              + dimension);
    }
    float[][] mixed = HnswBenchmark.corpus(real, corpus.texts.length, 42);
    for (int i = 0; i < mixed.length; i++) {
      corpus.vectors[i] = mixed[i];
      corpus.byText.put(corpus.texts[i], mixed[i]);
    }
    for (int j = 0; j < corpus.queries.size(); j++) {
      corpus.byText.put(corpus.queries.get(j), asked.get(j % asked.size()));
    }
  }

  @Override
  public String toString() {
    return "model vectors from " + documents + " (queries " + queries + ")";
  }
}
