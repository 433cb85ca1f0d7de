package dev.loci.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.recall.CachingEmbeddingProvider;
import dev.loci.recall.HashingEmbeddingProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelVectorsTest {
  @TempDir Path tmp;

  private Path cache(String name, List<String> texts) {
    Path file = tmp.resolve(name);
    try (CachingEmbeddingProvider cache =
        CachingEmbeddingProvider.open(HashingEmbeddingProvider.create(), file)) {
      cache.embedDocuments(texts);
    }
    return file;
  }

  @Test
  void apply_givesNodesTheMixedCorpusAndQueriesTheQueryVectors() {
    Path docs = cache("docs.bin", IntStream.range(0, 50).mapToObj(i -> "turn " + i).toList());
    Path queries = cache("queries.bin", List.of("question one", "question two"));
    RecallBenchmark.Corpus corpus = new RecallBenchmark.Corpus(200, 5, 7);

    new ModelVectors(List.of(docs), queries).apply(corpus);

    float[][] expected = HnswBenchmark.corpus(HnswBenchmark.vectors(docs), 200, 42);
    List<float[]> asked = HnswBenchmark.vectors(queries);
    for (int i = 0; i < 200; i++) {
      assertThat(corpus.vectors[i]).containsExactly(expected[i]);
      assertThat(corpus.byText.get(corpus.texts[i])).containsExactly(expected[i]);
    }
    for (int j = 0; j < 5; j++) {
      assertThat(corpus.byText.get(corpus.queries.get(j))).containsExactly(asked.get(j % 2));
    }
  }

  @Test
  void apply_vectorsOfAnotherDimension_refused() {
    Path file = tmp.resolve("small.bin");
    dev.loci.recall.spi.EmbeddingProvider small =
        new dev.loci.recall.spi.EmbeddingProvider() {
          @Override
          public String modelId() {
            return "small-16";
          }

          @Override
          public int dimension() {
            return 16;
          }

          @Override
          public List<float[]> embedDocuments(List<String> texts) {
            float[] v = new float[16];
            v[0] = 1;
            return texts.stream().map(t -> v.clone()).toList();
          }
        };
    try (CachingEmbeddingProvider cache = CachingEmbeddingProvider.open(small, file)) {
      cache.embedDocuments(List.of("a b c"));
    }
    RecallBenchmark.Corpus corpus = new RecallBenchmark.Corpus(100, 2, 7);

    assertThatThrownBy(() -> new ModelVectors(List.of(file), file).apply(corpus))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("dimensions");
  }
}
