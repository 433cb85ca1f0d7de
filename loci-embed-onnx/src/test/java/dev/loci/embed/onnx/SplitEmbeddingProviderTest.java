package dev.loci.embed.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.recall.spi.EmbeddingProvider;
import java.util.List;
import org.junit.jupiter.api.Test;

class SplitEmbeddingProviderTest {
  /** A model that answers every text with one unit vector along {@code axis}. */
  private record Axis(String modelId, int dimension, int axis, boolean local)
      implements EmbeddingProvider {
    @Override
    public List<float[]> embedDocuments(List<String> texts) {
      return texts.stream().map(t -> unit()).toList();
    }

    @Override
    public float[] embedQuery(String text) {
      float[] v = unit();
      v[axis] = -1; // a query vector unlike this model's document vector
      return v;
    }

    private float[] unit() {
      float[] v = new float[dimension];
      v[axis] = 1;
      return v;
    }
  }

  @Test
  void embed_documentsByOneModel_queriesByTheOther() {
    SplitEmbeddingProvider p =
        SplitEmbeddingProvider.of(
            "pair", new Axis("docs", 4, 0, true), new Axis("queries", 4, 1, true));

    assertThat(p.embedDocuments(List.of("a", "b")))
        .containsExactly(new float[] {1, 0, 0, 0}, new float[] {1, 0, 0, 0});
    assertThat(p.embedQuery("q")).containsExactly(0, -1, 0, 0);
    assertThat(p.modelId()).isEqualTo("pair");
    assertThat(p.dimension()).isEqualTo(4);
    assertThat(p.local()).isTrue();
  }

  @Test
  void local_onlyWhenBothModelsAre() {
    assertThat(
            SplitEmbeddingProvider.of(
                    "pair", new Axis("docs", 4, 0, true), new Axis("queries", 4, 1, false))
                .local())
        .isFalse();
  }

  @Test
  void of_differentDimensions_refused() {
    assertThatThrownBy(
            () ->
                SplitEmbeddingProvider.of(
                    "pair", new Axis("docs", 4, 0, true), new Axis("queries", 3, 1, true)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("found 4 and 3");
  }

  @Test
  void of_eitherModelsId_refusedSoNoCacheMixesTheirVectors() {
    EmbeddingProvider docs = new Axis("docs", 4, 0, true);
    EmbeddingProvider queries = new Axis("queries", 4, 1, true);

    assertThatThrownBy(() -> SplitEmbeddingProvider.of("docs", docs, queries))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("found 'docs'");
    assertThatThrownBy(() -> SplitEmbeddingProvider.of("queries", docs, queries))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SplitEmbeddingProvider.of(" ", docs, queries))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
