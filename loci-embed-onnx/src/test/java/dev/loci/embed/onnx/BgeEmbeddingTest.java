package dev.loci.embed.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** bge-small-en-v1.5 (quantized): CLS pooling, the query prefix, retrieval of paraphrases. */
class BgeEmbeddingTest {
  private static OnnxEmbeddingProvider bge;

  @BeforeAll
  static void load() {
    bge = OnnxEmbeddingProvider.create(OnnxModel.BGE_SMALL_Q, 8);
    bge.load();
  }

  @AfterAll
  static void close() {
    bge.close();
  }

  @Test
  void embed_unitVectorOf384UnderItsOwnId() {
    float[] v = bge.embedDocuments(List.of("We adopted a puppy last weekend.")).get(0);

    assertThat(v).hasSize(384);
    assertThat(OnnxEmbeddingProviderTest.norm(v)).isCloseTo(1.0, within(1e-5));
    assertThat(bge.modelId()).isEqualTo("bge-small-en-v1.5-q");
    assertThat(Embeddings.named("bge-small-q").modelId()).isEqualTo("bge-small-en-v1.5-q");
    assertThat(Embeddings.named("bge-small").modelId()).isEqualTo("bge-small-en-v1.5");
  }

  @Test
  void embedQuery_carriesTheInstructionPrefix_documentsDoNot() {
    String q = "Which pet did they get?";

    float[] asQuery = bge.embedQuery(q);
    float[] prefixed = bge.embedDocuments(List.of(OnnxModel.BGE_QUERY_PREFIX + q)).get(0);
    float[] plain = bge.embedDocuments(List.of(q)).get(0);

    assertThat(asQuery).containsExactly(prefixed, within(1e-5f));
    assertThat(OnnxEmbeddingProviderTest.cosine(asQuery, plain)).isLessThan(0.999);
  }

  @Test
  void embedQuery_findsTheAnsweringPassageOverUnrelatedOnes() {
    float[] q = bge.embedQuery("What kind of dog did Maria adopt?");
    List<float[]> docs =
        bge.embedDocuments(
            List.of(
                "Maria: we brought home a golden retriever puppy from the shelter on Sunday!",
                "Maria: the quarterly report is due before the board meeting.",
                "John: I finally fixed the leaking kitchen tap."));

    double answer = OnnxEmbeddingProviderTest.cosine(q, docs.get(0));
    assertThat(answer).isGreaterThan(OnnxEmbeddingProviderTest.cosine(q, docs.get(1)) + 0.05);
    assertThat(answer).isGreaterThan(OnnxEmbeddingProviderTest.cosine(q, docs.get(2)) + 0.05);
  }

  @Test
  void split_fullQueryAgainstQuantizedDocuments_findsTheAnsweringPassageAsEitherModelAlone() {
    try (OnnxEmbeddingProvider full = OnnxEmbeddingProvider.create(OnnxModel.BGE_SMALL, 8)) {
      SplitEmbeddingProvider split = SplitEmbeddingProvider.of("split", bge, full);
      String query = "What kind of dog did Maria adopt?";
      List<String> passages =
          List.of(
              "Maria: we brought home a golden retriever puppy from the shelter on Sunday!",
              "Maria: the quarterly report is due before the board meeting.");

      float[] q = split.embedQuery(query);
      List<float[]> docs = split.embedDocuments(passages);

      assertThat(q).containsExactly(full.embedQuery(query), within(1e-5f));
      assertThat(docs.get(0)).containsExactly(bge.embedDocuments(passages).get(0), within(1e-5f));
      // one space: the full query is as close to a quantized passage as to its full twin
      float[] fullDoc = full.embedDocuments(passages.subList(0, 1)).get(0);
      assertThat(OnnxEmbeddingProviderTest.cosine(q, docs.get(0)))
          .isCloseTo(OnnxEmbeddingProviderTest.cosine(q, fullDoc), within(0.03))
          .isGreaterThan(OnnxEmbeddingProviderTest.cosine(q, docs.get(1)) + 0.05);
    }
  }

  @Test
  void quantized_batchedAndAloneAgreeClosely_notExactly() {
    List<String> texts =
        List.of("short", "a somewhat longer sentence about the garden and the roses in June");

    List<float[]> batched = bge.embedDocuments(texts);

    // dynamic quantization scales activations over the whole batch, so a batch is not bit-exact
    for (int i = 0; i < texts.size(); i++) {
      float[] alone = bge.embedDocuments(List.of(texts.get(i))).get(0);
      assertThat(OnnxEmbeddingProviderTest.cosine(batched.get(i), alone)).isGreaterThan(0.98);
    }
    assertThat(OnnxModel.BGE_SMALL_Q.pooling()).isEqualTo(OnnxModel.Pooling.CLS);
    assertThat(OnnxModel.MINILM.pooling()).isEqualTo(OnnxModel.Pooling.MEAN);
  }

  @Test
  void fullPrecision_batchedEqualsAlone() {
    try (OnnxEmbeddingProvider full = OnnxEmbeddingProvider.create(OnnxModel.BGE_SMALL, 8)) {
      List<String> texts = List.of("short", "a longer sentence about the garden and the roses");

      List<float[]> batched = full.embedDocuments(texts);

      for (int i = 0; i < texts.size(); i++) {
        assertThat(batched.get(i))
            .containsExactly(full.embedDocuments(List.of(texts.get(i))).get(0), within(1e-4f));
      }
    }
  }
}
