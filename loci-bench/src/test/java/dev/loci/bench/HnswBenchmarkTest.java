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
}
