package dev.loci.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.recall.CachingEmbeddingProvider;
import dev.loci.recall.HashingEmbeddingProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HnswBenchmarkTest {
  @TempDir Path tmp;

  @Test
  void vectors_readsEveryVectorOfACacheFile_inOrder() {
    HashingEmbeddingProvider hashing = HashingEmbeddingProvider.create();
    List<String> texts = List.of("restart the pods", "page the on-call", "late payment clause");
    Path file = tmp.resolve("hashing.bin");
    try (CachingEmbeddingProvider cache = CachingEmbeddingProvider.open(hashing, file)) {
      cache.embedDocuments(texts);
    }

    List<float[]> read = HnswBenchmark.vectors(file);

    assertThat(read).hasSize(3);
    for (int i = 0; i < texts.size(); i++) {
      assertThat(read.get(i)).containsExactly(hashing.embedDocuments(List.of(texts.get(i))).get(0));
    }
  }

  @Test
  void vectors_notACacheFile_refusedNamingIt() throws Exception {
    Path file = Files.writeString(tmp.resolve("x.bin"), "not a cache file at all");
    assertThatThrownBy(() -> HnswBenchmark.vectors(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("x.bin");
  }

  @Test
  void corpus_keepsTheRealVectorsAndFillsUpWithUnitMixtures_andExactTopFindsThemBestFirst() {
    List<float[]> real =
        List.of(new float[] {1, 0, 0}, new float[] {0, 1, 0}, new float[] {0, 0, 1});
    float[][] corpus = HnswBenchmark.corpus(real, 50, 1);

    assertThat(corpus).hasNumberOfRows(50);
    assertThat(List.of(corpus).subList(0, 3)).containsExactlyInAnyOrderElementsOf(real);
    for (float[] v : corpus) {
      double norm = 0;
      for (float x : v) {
        norm += x * x;
      }
      assertThat(norm).isCloseTo(1, org.assertj.core.data.Offset.offset(1e-4));
    }
    int[] top = HnswBenchmark.exactTop(corpus, new float[] {1, 0, 0});
    assertThat(top).hasSize(10);
    for (int i = 1; i < top.length; i++) {
      assertThat(corpus[top[i - 1]][0]).isGreaterThanOrEqualTo(corpus[top[i]][0]);
    }
    assertThat(corpus[top[0]][0]).isEqualTo(1f);
  }

  /** Unit vectors with random components seeded by the text: no ties between dot products. */
  private static final dev.loci.recall.spi.EmbeddingProvider RANDOM =
      new dev.loci.recall.spi.EmbeddingProvider() {
        @Override
        public String modelId() {
          return "random-32";
        }

        @Override
        public int dimension() {
          return 32;
        }

        @Override
        public List<float[]> embedDocuments(List<String> texts) {
          return texts.stream()
              .map(
                  t -> {
                    java.util.Random r = new java.util.Random(t.hashCode());
                    float[] v = new float[32];
                    for (int d = 0; d < v.length; d++) {
                      v[d] = (float) r.nextGaussian();
                    }
                    return org.apache.lucene.util.VectorUtil.l2normalize(v);
                  })
              .toList();
        }
      };

  @Test
  void run_keepIndexes_searchesTheKeptIndexAgain_andReRankedInt8FindsTheExactTop()
      throws Exception {
    Path docs = tmp.resolve("docs.bin");
    Path queries = tmp.resolve("queries.bin");
    try (CachingEmbeddingProvider cache = CachingEmbeddingProvider.open(RANDOM, docs)) {
      cache.embedDocuments(
          java.util.stream.IntStream.range(0, 300).mapToObj(i -> "document " + i).toList());
    }
    try (CachingEmbeddingProvider cache = CachingEmbeddingProvider.open(RANDOM, queries)) {
      cache.embedDocuments(List.of("query 1", "query 2", "query 3"));
    }
    HnswBenchmark.Options options =
        new HnswBenchmark.Options(
            List.of(docs),
            queries,
            List.of(600),
            List.of(new dev.loci.recall.internal.VectorCodec(16, 100, true)),
            List.of(600),
            3,
            tmp.resolve("work"),
            true,
            HnswBenchmark.RAM_BUFFER_MB);
    java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();

    HnswBenchmark.Report first = HnswBenchmark.run(options, new java.io.PrintStream(log, true));
    HnswBenchmark.Report second = HnswBenchmark.run(options, new java.io.PrintStream(log, true));

    assertThat(tmp.resolve("work").resolve("hnsw-600-16-100-int8")).isDirectory();
    assertThat(log.toString()).containsOnlyOnce("searching the index kept from an earlier run");
    assertThat(second.rows()).hasSize(first.rows().size());
    assertThat(second.rows().get(1).buildSeconds()).isEqualTo(first.rows().get(1).buildSeconds());
    // with every vector a candidate, re-ranking by the float vectors is the exact scan
    HnswBenchmark.Row reranked = second.rows().get(2);
    assertThat(reranked.codec()).endsWith("float re-rank");
    assertThat(reranked.recall()).isEqualTo(1.0);
  }
}
